"""A game in progress survives the upgrade that made the round infer its steps (issue 17): its
journal holds a "resolve" for each card nobody could counter, which the rules now resolve by
themselves («Si les Héros ne peuvent ou ne veulent pas contrer une carte, elle s'applique»,
../shared/rules/attack-on-titan-last-stand.fr.txt, step 5). Those rows are of event format 1;
the game's upcaster to format 2 (companion/games/aot_last_stand/upcasts.py) drops each one for a
card that resolved by itself, and the undo of that time is recounted, so the game resumes where
it stood; the table may still not send one now, and any other refusal still stops the replay."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from aot_helpers import NEXT, commit, new_session, refused, rolls, setup_event
from oldjournal import record as record_today
from oldjournal import record_first_format

from companion.engine import StoreError

OLD = Path(__file__).parent / "journals" / "before-inferred-steps.jsonl"


def old_events() -> list[dict]:
    return [json.loads(line) for line in OLD.read_text().splitlines()
            if line.strip() and not line.startswith("#")]


def record(data: Path, events: list[dict]) -> None:
    """Write ``events`` into the journal as the earlier version wrote them, unchecked."""
    record_first_format(data, "aot-last-stand", events)


@pytest.fixture
def replayed(tmp_path):
    """A session opened on the whole old journal."""
    record(tmp_path / "data", old_events())
    session = new_session(tmp_path)
    yield session
    session.close()


def test_a_journal_from_before_replays_to_the_same_end(replayed):
    view = replayed.view()
    assert (view["status"], view["reason"]) == ("lost", "cannons")
    types = [f.event.type for f in replayed.history()]
    assert "resolve" not in types  # the round resolved each card by itself
    assert len(types) == len(old_events()) - 6
    assert len(replayed.journal_entries()) == len(old_events())  # nothing lost


def test_an_undo_of_that_time_takes_back_what_it_took_back(tmp_path):
    """The old writer's ``undo`` of 3 counted the two resolves and the next before them: it
    takes back that next, the one of them that is still a step today."""
    events = old_events()
    upto = next(i for i, e in enumerate(events) if e["type"] == "resolve") + 2
    record(tmp_path / "data", [*events[:upto], {"type": "undo", "steps": 3}])
    session = new_session(tmp_path)
    try:
        assert session.history()[-1].event.type == "roll"
        assert session.history()[-1].event.fields["hero"] == "armin"
        assert session.view()["step"] == 2
    finally:
        session.close()


def test_undo_after_the_upgrade_counts_todays_steps(replayed):
    replayed.submit({"type": "undo", "steps": 1})  # the last next, which ended the game
    assert replayed.view()["status"] == "playing"
    assert replayed.history()[-1].event.type == "roll"


def test_the_table_may_not_send_one_now(tmp_path):
    events = old_events()
    upto = next(i for i, e in enumerate(events) if e["type"] == "resolve")
    record(tmp_path / "data", events[:upto])  # the first round, up to its first resolve
    session = new_session(tmp_path)
    try:
        assert session.state["step"] == 6  # the cards resolved by themselves
        refused(session, {"type": "resolve"}, "event.not_expected")
    finally:
        session.close()


def test_any_other_refusal_still_needs_a_repair(tmp_path):
    events = old_events()
    upto = next(i for i, e in enumerate(events) if e["type"] == "resolve")
    record(tmp_path / "data", [*events[:upto], {"type": "commit", "up": "frenesie",
                                                 "down": "frenesie"}])
    with pytest.raises(StoreError) as error:
        new_session(tmp_path)
    assert error.value.key == "store.needs_repair"
    assert error.value.params["event"] == "commit"


def test_a_resolve_of_todays_format_is_not_dropped(tmp_path):
    """Only the format that sent them has them dropped: today's journal holding one is
    damaged, and needs a repair."""
    events = old_events()
    upto = next(i for i, e in enumerate(events) if e["type"] == "resolve") + 1
    record_today(tmp_path / "data", "aot-last-stand", events[:upto])
    with pytest.raises(StoreError) as error:
        new_session(tmp_path)
    assert error.value.params["event"] == "resolve"


def step_4(eren: list[str]) -> list[dict]:
    """A format-1 round up to step 4: Frenzy face up, Stomp down, Eren's Titan faces given
    back (the other heroes roll none)."""
    return [setup_event(), commit("frenesie", "pietinement"),
            *rolls(eren=eren, mikasa=["dodge", "move", "move", "cannon", "combat"],
                   armin=["move", "cannon", "dodge", "combat", "move"]), NEXT, NEXT]


def test_the_next_after_the_last_reroll_ended_step_4_then(tmp_path):
    """Format 1 stayed in step 4 after the last given-back die was rerolled, until a ``next``
    («une dernière chance de relancer les dés récupérés»); the round now goes on by itself (both
    cards, nobody able to counter them, applied) to step 6, where that ``next`` is dropped
    instead of ending step 6 (tests/compat/format-1/aot-last-stand-reroll.jsonl)."""
    events = [*step_4(["dodge", "combat", "cannon", "titan", "tactic"]),
              {"type": "reroll", "hero": "eren", "faces": ["tactic"]}, NEXT,
              {"type": "resolve"}, {"type": "resolve"}]
    record(tmp_path / "data", events)
    session = new_session(tmp_path)
    try:
        assert (session.state["round"], session.state["step"]) == (1, 6)
        assert [f.event.type for f in session.history()][-1] == "reroll"
        session.submit({"type": "move", "hero": "armin", "to": 0})  # step 6 goes on
    finally:
        session.close()


def test_a_next_with_dice_left_to_reroll_still_ends_step_4(tmp_path):
    """Eren rerolls one of his two given-back dice: step 4 waits, and the old ``next`` ends it
    then as now."""
    events = [*step_4(["dodge", "titan", "cannon", "titan", "tactic"]),
              {"type": "reroll", "hero": "eren", "faces": ["tactic"]}, NEXT]
    record(tmp_path / "data", events)
    session = new_session(tmp_path)
    try:
        assert [f.event.type for f in session.history()][-2:] == ["reroll", "next"]
        assert session.state["round"] == 1 and session.state["step"] > 4
    finally:
        session.close()


def test_an_undone_last_reroll_leaves_the_next_its_step(tmp_path):
    """The note of the last reroll is taken back with it: undone with the ``next`` that ended
    step 3, the table is in step 3 again, and its ``next`` gives the dice back (step 4)."""
    events = [*step_4(["dodge", "combat", "cannon", "titan", "tactic"]),
              {"type": "reroll", "hero": "eren", "faces": ["tactic"]},
              {"type": "undo", "steps": 2}, NEXT]
    record(tmp_path / "data", events)
    session = new_session(tmp_path)
    try:
        assert (session.state["round"], session.state["step"]) == (1, 4)
    finally:
        session.close()
