"""The cards the host picks from and the moves offered without a die (issue 39, items 1 and 2):
the revealed card was typed as an id in a free text field, and the move form offered every path,
refused under Pavise («déplacez-vous ... en utilisant un dé», runemasters.fr.txt, Événements)."""

from __future__ import annotations

from runemasters_helpers import card, new_session, setup_event

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
