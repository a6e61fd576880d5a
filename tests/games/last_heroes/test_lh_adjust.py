"""The host's corrections in Last Heroes (``adjust``): each value a table gets wrong, the books
kept consistent (where each weapon card is, each monster card in play once), refusals that change
nothing, and undo."""

from __future__ import annotations

import copy

import pytest
from lastheroes_helpers import act, level, open_session, play, player, refused, setup_event


def adjust(**fields):
    """An adjust event."""
    return {"type": "adjust", **fields}


@pytest.fixture
def session(table):
    """The standard table, Ana's (Blind's) first turn (the folder's ``table``)."""
    return table


def test_a_heros_wheels(session):
    step = session.submit(adjust(hero="blind", jokers=2, charisma=-1, note="forgot a CLICK"))
    assert (player(session, "blind")["jokers"], player(session, "blind")["charisma"]) == (2, -1)
    assert step.label.key == "history.adjust"
    assert step.label.params == {"what": ["hero=blind", "jokers=2", "charisma=-1"],
                                 "note": "forgot a CLICK"}


def test_loaded_weapons_come_from_and_go_back_to_the_hand(session):
    session.submit(adjust(hero="blind", loaded=["flamethrower-3", "pistol-3"]))
    blind = player(session, "blind")
    assert [w["card"] for w in blind["loaded"]] == ["flamethrower-3", "pistol-3"]
    assert blind["hand"] == 8
    session.submit(adjust(hero="blind", loaded=["pistol-3"]))
    assert player(session, "blind")["hand"] == 9
    refused(session, adjust(hero="echo", loaded=["pistol-3"]), "card.elsewhere")


@pytest.mark.parametrize(("cards", "key"), [
    (["flamethrower-1"], "card.elsewhere"), (["pistol-4", "pistol-4"], "kill.weapon_twice"),
    (["rifle-1"], "card.type_not_in_play")])
def test_a_weapon_that_cannot_be_loaded(session, cards, key):
    refused(session, adjust(hero="blind", loaded=cards), key)


def test_ammo_still_up(session):
    session.submit(adjust(slot="blind.left", ammo=1))
    assert player(session, "blind")["charger"]["left"]["ammo"] == 1
    refused(session, adjust(slot="blind.left", ammo=3), "adjust.above_max")
    refused(session, adjust(slot="tank.left", ammo=1), "hero.not_playing")


def test_an_empty_charger_slot(tmp_path):
    s = open_session(tmp_path)
    s.submit(setup_event())
    refused(s, adjust(slot="ace.right", ammo=1), "adjust.empty_slot")
    s.submit(adjust(hero="ace", jokers=1))  # accepted before the chargers too
    assert player(s, "ace")["jokers"] == 1
    s.close()


def test_the_monster_at_a_position(session):
    session.submit(adjust(column=1, level=2, monster="crow", define={"level": 2, "points": 2}))
    assert level(session, 1, 2)["monster"] == "crow"
    session.submit(adjust(column=1, level=2, monster="spider"))  # the misread card is free again
    assert level(session, 1, 2)["monster"] == "spider"


@pytest.mark.parametrize(("fields", "key"), [
    ({"column": 1, "level": 2, "monster": "wolf"}, "monster.already_seen"),
    ({"column": 1, "level": 2, "monster": "crow"}, "adjust.unknown_monster"),
    ({"column": 1, "level": 2, "monster": "rat"}, "monster.already_seen"),
    ({"column": 1, "level": 2, "monster": "mole", "define": {"level": 1}},
     "monster.wrong_level"),
    ({"column": 4, "level": 2, "monster": "mole"}, "adjust.no_monster"),
])
def test_a_monster_that_cannot_be_there(session, fields, key):
    refused(session, adjust(**fields), key)


def test_a_pawn(session):
    session.submit(adjust(hero="blind", pawn=[2, 2]))
    assert player(session, "blind")["pawn"] == [2, 2] and level(session, 2, 2)["breach"]
    refused(session, adjust(hero="echo", pawn=[2, 2]), "adjust.pawn_taken")
    refused(session, adjust(hero="echo", pawn=[2, 1]), "adjust.pawn_place")
    refused(session, adjust(hero="echo", pawn=[5, 2]), "adjust.pawn_place")
    session.submit(adjust(hero="blind", pawn=False))
    assert player(session, "blind")["pawn"] is None


@pytest.mark.parametrize(("event", "key"), [
    (adjust(note="nothing"), "event.missing_field"),
    (adjust(hero="blind", ammo=1), "event.unknown_field"),
    (adjust(hero="tank", jokers=1), "hero.not_playing"),
    (adjust(hero="blind", jokers=4), "event.bad_field"),
])
def test_refused_corrections_change_nothing(session, event, key):
    refused(session, event, key)


def test_also_once_the_game_is_over(session):
    """Every game takes corrections after its end (a finished game's score may need fixing);
    they never reopen it (docs/events.md, "Corrections")."""
    state = copy.deepcopy(session.state)
    state.update(status="won", reason="artefacts", phase="over")
    after = act(state, "adjust", hero="blind", jokers=1).state
    assert after["players"]["blind"]["jokers"] == 1 and after["status"] == "won"


def table(session):
    """The view without the session's version counter."""
    return {k: v for k, v in session.view().items() if k != "version"}


def test_undo_restores_the_earlier_view(session):
    before = table(session)
    play(session, adjust(hero="blind", loaded=["flamethrower-3"]),
         adjust(column=1, level=2, monster="crow", define={"level": 2}))
    assert table(session) != before
    session.submit({"type": "undo", "steps": 2})
    assert table(session) == before
