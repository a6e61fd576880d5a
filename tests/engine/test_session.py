"""The session and its journal: durable, resumable, undoable, and safe with foreign files."""

from __future__ import annotations

import sqlite3

import pytest
from lastbastion import card, clear_turn, play, setup_event, solo

from companion.engine import RuleError, Session, StoreError
from companion.engine.journal import Journal


def _view(session):
    return {k: v for k, v in session.view().items() if k != "version"}


def test_every_accepted_event_is_in_the_journal_and_resumes(session, data_dir):
    play(session, solo(), card("imp", "yellow", 1, slot="yellow.1"),
         {"type": "move", "hero": "kazgin", "to": [2, 1]})
    before = session.view()
    session.close()
    reopened = Session(data_dir)
    assert reopened.view() == before
    assert [e.event.type for e in reopened.journal_entries()] == ["setup", "card", "move"]
    reopened.submit({"type": "end_turn"})
    assert reopened.view()["turn"] == before["turn"] + 4, "3 neutral boards and Gary again"


def test_a_view_changed_by_its_reader_leaves_the_next_reader_s_alone(session):
    """A state's view is worked out once and shared: what one reader (a page, the voice) does
    to its copy must not reach the next reader, nor the summary the journal keeps."""
    session.submit(solo())
    first = session.view()
    first["heroes"]["kazgin"]["life"] = 99
    first["boards"].clear()
    again = session.view()
    assert again["heroes"]["kazgin"]["life"] != 99 and again["boards"]
    play(session, card("imp", "yellow", 1, slot="yellow.1"),
         {"type": "move", "hero": "kazgin", "to": [2, 1]})
    assert session.view()["heroes"]["kazgin"]["tile"] == [2, 1], "a new state, a new view"


def test_journal_uses_wal_and_full_sync(session, data_dir):
    db = sqlite3.connect(data_dir / "journal.sqlite3")
    assert db.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    assert session._journal._db.execute("PRAGMA synchronous").fetchone()[0] == 2  # FULL


def test_undo_goes_back_any_number_of_steps_across_turns(session):
    session.submit(solo())
    views = [_view(session)]
    clear_turn(session, "m0", move_to=[2, 0])
    views.append(_view(session))
    session.submit({"type": "end_turn"})
    views.append(_view(session))
    clear_turn(session, "m1")
    views.append(_view(session))
    step = session.submit({"type": "undo", "steps": 5})  # back over the turn boundary
    assert _view(session) == views[1]
    assert step.label.params["count"] == 5
    assert session.journal_entries()[-1].event.type == "undo", "undo appends, never deletes"
    session.submit({"type": "undo", "to": session.history()[0].seq})
    assert _view(session) == views[0]


def test_undo_is_part_of_the_journal_and_survives_a_restart(session, data_dir):
    play(session, solo(), card("imp", "yellow", 1, slot="yellow.1"),
         {"type": "move", "hero": "kazgin", "to": [2, 1]}, {"type": "undo"})
    expected = session.view()
    session.close()
    assert Session(data_dir).view() == expected
    assert expected["heroes"]["kazgin"]["tile"] == [1, 1]


def test_undo_cannot_remove_the_setup(session):
    session.submit(solo())
    with pytest.raises(RuleError) as error:
        session.submit({"type": "undo", "steps": 1})
    assert error.value.key == "undo.too_far"
    with pytest.raises(RuleError) as error:
        session.submit({"type": "undo", "to": 999})
    assert error.value.key == "undo.unknown_point"


def test_history_is_labelled(session):
    play(session, setup_event([("Gary", "kazgin", "S"), ("Paul", "mylfaar", "N")]),
         {"type": "teach", "kind": "card", "id": "incube", "definition": {"complete": True}},
         {"type": "card", "id": "incube"},  # red goes to Paul's board: a choice of slot
         {"type": "place", "slot": "red.1"},
         {"type": "adjust", "hero": "kazgin", "equipment": {"red": 1}},
         {"type": "move", "hero": "kazgin", "to": [0, 1]},
         {"type": "fight", "targets": ["red.1"]},
         {"type": "dice", "faces": ["red", "green", "blue"], "grey": "yellow"},
         {"type": "resolve"})
    from companion.i18n import render
    label = render(session.history()[-1].label, "en", session.game)
    assert label == "Kazgin fights Incube: won, spent 1 red"
    assert render(session.history()[-1].label, "fr", session.game) == (
        "Kazgin combat Incube : gagné, dépensé 1 rouge")


def test_a_fight_without_equipment_spent_says_no_spent_dash(session):
    """Found: "spent —" in Last Bastion's history after a fight that spent nothing."""
    play(session, setup_event([("Gary", "kazgin", "S"), ("Paul", "mylfaar", "N")]),
         {"type": "teach", "kind": "card", "id": "incube", "definition": {"complete": True}},
         {"type": "card", "id": "incube"},
         {"type": "place", "slot": "red.1"},
         {"type": "move", "hero": "kazgin", "to": [0, 1]},
         {"type": "fight", "targets": ["red.1"]},
         {"type": "dice", "faces": ["red", "red", "blue"], "grey": "yellow"},
         {"type": "resolve"})
    from companion.i18n import render
    label = session.history()[-1].label
    assert render(label, "en", session.game) == "Kazgin fights Incube: won"
    assert render(label, "fr", session.game) == "Kazgin combat Incube : gagné"


def test_listeners_hear_each_event_after_it_is_journaled(session):
    heard = []
    stop = session.subscribe(lambda update: heard.append(
        (update.version, len(session.journal_entries()))))
    play(session, solo(), card("imp", "yellow", 1, slot="yellow.1"))
    stop()
    session.submit({"type": "end_turn"})
    assert [v for v, _ in heard] == [e.seq for e in session.journal_entries()[:2]]
    assert all(count >= 1 for _, count in heard)


def test_taught_cards_are_remembered_for_the_next_game(session, data_dir):
    play(session, solo(), card("ghoul", "yellow", 2, slot="yellow.1"))
    stored = session.definitions("last-bastion").load()
    assert stored["card"]["ghoul"]["resistance"] == 2
    session.submit(solo())
    session.submit({"type": "card", "id": "ghoul", "slot": "yellow.0"})
    assert session.view()["boards"]["yellow"][0]["name"] == "Ghoul"


def test_a_file_that_is_not_a_database_is_refused_and_left_alone(data_dir):
    data_dir.mkdir(parents=True)
    path = data_dir / "journal.sqlite3"
    path.write_bytes(b"this is a shopping list, not a journal" * 50)
    before = path.read_bytes()
    with pytest.raises(StoreError) as error:
        Session(data_dir)
    assert str(path) in str(error.value)
    assert path.read_bytes() == before


def test_a_foreign_sqlite_file_is_refused_and_left_alone(data_dir):
    data_dir.mkdir(parents=True)
    path = data_dir / "journal.sqlite3"
    db = sqlite3.connect(path)
    db.execute("CREATE TABLE recipes (name TEXT)")
    db.commit()
    db.close()
    before = path.read_bytes()
    with pytest.raises(StoreError) as error:
        Journal(path)
    assert error.value.key == "store.foreign"
    assert path.read_bytes() == before


def test_a_corrupt_definitions_file_is_named(session, data_dir):
    path = data_dir / "definitions" / "last-bastion.json"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("{ not json")
    with pytest.raises(StoreError) as error:
        session.submit(solo())
    assert str(path) in str(error.value)
    assert session.journal_entries() == []


def test_an_event_based_on_a_stale_version_is_refused(session):
    session.submit(solo())
    seen = session.view()["version"]
    session.submit(card("imp", "yellow", 1, slot="yellow.1"))
    with pytest.raises(RuleError) as error:
        session.submit({"type": "end_turn"}, based_on=seen)
    assert error.value.key == "event.stale"
    session.submit({"type": "end_turn"}, based_on=session.view()["version"])


def test_a_journal_the_rules_can_no_longer_replay_is_named(session, data_dir):
    """An event written by another version of the rules that this one refuses (its checksum
    chain is whole: resealed as that version would have written it)."""
    play(session, solo(), card("imp", "yellow", 1, slot="yellow.1"))
    session.close()
    db = sqlite3.connect(data_dir / "journal.sqlite3")
    body = '{"id": "imp", "slot": "red.9"}'
    db.execute("UPDATE events SET body = ? WHERE type = 'card'", (body,))
    db.commit()
    db.close()
    Journal(data_dir / "journal.sqlite3").reseal()
    with pytest.raises(StoreError) as error:
        Session(data_dir)
    assert error.value.key == "store.needs_repair"
    assert error.value.params["seq"] == 2 and "journal.sqlite3" in error.value.params["path"]
