"""The host's corrections in Runemasters (``adjust``): each value a table gets wrong, the books
kept consistent (one guardian a path, one monster a space, the monster pile), refusals that
change nothing, and undo."""

from __future__ import annotations

import pytest
from runemasters_helpers import apply, card, dice, new_session, play, position, refused, setup_event

from companion.engine import RuleError

OPENING = (card("archer-blue"), card("werewolf-red"), card("troll-yellow"))


def adjust(**fields):
    """An adjust event."""
    return {"type": "adjust", **fields}


@pytest.fixture
def session(tmp_path):
    """Kyreas (red, the Elder) and Kulak (blue); Kyreas has rolled and is acting."""
    s = new_session(tmp_path)
    play(s, setup_event(("kyreas", "red"), ("kulak", "blue")), *OPENING,
         card("all_is_calm"), card("shadow-green"), dice("red", "red", "violet", "white"))
    assert s.view()["phase"] == "actions"
    yield s
    s.close()


def guardian(session, guardian_id):
    """One guardian's part of the view."""
    return session.view()["guardians"][guardian_id]


def space(session, name):
    """One path space of the view (None when empty)."""
    path, number = name.split(".")
    return session.view()["paths"][path]["spaces"][int(number) - 1]


def test_a_guardians_values(session):
    step = session.submit(adjust(guardian="kulak", life=2, mana=1, ultimate=3, shield=True,
                                 poison=True, note="misread"))
    kulak = guardian(session, "kulak")
    assert (kulak["life"], kulak["mana"], kulak["ultimate"]["track"]) == (2, 1, 3)
    assert kulak["shield"] and kulak["poison"] and kulak["alive"]
    assert step.label.key == "history.adjust"
    assert step.label.params["note"] == "misread" and "life=2" in step.label.params["what"]


def test_a_path_change_swaps_with_the_guardian_there(session):
    session.submit(adjust(guardian="kyreas", path="blue"))
    assert (guardian(session, "kyreas")["path"], guardian(session, "kulak")["path"]) == (
        "blue", "red")


def test_life_zero_kills_and_ends_the_active_guardians_turn(session):
    session.submit(adjust(guardian="kulak", life=0))
    assert not guardian(session, "kulak")["alive"] and guardian(session, "kulak")["path"] is None
    session.submit(adjust(guardian="kyreas", life=0))
    view = session.view()
    assert (view["status"], view["reason"]) == ("lost", "guardians_dead")


def test_the_active_guardian_killed_the_monsters_march_and_the_next_one_plays(session):
    session.submit(adjust(guardian="kyreas", life=0))
    view = session.view()
    assert view["status"] == "playing"
    assert (view["active"], view["phase"]) == ("kulak", "appear")


def test_a_dead_guardian_comes_back_in_front_of_a_free_path(session):
    session.submit(adjust(guardian="kulak", life=0))
    refused(session, adjust(guardian="kulak", life=3), "adjust.needs_path")
    refused(session, adjust(guardian="kulak", life=3, path="red"), "ultimate.path_taken")
    refused(session, adjust(guardian="kulak", shield=True), "adjust.dead_guardian")
    session.submit(adjust(guardian="kulak", mana=2))
    session.submit(adjust(guardian="kulak", life=3, path="green"))
    kulak = guardian(session, "kulak")
    assert (kulak["alive"], kulak["life"], kulak["path"], kulak["mana"]) == (True, 3, "green", 2)


def test_the_temple(session):
    session.submit(adjust(temple=2))
    assert session.view()["temple"]["life"] == 2
    session.submit(adjust(temple=0))
    assert (session.view()["status"], session.view()["reason"]) == ("lost", "temple_fallen")
    session.submit(adjust(temple=1))  # a finished game's counts may be corrected (docs/events.md)
    view = session.view()
    assert (view["temple"]["life"], view["status"]) == (1, "lost")  # only undo reopens it


def test_the_temple_never_above_its_starting_life():
    state = position(("kulak", "blue"), ("kyreas", "red"), ("ismoros", "green"), monsters={})
    with pytest.raises(RuleError) as error:
        apply(state, "adjust", temple=5)
    assert error.value.key == "adjust.above_max"


def test_the_card_on_a_space(session):
    session.submit(adjust(space="red.2", card="shadow-red"))
    assert space(session, "red.2")["card"] == "shadow-red"
    assert session.view()["deck"]["drawn"] == 4
    session.submit(adjust(space="red.2", card="werewolf-red"))  # the misread card is back
    session.submit(adjust(space="green.5", card="shadow-red"))  # an empty space: a card drawn
    assert space(session, "green.5")["card"] == "shadow-red"
    assert session.view()["deck"]["drawn"] == 5


@pytest.mark.parametrize(("name", "key"), [
    ("archer-blue", "card.already_drawn"), ("nobody", "card.unknown"), ("dawn", "adjust.dawn"),
    ("poison", "card.not_a_monster"), ("warrior-red", "card.not_in_deck")])
def test_a_card_that_cannot_be_there(session, name, key):
    """Known, not revealed yet, of this table's pile (no Warrior with two guardians)."""
    refused(session, adjust(space="red.2", card=name), key)


def test_wounds(session):
    session.submit(adjust(space="blue.1", wounds=[1]))
    assert space(session, "blue.1")["wounds"] == [1]
    assert space(session, "blue.1")["open"] == ["blue"]
    refused(session, adjust(space="blue.1", wounds=[0, 1]), "adjust.all_wounded")
    refused(session, adjust(space="blue.1", wounds=[0, 0]), "adjust.wounds")
    refused(session, adjust(space="blue.1", wounds=[4]), "adjust.wounds")
    refused(session, adjust(space="blue.2", wounds=[0]), "exchange.no_monster")


def test_moving_and_removing_monsters(session):
    session.submit(adjust(space="red.2", to="green.3"))
    assert space(session, "red.2") is None and space(session, "green.3")["card"] == "werewolf-red"
    refused(session, adjust(space="green.3", to="green.2"), "adjust.space_taken")
    session.submit(adjust(space="yellow.3", remove=True))
    assert space(session, "yellow.3") is None
    assert session.view()["deck"]["discard"] == ["troll-yellow"]


@pytest.mark.parametrize(("event", "key"), [
    (adjust(note="nothing"), "event.missing_field"),
    (adjust(guardian="kulak", wounds=[0]), "event.unknown_field"),
    (adjust(guardian="neltai", life=1), "adjust.not_playing"),
    (adjust(space="red.1", to="red.6"), "event.bad_field"),
])
def test_refused_corrections_change_nothing(session, event, key):
    refused(session, event, key)


def test_accepted_in_any_phase_of_play(tmp_path):
    s = new_session(tmp_path)
    play(s, setup_event(("kyreas", "red"), ("kulak", "blue")), card("archer-blue"))
    s.submit(adjust(guardian="kulak", mana=3))
    assert s.view()["guardians"]["kulak"]["mana"] == 3 and s.view()["phase"] == "setup_monsters"
    s.close()


def table(session):
    """The view without the session's version counter."""
    return {k: v for k, v in session.view().items() if k != "version"}


def test_undo_restores_the_earlier_view(session):
    before = table(session)
    session.submit(adjust(guardian="kyreas", life=0))
    session.submit(adjust(space="red.2", card="shadow-red"))
    assert table(session) != before
    session.submit({"type": "undo", "steps": 2})
    assert table(session) == before
