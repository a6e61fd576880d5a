"""The cards the host picks from and the moves offered without a die (issue 39, items 1 and 2):
the revealed card was typed as an id in a free text field, and the move form offered every path,
refused under Pavise («déplacez-vous ... en utilisant un dé», runemasters.fr.txt, Événements)."""

from __future__ import annotations

from runemasters_helpers import card, new_session, position, setup_event

from companion.games.runemasters import GAME


def test_the_cards_offered_are_those_the_pile_may_give_now(tmp_path):
    """Two guardians: the pile holds the two-player cards of their paths and one Dragon
    (rulebook, "Mise en place"); a card drawn is not offered again; the round's Event comes
    from the Event pile."""
    session = new_session(tmp_path)
    session.submit(setup_event(("kulak", "blue"), ("kyreas", "red")))
    offered = session.view()["cards"]
    ids = [c["id"] for c in offered]
    assert ids, "cards to pick from"
    for entry in offered:  # each one is taken, named in both languages
        assert set(entry["name"]) == {"en", "fr", "es"}
        assert GAME.takes(session.state, {"type": "card", "id": entry["id"]})
    assert not any(c.startswith("warrior-") for c in ids)  # not a two-player card
    assert "troll-blue" in ids and {"en": "Blue Troll", "fr": "Troll bleu", "es": "Trol azul"} in [
        c["name"] for c in offered]
    session.submit(card("troll-blue"))
    assert "troll-blue" not in [c["id"] for c in session.view()["cards"]]
    session.submit(card("troll-red"))
    session.submit(card("archer-blue"))
    events = session.view()["cards"]  # the Elder reveals the round's Event
    assert events and all(c["colour"] is None for c in events)
    assert "guardian_angel" in [c["id"] for c in events]
    session.close()


def test_a_move_without_a_die_is_offered_only_when_the_rules_take_it(tmp_path):
    session = new_session(tmp_path)
    session.submit(setup_event(("kulak", "blue"), ("kyreas", "red")))
    for event in (card("troll-blue"), card("troll-red"), card("archer-blue"),
                  card("pavise")):
        session.submit(event)
    while (kind := session.expects().kind) != "action":  # a monster appears, the runes roll
        session.submit({"type": "dice", "faces": ["white"] * session.expects().count}
                       if kind == "dice" else card(session.view()["cards"][0]["id"]))
    view = session.view()
    assert view["free_moves"] == []  # Pavise: a move needs a die
    for path in ("blue", "red"):
        assert not GAME.takes(session.state, {"type": "move", "to": path})
    session.close()


def test_the_spaces_a_hit_and_a_mark_point_at_are_the_ones_the_rules_take():
    """The rules' view names the spaces the hit and Mark forms offer (the page used to work them
    out itself): a rune hits «le premier monstre sur votre chemin», Kyreas' Tourbillon «n'importe
    quel point faible du premier monstre sur votre chemin», Neltaï's Échange «déplacez un monstre
    sur un autre chemin» (runemasters.fr.txt, "Actions liées aux runes" and "Les gardiens");
    Kulak's Prière points at a guardian. Every space offered is taken, every other refused."""
    monsters = {"red": {2: "shadow-red", 4: "archer-red"}, "blue": {1: "shadow-blue"}}
    seats = (("kyreas", "red"), ("neltai", "blue"), ("kulak", "green"))
    for active, hit, mark in [("kyreas", ["red.2"], ["red.2"]),
                              ("neltai", ["blue.1"], ["red.2", "red.4", "blue.1"]),
                              ("kulak", [], [])]:
        state = position(*seats, monsters=monsters, active=active,
                         faces=("white", "red", "violet", "blue"))
        offered = GAME.view(state)["target_spaces"]
        assert sorted(offered["hit"]) == sorted(hit), active
        assert sorted(offered["mark"]) == sorted(mark), active
        path = state["guardians"][active]["path"]
        for n in range(1, 6):
            takes = any(GAME.takes(state, {"type": "hit", "die": d, "space": n})
                        for d in range(1, 4))
            assert takes == (f"{path}.{n}" in hit), (active, n)
        for space in mark:
            where, n = space.split(".")
            event = ({"type": "mark", "die": 0, "space": int(n), "rune": "red"}
                     if active == "kyreas" else
                     {"type": "mark", "die": 0, "from": where, "space": int(n),
                      "to": "green" if where != "green" else "red"})
            assert GAME.takes(state, event), (active, space)
