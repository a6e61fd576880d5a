"""Whole Last Bastion games, from setup to each ending, and the score sheet.

Rulebook, "Fin de la partie", "Modes de difficulté" and "Score".
"""

from __future__ import annotations

from lastbastion import card, clear_turn, known, play, solo


def _reach_warlord(session, mode: str = "novice") -> None:
    """Solo game: Gary goes to the SW corner and defeats every monster above the first Warlord."""
    session.submit(solo(mode))
    turn = 0
    while session.view()["deck"]["next_warlord_in"] != 1:
        clear_turn(session, f"monster-{turn}", move_to=None if turn else [2, 0])
        session.submit({"type": "end_turn"})
        turn += 1


def test_victory_when_the_warlord_falls(session):
    """«La partie est gagnée lorsque les joueurs remportent le combat contre le Seigneur de
    Guerre.» Novice, 1 player: 38 - 4 = 34 monsters, the Warlord above the last 8."""
    _reach_warlord(session)
    view = session.view()
    assert view["deck"]["size"] == 35 and view["deck"]["remaining"] == 9
    clear_turn(session, "seigneur", kind="warlord", resistance=2)
    view = session.view()
    assert view["status"] == "won" and view["reason"] == "warlords_defeated"
    kazgin = view["heroes"]["kazgin"]
    assert view["score"] == 5 + kazgin["life"] + 2 * kazgin["call_to_arms"]
    assert view["expects"]["kind"] == "nothing"


def test_archidemon_corruption_loses_a_won_game(session):
    """«Les héros viennent de battre le Seigneur de Guerre « Archidémon du Tourment ». Ils ont déjà
    deux tuiles Bastion sous l'Emprise du Mal avant de lancer un dé Corruption. Le dé tombe
    malheureusement sur la face qui ajoute une figurine Emprise du Mal sur une 3e tuile Bastion.
    La partie est bel et bien perdue…»"""
    _reach_warlord(session)
    play(session, {"type": "adjust", "tile": [0, 0], "grip": True},
         {"type": "adjust", "tile": [0, 1], "grip": True},
         {"type": "teach", "kind": "card", "id": "archidemon-du-tourment",
          "definition": {"colour": "black", "resistance": 3, "complete": True}},
         {"type": "card", "id": "archidemon-du-tourment", "slot": "yellow.2"},
         {"type": "fight", "targets": ["yellow.2"]},
         {"type": "dice", "faces": ["black", "black", "white"], "grey": "red"},
         {"type": "resolve"})
    assert session.view()["expects"]["profile"] == "last-bastion/corruption"
    session.submit({"type": "dice", "faces": ["corruption-1"]})
    session.submit({"type": "answer", "choice": [1, 0]})
    view = session.view()
    assert view["status"] == "lost" and view["reason"] == "third_tile_gripped"
    assert view["deck"]["warlords_remaining"] == 0


def test_two_warlords_in_difficult_mode(session):
    """«Pour les modes Difficile et Héroïque [...] alternez 8 cartes Monstre avec 1 carte Seigneur
    de Guerre.» «La partie est gagnée lorsque tous les Seigneurs de Guerre ont été vaincus.»"""
    _reach_warlord(session, mode="difficult")
    assert session.view()["deck"]["size"] == 38 + 2
    clear_turn(session, "first-warlord", kind="warlord", resistance=1)
    assert session.view()["status"] == "playing"
    assert session.view()["deck"]["next_warlord_in"] == 9
    for n in range(8):
        session.submit({"type": "end_turn"})
        clear_turn(session, f"lower-{n}")
    session.submit({"type": "end_turn"})
    clear_turn(session, "second-warlord", kind="warlord", resistance=1)
    assert session.view()["status"] == "won"
    assert session.view()["score"] >= 15


def test_defeat_when_a_card_must_be_drawn_from_an_empty_deck(session):
    """«Une carte Horde doit être piochée alors que la pioche est vide.»"""
    _reach_warlord(session)
    # the Warlord is left standing on the green board; the 8 monsters under it are defeated
    play(session, card("untouchable", "green", 9, kind="warlord", slot="green.0"),
         {"type": "end_turn"})
    for n in range(8):
        clear_turn(session, f"bottom-{n}")
        session.submit({"type": "end_turn"})
    view = session.view()
    assert view["status"] == "lost" and view["reason"] == "deck_empty"
    assert view["deck"]["remaining"] == 0


def test_defeat_when_every_hero_is_out(session):
    """«Tous les héros sont hors combat.» A recurring Life loss knocks the only hero out."""
    play(session, solo(), card("leech", "yellow", 5, slot="yellow.1",
                               recurring=[{"op": "lose", "token": "life", "amount": 2}]),
         {"type": "end_turn"})
    view = session.view()
    assert view["heroes"]["kazgin"]["life"] == 1 and view["status"] == "playing"
    play(session, card("other", "green", 1, slot="green.1"), {"type": "end_turn"})
    view = session.view()
    assert view["heroes"]["kazgin"]["state"] == "knocked_out"
    assert view["status"] == "lost" and view["reason"] == "all_heroes_out"


def test_score_sheet(session):
    """«10 points pour la victoire en mode Normal; + 1 point par jeton Point de Vie; + 2 points par
    jeton Appel aux Armes; - 3 points par héros mort; - 4 points par tuile Bastion sous l'Emprise
    du Mal» — counted on a lost Normal game: no victory points."""
    from lastbastion import setup_event
    play(session, setup_event([("Gary", "kazgin", "S"), ("Paul", "mylfaar", "N")]),
         *known("incube"),
         {"type": "adjust", "hero": "mylfaar", "state": "dead", "life": 0, "call_to_arms": 0},
         {"type": "adjust", "tile": [0, 0], "grip": True},
         {"type": "adjust", "hero": "kazgin", "life": 4, "call_to_arms": 2})
    assert session.view()["score"] == 4 + 2 * 2 - 3 - 4
