"""Event formats at their edges (docs/events.md, «Event formats»): a recorded file's header, a
format newer than this companion (refused, nothing changed, never guessed), and an upcaster that
turns one old event into several, with an undo of that time recounted to take back the same
moment of the game."""

from __future__ import annotations

import dataclasses
import json
import sqlite3
from functools import cached_property

import pytest
from clitools import companion
from demos import demo
from oldjournal import record, record_first_format

from companion.engine import Capabilities, Event, Session, StoreError
from companion.engine.events import FORMAT
from companion.engine.journal import Journal
from companion.games.last_bastion.rules import LastBastion


def write(path, *lines: dict) -> str:
    path.write_text("".join(json.dumps(line) + "\n" for line in lines), encoding="utf-8")
    return str(path)


def test_a_file_of_a_newer_format_is_refused_and_changes_nothing(tmp_path):
    data = tmp_path / "data"
    done = companion("replay", write(tmp_path / "new.jsonl", {"format": FORMAT + 1},
                                     demo("last-bastion")[0]),
                     "--lang", "en", "--data-dir", str(data))
    assert done.returncode == 2
    assert f"line 1: This was written in event format {FORMAT + 1} by a newer companion" \
        in done.stderr
    session = Session(data, readonly=True)
    try:
        assert session.past_games() == []
    finally:
        session.close()


@pytest.mark.parametrize("header", [{"format": "2"}, {"format": 0}, {"format": 2, "game": "x"}])
def test_a_bad_header_is_named(tmp_path, header):
    done = companion("replay", write(tmp_path / "bad.jsonl", header, demo("last-bastion")[0]),
                     "--lang", "fr", "--data-dir", str(tmp_path / "data"))
    assert done.returncode == 2
    assert "ligne 1" in done.stderr and "format d'événements" in done.stderr


def test_a_file_with_todays_header_is_read_as_today(tmp_path):
    """Today's format: an AoT ``resolve`` the round does not wait for is refused, not dropped."""
    old = demo("aot-last-stand")
    upto = next(i for i, e in enumerate(old) if e["type"] == "next") + 1
    events = [{"format": FORMAT}, *old[:upto], {"type": "resolve"}]
    done = companion("replay", write(tmp_path / "today.jsonl", *events), "--lang", "en",
                     "--data-dir", str(tmp_path / "data"))
    assert done.returncode == 2
    assert "resolve is not expected now" in done.stderr


def test_a_journal_row_of_a_newer_format_needs_the_newer_companion(tmp_path):
    data = tmp_path / "data"
    path = record(data, "last-bastion", demo("last-bastion")[:2])
    db = sqlite3.connect(path)
    db.execute("UPDATE events SET format = ? WHERE seq = 2", (FORMAT + 1,))
    db.commit()
    db.close()
    journal = Journal(path)
    journal.reseal()
    journal.close()
    with pytest.raises(StoreError) as error:
        Session(data)
    assert error.value.key == "store.needs_repair"
    assert error.value.params["reason"]["key"] == "event.format_newer"


class SplitTeaching(LastBastion):
    """Last Bastion as if format 1 had taught a card's timings in one ``teach`` that format 2
    sends one timing at a time: its upcaster splits such a teaching in two."""

    @cached_property
    def capabilities(self) -> Capabilities:
        return dataclasses.replace(super().capabilities, upcasters={1: self.split})

    @staticmethod
    def split(game, state, event: Event, memory: dict) -> list[Event]:
        if event.type != "teach":
            return [event]
        return [Event("teach", {**event.fields, "definition": {key: value}}, event.source,
                      event.at) for key, value in event.fields["definition"].items()]


def test_an_old_undo_takes_back_every_event_its_event_became(tmp_path):
    data = tmp_path / "data"
    teaching = {"type": "teach", "kind": "card", "id": "canon-de-l-infamie",
                "definition": {"arrival": [], "recurring": []}}
    record_first_format(data, "last-bastion", [demo("last-bastion")[0], teaching,
                                               {"type": "undo", "steps": 1}])
    session = Session(data, games={"last-bastion": SplitTeaching()})
    try:
        assert [f.event.type for f in session.history()] == ["setup"]
    finally:
        session.close()
    record_first_format(tmp_path / "kept", "last-bastion", [demo("last-bastion")[0], teaching])
    session = Session(tmp_path / "kept", games={"last-bastion": SplitTeaching()})
    try:
        assert [f.event.fields.get("definition") for f in session.history()[1:]] == [
            {"arrival": []}, {"recurring": []}]
        session.submit({"type": "undo", "steps": 2})  # today's undo counts today's events
        assert [f.event.type for f in session.history()] == ["setup"]
    finally:
        session.close()
