"""A game in progress survives the upgrade that made the round infer its steps (issue 17): its
journal holds a "resolve" for each card nobody could counter, which the rules now resolve by
themselves («Si les Héros ne peuvent ou ne veulent pas contrer une carte, elle s'applique»,
../shared/rules/attack-on-titan-last-stand.fr.txt, step 5). Replayed, such an event is kept as a
step that changes nothing instead of stopping the game at a repair; the table may still not send
one now, and any other refusal still stops the replay."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from aot_helpers import new_session, refused

from companion.engine import Event, StoreError
from companion.engine.journal import Journal

OLD = Path(__file__).parent / "journals" / "before-inferred-steps.jsonl"


def old_events() -> list[dict]:
    return [json.loads(line) for line in OLD.read_text().splitlines()
            if line.strip() and not line.startswith("#")]


def record(data: Path, events: list[dict]) -> None:
    """Write ``events`` into the journal as the earlier version wrote them, unchecked."""
    data.mkdir(parents=True)
    journal = Journal(data / "journal.sqlite3")
    first, *rest = [Event(e["type"], {k: v for k, v in e.items() if k != "type"}, "web",
                          float(i)) for i, e in enumerate(events)]
    game = journal.start_game("aot-last-stand", first, None, {}).game_id
    for event in rest:
        journal.append(game, event, None, {})
    journal.close()


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
    assert len(replayed.history()) == len(old_events())  # every event kept: undo counts as before
    assert [f.event.type for f in replayed.history()][-2:] == ["resolve", "resolve"]
    assert replayed.history()[-1].state == replayed.history()[-3].state  # changed nothing


def test_undo_counts_the_kept_events_as_the_old_writer_did(replayed):
    replayed.submit({"type": "undo", "steps": 3})  # the two kept resolves and the last next
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
