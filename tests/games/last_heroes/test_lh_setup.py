"""Setting up Last Heroes (rulebook, «Les Forces en présence (mise en place)», «Le Champ de
bataille» and «Les Derniers Héros», ../shared/rules/last-heroes.fr.txt)."""

from __future__ import annotations

import json

from lastheroes_helpers import (
    CHARGERS,
    chargers,
    kill,
    load,
    play,
    player,
    refused,
    setup_event,
    start,
)


def test_the_table_before_the_chargers(session):
    """«Placez un pion Artefact au-dessus de chacun des Monstres de niveau 3 et positionnez dessus
    une tuile Pouvoir aléatoirement.» «les 2 roues positionnées sur le 0.» «distribuez
    aléatoirement 12 Armes à chaque joueur.»"""
    session.submit(setup_event())
    view = session.view()
    assert view["status"] == "playing" and view["phase"] == "charger" and view["round"] == 0
    assert [c["artefact"] for c in view["battlefield"]] == ["joker", "impact", "adrenaline"]
    assert [lv["monster"] for lv in view["battlefield"][1]["levels"]] == ["bat", "wolf", "snake"]
    assert view["piles"] == {"1": 12, "2": 9, "3": 6}, "15/12/9 cards less one per column"
    for p in view["players"]:
        assert (p["hand"], p["jokers"], p["charisma"]) == (12, 0, 0)
    assert view["expects"]["events"] == ["charger"]
    assert view["expects"]["message"]["params"]["heroes"] == ["blind", "echo", "ace"]


def test_two_cards_each_in_the_charger_then_the_first_player(session):
    """«chaque joueur choisit en secret 2 cartes Arme [...] insère alors ses deux cartes
    (Munitions vers le haut) dans son Chargeur»; «Le premier joueur est choisi au hasard» (at the
    table: Cleo here). «Chaque joueur a 10 cartes Arme en main en début de partie.»"""
    play(session, setup_event(first="ace"), *chargers())
    view = session.view()
    assert view["active"] == "ace" and view["phase"] == "play" and view["round"] == 1
    for p in view["players"]:
        assert p["hand"] == 10 and p["jokers"] == 0
        assert [p["charger"][s]["card"] for s in ("left", "right")] == CHARGERS[p["hero"]]
        assert p["charger"]["left"]["ammo"] == 2
    assert view["discard"] == []


def test_a_third_charger_card_is_refused(session):
    """«choisit 2 cartes Arme de sa Main, et les place dans son Chargeur»: two, no more."""
    play(session, setup_event(), *chargers()[:2])
    refused(session, {"type": "charger", "hero": "blind", "card": "flamethrower-3"},
            "charger.full")


def test_five_players_use_all_five_weapon_types(session):
    """«Utilisez autant de paquets de cartes Arme qu'il y a de joueurs.»"""
    event = setup_event(
        players=[{"name": n, "hero": h} for n, h in (("A", "blind"), ("B", "echo"),
                                                      ("C", "ace"), ("D", "silent"),
                                                      ("E", "tank"))],
        weapons=["flamethrower", "crossbow", "pistol", "gloves", "rifle"],
        battlefield=[[f"m{c}-{lv}" for lv in (1, 2, 3)] for c in range(5)],
        artefacts=["joker", "exchange", "impact", "immunity", "reload"])
    session.submit(event)
    assert session.view()["piles"] == {"1": 10, "2": 7, "3": 4}
    assert len(session.view()["battlefield"]) == 5


def test_a_hand_is_never_in_the_shared_view(session):
    """«Échangez une carte de votre main avec n'importe quelle carte présente dans un Chargeur»:
    the card Ana takes back into her hand after killing the Rat appears nowhere in the view, only
    her number of cards."""
    start(session)
    play(session, load("flamethrower-3", "blind.left"), kill("rat", "flamethrower-3"))
    assert session.view()["prompts"][0]["answer"] == "swap"
    session.submit({"type": "swap", "card": "pistol-6", "slot": "echo.right"})
    view = session.view()
    assert "crossbow-2" not in json.dumps(view)
    assert player(session, "echo")["charger"]["right"]["card"] == "pistol-6"
    assert player(session, "blind")["hand"] == 9 and player(session, "blind")["jokers"] == 0
    assert view["prompts"] == []
