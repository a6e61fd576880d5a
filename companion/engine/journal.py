"""The SQLite event log: the single source of truth, one transaction per accepted event.

Besides the events it holds, in the same transactions, what the events taught (``learned``,
from which the ``definitions/`` files are rebuilt), how far each derived file has caught up
(``derived``), and the events a repair set aside (``set_aside``: never deleted). Every event row
carries its link of the checksum chain (:mod:`.chain`).
"""

from __future__ import annotations

import contextlib
import json
import os
import sqlite3
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from .chain import GENESIS, Head, HeadFile, link
from .errors import StoreError
from .events import FIRST_FORMAT, FORMAT, Event
from .files import storage_error, sync_path, temp_path

APPLICATION_ID = 0x54436D70  # "TCmp": marks the file as a Table Companion journal
SCHEMA_VERSION = 3
READABLE_VERSIONS = (1, 2, 3)
CACHE_KB = 512
"""SQLite's page cache for the journal (its default is 2 MB). The journal is appended to and
read back a game at a time, so a small cache costs little, and it bounds what the server's
memory grows by as the journal grows (issue 40, item 12: a box lives for years on 512 MB)."""

_EVENTS = """
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

_VERSION_2 = """
ALTER TABLE events ADD COLUMN chain TEXT;
CREATE TABLE learned (
    seq INTEGER NOT NULL,
    game TEXT NOT NULL,
    kind TEXT NOT NULL,
    item TEXT NOT NULL,
    body TEXT NOT NULL
);
CREATE INDEX learned_by_seq ON learned (seq);
CREATE TABLE derived (name TEXT PRIMARY KEY, seq INTEGER NOT NULL);
CREATE TABLE set_aside (
    seq INTEGER PRIMARY KEY,
    game_id INTEGER NOT NULL,
    type TEXT NOT NULL,
    body TEXT NOT NULL,
    source TEXT NOT NULL,
    at REAL NOT NULL,
    label TEXT,
    chain TEXT,
    reason TEXT NOT NULL,
    moved REAL NOT NULL
);
"""

_VERSION_3 = """
ALTER TABLE events ADD COLUMN format INTEGER;
ALTER TABLE set_aside ADD COLUMN format INTEGER
"""
"""Format 3: each event row says its event format (NULL: format 1, written before formats were
recorded; :mod:`.upcast`)."""

_ROW = "seq, game_id, type, body, source, at, label"

Learned = tuple[str, str, dict[str, Any]]
"""One definition an event taught: kind, id, definition."""


@dataclass(frozen=True)
class Entry:
    """One journaled event with its sequence number and history label."""

    seq: int
    game_id: int
    event: Event
    label: dict[str, Any] | None
    format: int = FORMAT


@dataclass(frozen=True)
class GameRecord:
    """One game of the journal: which game, when it started, and how it stands."""

    id: int
    game: str
    started: float
    status: str
    summary: dict[str, Any]


@dataclass(frozen=True)
class ChainBreak:
    """Where the checksum chain stops matching: ``seq`` is the first row that does not match
    (``None`` when the rows match but the head shows later events that are gone)."""

    seq: int | None
    last_seq: int
    head_seq: int | None


SET_ASIDE = "set_aside"
"""The status of a game whose every event, setup included, a repair set aside."""
BOX = "box"
"""The status of the journal's record of the box itself: the events that teach outside every
game (a card's photo taught from the command line, ``card_photo``). It is no game: no list of
games shows it and no undo reaches its events."""


class Journal:
    """An append-only log of events in a SQLite file (WAL, ``synchronous=FULL``).

    ``append`` returns only after the transaction has committed, so an acknowledged event
    survives a power cut. A file that is not a journal (foreign, empty, damaged) is refused and
    never written to. A ``readonly`` journal (the reading commands: ``history``, ``doctor``,
    ``backup``) never writes: it does not migrate an older format, and creates a missing file
    only when told to (``create``: a reading session on a fresh data directory).
    """

    def __init__(self, path: Path, readonly: bool = False, create: bool | None = None) -> None:
        self.path = Path(path)
        self.readonly = readonly
        self.head_file = HeadFile(self.path.with_suffix(".head"))
        if not self.path.exists() and (not readonly if create is None else create):
            self._create()
        self._check_file()
        try:
            self._db = self._connect()
            self.version = self._check_format()
            if not readonly:
                self._db.execute("PRAGMA journal_mode=WAL")
                self._db.execute("PRAGMA synchronous=FULL")
                self._db.execute("PRAGMA foreign_keys=ON")
                if self.version < SCHEMA_VERSION:
                    self._migrate()
        except sqlite3.DatabaseError as exc:
            with contextlib.suppress(AttributeError):
                self._db.close()
            raise StoreError("store.not_journal", path=str(self.path), detail=str(exc)) from None
        self._head = self._last_link()

    # -- opening -------------------------------------------------------------------------------

    def _create(self) -> None:
        """A new journal is built under a temporary name and linked into place: a crash while
        it is made never leaves an empty or half-made journal, and two openers never both
        create one."""
        tmp = temp_path(self.path)
        tmp.unlink(missing_ok=True)
        try:
            db = sqlite3.connect(tmp, isolation_level=None)
            db.execute("BEGIN")
            for statement in (_EVENTS + _VERSION_2 + ";" + _VERSION_3).split(";"):
                if statement.strip():
                    db.execute(statement)
            db.execute(f"PRAGMA application_id={APPLICATION_ID}")
            db.execute(f"PRAGMA user_version={SCHEMA_VERSION}")
            db.execute("COMMIT")
            db.execute("PRAGMA journal_mode=WAL")
            db.close()
            sync_path(tmp)
            try:
                os.link(tmp, self.path)
            except FileExistsError:
                pass  # another process made it first: use theirs
            else:
                self.head_file.write(None)  # a head left by a journal moved away is not ours
                self.head_file.close()
            sync_path(self.path.parent)
        except (OSError, sqlite3.Error) as exc:
            raise storage_error(exc, self.path) from None
        finally:
            tmp.unlink(missing_ok=True)

    def _connect(self) -> sqlite3.Connection:
        """The connection; on a read-only file system (a card mounted read-only, a full disk
        remounted by the kernel) a reader opens the file as immutable: SQLite could not create
        the WAL index it needs otherwise, and nobody can write there."""
        uri = f"file:{self.path}?mode={'ro' if self.readonly else 'rw'}"
        if self.readonly and os.statvfs(self.path.parent).f_flag & os.ST_RDONLY:
            uri += "&immutable=1"
        db = sqlite3.connect(uri, uri=True, isolation_level=None, check_same_thread=False)
        db.execute(f"PRAGMA cache_size = -{CACHE_KB}")
        return db

    def _check_file(self) -> None:
        if not self.path.exists():
            raise StoreError("store.no_journal", path=str(self.path))
        if not self.path.is_file():
            raise StoreError("store.not_journal", path=str(self.path), detail="not a file")
        if self.path.stat().st_size == 0:
            raise StoreError("store.empty", path=str(self.path))

    def _check_format(self) -> int:
        app_id = self._db.execute("PRAGMA application_id").fetchone()[0]
        if app_id != APPLICATION_ID:
            self._db.close()
            raise StoreError("store.foreign", path=str(self.path))
        problem = self._db.execute("PRAGMA quick_check").fetchone()[0]
        if problem != "ok":
            self._db.close()
            raise StoreError("store.damaged", path=str(self.path), detail=problem)
        version = self._db.execute("PRAGMA user_version").fetchone()[0]
        if version not in READABLE_VERSIONS:
            self._db.close()
            raise StoreError("store.format", path=str(self.path), version=version)
        return version

    def _migrate(self) -> None:
        """Format 1 to 2: the chain computed for the existing rows, the new tables; the
        definitions file counts as up to date with what format 1 wrote. Format 2 to 3: the
        rows' event format, unknown (format 1) for every row written before."""
        with self._transaction():
            if self.version < 2:
                for statement in _VERSION_2.split(";"):
                    if statement.strip():
                        self._db.execute(statement)
            for statement in _VERSION_3.split(";"):
                self._db.execute(statement)
            if self.version < 2:
                self._reseal(0)
                self._db.execute("INSERT INTO derived (name, seq) VALUES ('definitions', ?)",
                                 (self.last_seq(),))
            self._db.execute(f"PRAGMA user_version={SCHEMA_VERSION}")
        self.version = SCHEMA_VERSION

    def _transaction(self) -> _Transaction:
        if self.readonly:
            raise StoreError("store.read_only", path=str(self.path))
        return _Transaction(self._db, self.path)

    # -- writing -------------------------------------------------------------------------------

    def start_game(self, game: str, event: Event, label: dict | None, summary: dict,
                   learned: Sequence[Learned] = ()) -> Entry:
        """Record a new game and its setup event in one transaction."""
        with self._transaction():
            cur = self._db.execute(
                "INSERT INTO games (game, started, status, summary) VALUES (?, ?, ?, ?)",
                (game, event.at, summary.get("status", "playing"), json.dumps(summary)),
            )
            game_id = cur.lastrowid
            head = self._insert(game_id, event, label, game, learned)
        self._acknowledge(head)
        return Entry(head.seq, game_id, event, label)

    def append(self, game_id: int, event: Event, label: dict | None, summary: dict,
               learned: Sequence[Learned] = (), game: str = "") -> Entry:
        """Record one event of a game, what it taught and the game's new summary in one
        transaction."""
        with self._transaction():
            head = self._insert(game_id, event, label, game, learned)
            self._db.execute(
                "UPDATE games SET status = ?, summary = ? WHERE id = ?",
                (summary.get("status", "playing"), json.dumps(summary), game_id),
            )
        self._acknowledge(head)
        return Entry(head.seq, game_id, event, label)

    def append_box(self, event: Event, learned: Sequence[Learned]) -> Entry:
        """Record an event of the box itself (:data:`BOX`; its record made with the first) and
        what it taught, in one transaction."""
        with self._transaction():
            row = self._db.execute("SELECT id FROM games WHERE status = ?", (BOX,)).fetchone()
            game_id = row[0] if row else self._db.execute(
                "INSERT INTO games (game, started, status) VALUES ('', ?, ?)",
                (event.at, BOX)).lastrowid
            head = self._insert(game_id, event, None, "", learned)
        self._acknowledge(head)
        return Entry(head.seq, game_id, event, None)

    def _insert(self, game_id: int, event: Event, label: dict | None, game: str,
                learned: Sequence[Learned]) -> Head:
        body = json.dumps(event.fields, ensure_ascii=False, separators=(",", ":"))
        label_text = None if label is None else json.dumps(label, ensure_ascii=False)
        cur = self._db.execute(
            "INSERT INTO events (game_id, type, body, source, at, label, format) "
            "VALUES (?, ?, ?, ?, ?, ?, ?)",
            (game_id, event.type, body, event.source, event.at, label_text, FORMAT),
        )
        seq = cur.lastrowid
        row = self._db.execute(f"SELECT {_ROW}, format FROM events WHERE seq = ?",
                               (seq,)).fetchone()
        digest = link(self._head.hash if self._head else GENESIS, _linked(row))
        self._db.execute("UPDATE events SET chain = ? WHERE seq = ?", (digest, seq))
        for kind, item, definition in learned:
            self._db.execute(
                "INSERT INTO learned (seq, game, kind, item, body) VALUES (?, ?, ?, ?, ?)",
                (seq, game, kind, item, json.dumps(definition, ensure_ascii=False)))
        return Head(seq, digest)

    def _acknowledge(self, head: Head) -> None:
        self._head = head
        with contextlib.suppress(OSError):  # the head is a check; the event is committed
            self.head_file.write(head)

    def set_game(self, game_id: int, summary: dict[str, Any]) -> None:
        """Rewrite a game's status and summary (after a repair shortened it)."""
        with self._transaction():
            self._db.execute("UPDATE games SET status = ?, summary = ? WHERE id = ?",
                             (summary.get("status", "playing"), json.dumps(summary), game_id))

    def set_aside(self, seqs: Sequence[int], reason: str, moved: float,
                  whole_game: int | None = None) -> None:
        """Move events out of the history into ``set_aside`` (kept, never deleted), then
        reseal the chain after them; ``whole_game`` marks a game with no event left."""
        if not seqs:
            return
        with self._transaction():
            marks = ",".join("?" * len(seqs))
            self._db.execute(
                f"INSERT INTO set_aside ({_ROW}, chain, format, reason, moved) "
                f"SELECT {_ROW}, chain, format, ?, ? FROM events WHERE seq IN ({marks})",
                (reason, moved, *seqs))
            self._db.execute(f"DELETE FROM events WHERE seq IN ({marks})", tuple(seqs))
            if whole_game is not None:
                self._db.execute("UPDATE games SET status = ? WHERE id = ?",
                                 (SET_ASIDE, whole_game))
            self._reseal(min(seqs))
        self._acknowledge_last()

    def reseal(self) -> None:
        """Accept the journal as it is: recompute the whole chain and the head (after the
        owner was told what a repair found)."""
        with self._transaction():
            self._reseal(0)
        self._acknowledge_last()

    def _reseal(self, start: int) -> None:
        previous = self._db.execute(
            "SELECT chain FROM events WHERE seq < ? ORDER BY seq DESC LIMIT 1", (start,)
        ).fetchone()
        digest = previous[0] if previous and previous[0] else GENESIS
        rows = self._db.execute(
            f"SELECT {_ROW}, {self._format_column} FROM events WHERE seq >= ? ORDER BY seq",
            (start,)).fetchall()
        for row in rows:
            digest = link(digest, _linked(row))
            self._db.execute("UPDATE events SET chain = ? WHERE seq = ?", (digest, row[0]))

    def _acknowledge_last(self) -> None:
        head = self._last_link()
        self._head = head
        self.head_file.write(head)

    def _last_link(self) -> Head | None:
        if self.version < 2:
            return None
        row = self._db.execute(
            "SELECT seq, chain FROM events ORDER BY seq DESC LIMIT 1").fetchone()
        return Head(row[0], row[1] or GENESIS) if row else None

    # -- checking ------------------------------------------------------------------------------

    def check_chain(self) -> ChainBreak | None:
        """Walk the chain and compare the head: the first row that does not match, or the
        events that are gone, or None when the journal is whole."""
        if self.version < 2:
            return None
        digest = GENESIS
        last = 0
        for *row, chain in self._db.execute(
                f"SELECT {_ROW}, {self._format_column}, chain FROM events ORDER BY seq"):
            digest = link(digest, _linked(tuple(row)))
            if chain != digest:
                return ChainBreak(row[0], self.last_seq(), None)
            last = row[0]
        head = self.head_file.read()
        if head is not None and head.seq > last:
            return ChainBreak(None, last, head.seq)
        return None

    # -- derived files -------------------------------------------------------------------------

    def learned_since(self, name: str) -> list[tuple[int, str, str, str, dict[str, Any]]]:
        """What the events taught after derived file ``name`` last caught up: seq, game, kind,
        id, definition, oldest first."""
        if self.version < 2:
            return []
        return [(seq, game, kind, item, json.loads(body)) for seq, game, kind, item, body in
                self._db.execute(
                    "SELECT seq, game, kind, item, body FROM learned WHERE seq > ? ORDER BY seq",
                    (self.derived_seq(name),))]

    def derived_seq(self, name: str) -> int:
        """The newest event derived file ``name`` includes."""
        if self.version < 2:
            return 0
        row = self._db.execute("SELECT seq FROM derived WHERE name = ?", (name,)).fetchone()
        return row[0] if row else 0

    def set_derived(self, name: str, seq: int) -> None:
        """Record that derived file ``name`` now includes every event up to ``seq``.

        Committed without waiting for the disk: should a power cut lose this mark, the file is
        only written again from the journal (the same content) when a writer next opens it."""
        self._db.execute("PRAGMA synchronous=NORMAL")
        try:
            with self._transaction():
                self._db.execute("INSERT INTO derived (name, seq) VALUES (?, ?) ON CONFLICT(name) "
                                 "DO UPDATE SET seq = MAX(seq, excluded.seq)", (name, seq))
        finally:
            self._db.execute("PRAGMA synchronous=FULL")

    # -- reading -------------------------------------------------------------------------------

    def games(self) -> list[GameRecord]:
        """Every game of the journal, oldest first (games a repair set aside whole left out, and
        the box's own record, :data:`BOX`)."""
        rows = self._db.execute("SELECT id, game, started, status, summary FROM games "
                                "WHERE status NOT IN (?, ?) ORDER BY id", (SET_ASIDE, BOX))
        return [GameRecord(r[0], r[1], r[2], r[3], json.loads(r[4])) for r in rows]

    def latest_game(self) -> GameRecord | None:
        """The most recent game, finished or not."""
        games = self.games()
        return games[-1] if games else None

    def entries(self, game_id: int) -> Iterator[Entry]:
        """The events of one game, in order."""
        rows = self._db.execute(
            f"SELECT seq, type, body, source, at, label, {self._format_column} FROM events "
            "WHERE game_id = ? ORDER BY seq",
            (game_id,),
        )
        for seq, kind, body, source, at, label, version in rows.fetchall():
            event = Event(kind, json.loads(body), source, at)
            yield Entry(seq, game_id, event, None if label is None else json.loads(label),
                        FIRST_FORMAT if version is None else version)

    @property
    def _format_column(self) -> str:
        """The rows' event format column (a journal not yet migrated to format 3 has none:
        every row of it is format 1)."""
        return "format" if self.version >= 3 else "NULL"

    def game_of(self, seq: int) -> int:
        """The game an event belongs to."""
        return self._db.execute("SELECT game_id FROM events WHERE seq = ?", (seq,)).fetchone()[0]

    def first_seq(self, game_id: int) -> int | None:
        """The sequence number of a game's first event still in the history."""
        return self._db.execute("SELECT MIN(seq) FROM events WHERE game_id = ?",
                                (game_id,)).fetchone()[0]

    def set_aside_entries(self) -> list[tuple[int, int, str, str]]:
        """The events a repair moved aside: seq, game, type, why."""
        if self.version < 2:
            return []
        return list(self._db.execute(
            "SELECT seq, game_id, type, reason FROM set_aside ORDER BY seq"))

    def last_seq(self) -> int:
        """The sequence number of the newest event, 0 if there is none."""
        return self._db.execute("SELECT COALESCE(MAX(seq), 0) FROM events").fetchone()[0]

    def event_count(self) -> int:
        """How many events the history holds."""
        return self._db.execute("SELECT COUNT(*) FROM events").fetchone()[0]

    def backup(self, target: Path) -> None:
        """Copy the journal, consistent as of now, into ``target`` (SQLite's online backup:
        safe while the companion writes) and flush it to disk."""
        db = sqlite3.connect(target)
        try:
            self._db.backup(db)
        finally:
            db.close()
        sync_path(target)

    def replace_with(self, source: Journal) -> None:
        """Make this journal a copy of ``source`` (restoring a backup; the caller holds the
        writer lock), migrated to the current format, its head recorded."""
        try:
            source._db.backup(self._db)
            self.version = self._check_format()
            if self.version < SCHEMA_VERSION:
                self._migrate()
        except sqlite3.OperationalError as exc:
            raise storage_error(exc, self.path) from None
        self._acknowledge_last()

    def close(self) -> None:
        """Close the file."""
        self._db.close()
        self.head_file.close()


def _linked(row: tuple[Any, ...]) -> tuple[Any, ...]:
    """What the checksum chain covers of a row ``(seq, ..., label, format)``: its event format
    too, once it is recorded (a row of format 1 links as it did before formats were)."""
    *columns, version = row
    return tuple(columns) if version is None else (*columns, version)


class _Transaction:
    """BEGIN IMMEDIATE ... COMMIT, rolled back on any error; a failed write (full disk,
    read-only file) becomes a StoreError naming the journal, and nothing was committed."""

    def __init__(self, db: sqlite3.Connection, path: Path) -> None:
        self._db = db
        self._path = path

    def __enter__(self) -> None:
        try:
            self._db.execute("BEGIN IMMEDIATE")
        except sqlite3.OperationalError as exc:
            raise storage_error(exc, self._path) from None

    def __exit__(self, kind, exc, tb) -> None:
        try:
            if kind is None:
                self._db.execute("COMMIT")
                return
        except sqlite3.OperationalError as error:
            with contextlib.suppress(sqlite3.Error):
                self._db.execute("ROLLBACK")
            raise storage_error(error, self._path) from None
        with contextlib.suppress(sqlite3.Error):
            self._db.execute("ROLLBACK")
        if isinstance(exc, sqlite3.OperationalError):
            raise storage_error(exc, self._path) from None
