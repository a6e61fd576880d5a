"""The SQLite event log: the single source of truth, one transaction per accepted event."""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from .errors import StoreError
from .events import Event

APPLICATION_ID = 0x54436D70  # "TCmp": marks the file as a Table Companion journal
SCHEMA_VERSION = 1

_SCHEMA = """
CREATE TABLE games (
    id INTEGER PRIMARY KEY,
    game TEXT NOT NULL,
    started REAL NOT NULL,
    status TEXT NOT NULL DEFAULT 'playing',
    summary TEXT NOT NULL DEFAULT '{}'
);
CREATE TABLE events (
    seq INTEGER PRIMARY KEY AUTOINCREMENT,
    game_id INTEGER NOT NULL REFERENCES games(id),
    type TEXT NOT NULL,
    body TEXT NOT NULL,
    source TEXT NOT NULL,
    at REAL NOT NULL,
    label TEXT
);
CREATE INDEX events_by_game ON events (game_id, seq);
"""


@dataclass(frozen=True)
class Entry:
    """One journaled event with its sequence number and history label."""

    seq: int
    game_id: int
    event: Event
    label: dict[str, Any] | None


@dataclass(frozen=True)
class GameRecord:
    """One game of the journal: which game, when it started, and how it stands."""

    id: int
    game: str
    started: float
    status: str
    summary: dict[str, Any]


class Journal:
    """An append-only log of events in a SQLite file (WAL, ``synchronous=FULL``).

    ``append`` returns only after the transaction has committed, so an acknowledged event
    survives a power cut. A file that is not a journal is refused and never written to.
    """

    def __init__(self, path: Path) -> None:
        self.path = Path(path)
        self.path.parent.mkdir(parents=True, exist_ok=True)
        existed = self.path.exists() and self.path.stat().st_size > 0
        try:
            self._db = sqlite3.connect(self.path, isolation_level=None, check_same_thread=False)
            self._check_or_create(existed)
        except sqlite3.DatabaseError as exc:
            raise StoreError(
                f"{self.path}: not a usable journal ({exc}); it was left untouched"
            ) from None

    def _check_or_create(self, existed: bool) -> None:
        app_id = self._db.execute("PRAGMA application_id").fetchone()[0]
        if existed and app_id != APPLICATION_ID:
            self._db.close()
            raise StoreError(
                f"{self.path}: this SQLite file is not a Table Companion journal; "
                "it was left untouched (choose another --data-dir or move the file)"
            )
        if existed:
            problem = self._db.execute("PRAGMA quick_check").fetchone()[0]
            if problem != "ok":
                self._db.close()
                raise StoreError(f"{self.path}: the journal is damaged ({problem}); left untouched")
        self._db.execute("PRAGMA journal_mode=WAL")
        self._db.execute("PRAGMA synchronous=FULL")
        self._db.execute("PRAGMA foreign_keys=ON")
        if not existed:
            with self._transaction():
                for statement in _SCHEMA.split(";"):
                    if statement.strip():
                        self._db.execute(statement)
                self._db.execute(f"PRAGMA application_id={APPLICATION_ID}")
                self._db.execute(f"PRAGMA user_version={SCHEMA_VERSION}")
        version = self._db.execute("PRAGMA user_version").fetchone()[0]
        if version != SCHEMA_VERSION:
            self._db.close()
            raise StoreError(f"{self.path}: journal format {version} is not supported")

    def _transaction(self) -> _Transaction:
        return _Transaction(self._db)

    def start_game(self, game: str, event: Event, label: dict | None, summary: dict) -> Entry:
        """Record a new game and its setup event in one transaction."""
        with self._transaction():
            cur = self._db.execute(
                "INSERT INTO games (game, started, status, summary) VALUES (?, ?, ?, ?)",
                (game, event.at, summary.get("status", "playing"), json.dumps(summary)),
            )
            game_id = cur.lastrowid
            seq = self._insert(game_id, event, label)
        return Entry(seq, game_id, event, label)

    def append(self, game_id: int, event: Event, label: dict | None, summary: dict) -> Entry:
        """Record one event of a game and its new summary in one transaction."""
        with self._transaction():
            seq = self._insert(game_id, event, label)
            self._db.execute(
                "UPDATE games SET status = ?, summary = ? WHERE id = ?",
                (summary.get("status", "playing"), json.dumps(summary), game_id),
            )
        return Entry(seq, game_id, event, label)

    def _insert(self, game_id: int, event: Event, label: dict | None) -> int:
        body = json.dumps(event.fields, ensure_ascii=False, separators=(",", ":"))
        cur = self._db.execute(
            "INSERT INTO events (game_id, type, body, source, at, label) VALUES (?, ?, ?, ?, ?, ?)",
            (game_id, event.type, body, event.source, event.at,
             None if label is None else json.dumps(label, ensure_ascii=False)),
        )
        return cur.lastrowid

    def games(self) -> list[GameRecord]:
        """Every game of the journal, oldest first."""
        rows = self._db.execute("SELECT id, game, started, status, summary FROM games ORDER BY id")
        return [GameRecord(r[0], r[1], r[2], r[3], json.loads(r[4])) for r in rows]

    def latest_game(self) -> GameRecord | None:
        """The most recent game, finished or not."""
        games = self.games()
        return games[-1] if games else None

    def entries(self, game_id: int) -> Iterator[Entry]:
        """The events of one game, in order."""
        rows = self._db.execute(
            "SELECT seq, type, body, source, at, label FROM events WHERE game_id = ? ORDER BY seq",
            (game_id,),
        )
        for seq, kind, body, source, at, label in rows.fetchall():
            event = Event(kind, json.loads(body), source, at)
            yield Entry(seq, game_id, event, None if label is None else json.loads(label))

    def last_seq(self) -> int:
        """The sequence number of the newest event, 0 if there is none."""
        return self._db.execute("SELECT COALESCE(MAX(seq), 0) FROM events").fetchone()[0]

    def close(self) -> None:
        """Close the file."""
        self._db.close()


class _Transaction:
    """BEGIN IMMEDIATE ... COMMIT, rolled back on any error."""

    def __init__(self, db: sqlite3.Connection) -> None:
        self._db = db

    def __enter__(self) -> None:
        self._db.execute("BEGIN IMMEDIATE")

    def __exit__(self, kind, exc, tb) -> None:
        self._db.execute("ROLLBACK" if kind else "COMMIT")
