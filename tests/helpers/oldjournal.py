"""Journals as a companion before event formats wrote them: rows without a format (format 1)."""

from __future__ import annotations

import sqlite3
from pathlib import Path
from typing import Any

from companion.engine import Event
from companion.engine.journal import Journal


def record(data: Path, game: str, events: list[dict[str, Any]]) -> Path:
    """Write ``events`` (the setup first) into a new journal in ``data``, unchecked by the
    rules, in today's event format; its path."""
    data.mkdir(parents=True)
    path = data / "journal.sqlite3"
    journal = Journal(path)
    first, *rest = [Event(e["type"], {k: v for k, v in e.items() if k != "type"}, "web",
                          float(i)) for i, e in enumerate(events)]
    game_id = journal.start_game(game, first, None, {}).game_id
    for event in rest:
        journal.append(game_id, event, None, {})
    journal.close()
    return path


def record_first_format(data: Path, game: str, events: list[dict[str, Any]]) -> None:
    """Write ``events`` (the setup first) into a new journal in ``data`` as the earlier version
    wrote them: unchecked by today's rules, each row without an event format, its chain whole."""
    path = record(data, game, events)
    db = sqlite3.connect(path)
    db.execute("UPDATE events SET format = NULL")
    db.commit()
    db.close()
    journal = Journal(path)
    journal.reseal()
    journal.close()
