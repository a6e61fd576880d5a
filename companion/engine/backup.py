"""Backups of the journal: on demand (``companion backup``), at every game end (one copy
brought up to date, :data:`GAME_ENDS`), and putting one back (``companion restore``).

Copies are made with SQLite's online backup API, which gives a consistent copy even while the
companion writes, into a temporary file that is flushed and then renamed: a backup on disk is
always whole. The copy kept at game ends is brought up to date in one SQLite transaction with
only what was journaled since (the events, what they taught, the games' summaries): its cost
follows the game that ended, not the whole journal. Should the journal's history differ from
the copy's (a repair set events aside), the copy is kept aside and a whole new one made.
Restoring first saves the current journal beside the others, so a restore can itself be undone.
"""

from __future__ import annotations

import contextlib
import os
import sqlite3
import time
from pathlib import Path

from .errors import StoreError
from .files import ensure_dir, storage_error, sync_path, temp_path
from .journal import Journal
from .paths import DataPaths

GAME_ENDS = "game-ends.sqlite3"
"""The copy of the journal brought up to date at every game end, in ``backups/``."""
KEEP = 5
"""How many earlier copies of :data:`GAME_ENDS`, set aside when the history changed, are kept
(the oldest beyond are removed)."""
AUTO_PREFIX = "auto-"
_EVENT_COLUMNS = "seq, game_id, type, body, source, at, label, chain, format"
_ASIDE_COLUMNS = f"{_EVENT_COLUMNS}, reason, moved"


def _stamp() -> str:
    return time.strftime("%Y%m%d-%H%M%S", time.localtime())


def copy_journal(journal: Journal, target: Path) -> Path:
    """Back ``journal`` up into ``target`` (whole or not at all); return ``target``."""
    target = Path(target)
    ensure_dir(target.parent)
    tmp = temp_path(target)
    try:
        tmp.unlink(missing_ok=True)
        journal.backup(tmp)
        os.replace(tmp, target)
        sync_path(target.parent)
    except (OSError, sqlite3.Error) as exc:
        raise storage_error(exc, target) from None
    finally:
        with contextlib.suppress(OSError):
            tmp.unlink()
    return target


def rotate(journal: Journal, paths: DataPaths) -> Path:
    """The backup made when a game ends: ``backups/`` :data:`GAME_ENDS` brought up to date
    with what was journaled since the last game end; a whole copy the first time, or when the
    history changed under it (that earlier copy is kept as ``auto-<time>.sqlite3``, the newest
    :data:`KEEP` of them)."""
    folder = paths.backups
    target = folder / GAME_ENDS
    if target.exists():
        try:
            if _catch_up(journal, target):
                return target
        except sqlite3.OperationalError as exc:  # a full disk, a read-only card
            raise storage_error(exc, target) from None
        except sqlite3.DatabaseError:  # the copy itself is damaged: set it aside too
            pass
        os.replace(target, folder / f"{AUTO_PREFIX}{_stamp()}.sqlite3")
        for old in sorted(folder.glob(f"{AUTO_PREFIX}*.sqlite3"))[:-KEEP]:
            old.unlink()
    return copy_journal(journal, target)


def _catch_up(journal: Journal, target: Path) -> bool:
    """Add to the copy ``target`` what ``journal`` recorded since, in one transaction; False
    (nothing written) when the copy's last event is not the journal's any more."""
    db = sqlite3.connect(f"file:{target}?mode=rw", uri=True, isolation_level=None)
    try:
        db.execute("ATTACH DATABASE ? AS live", (f"file:{journal.path}?mode=ro",))
        last = db.execute("SELECT seq, chain FROM main.events ORDER BY seq DESC LIMIT 1"
                          ).fetchone() or (0, None)
        if last[0] and db.execute("SELECT chain FROM live.events WHERE seq = ?",
                                  (last[0],)).fetchone() != (last[1],):
            return False
        db.execute("BEGIN IMMEDIATE")
        db.execute(f"INSERT INTO main.events ({_EVENT_COLUMNS}) SELECT {_EVENT_COLUMNS} "
                   "FROM live.events WHERE seq > ?", (last[0],))
        db.execute("INSERT OR REPLACE INTO main.games (id, game, started, status, summary) "
                   "SELECT id, game, started, status, summary FROM live.games WHERE id IN "
                   "(SELECT game_id FROM live.events WHERE seq > ?)", (last[0],))
        db.execute("INSERT INTO main.learned (seq, game, kind, item, body) "
                   "SELECT seq, game, kind, item, body FROM live.learned WHERE seq > ?",
                   (last[0],))
        db.execute("INSERT OR REPLACE INTO main.derived (name, seq) "
                   "SELECT name, seq FROM live.derived")
        db.execute(f"INSERT OR IGNORE INTO main.set_aside ({_ASIDE_COLUMNS}) "
                   f"SELECT {_ASIDE_COLUMNS} FROM live.set_aside WHERE seq > ?", (last[0],))
        db.execute("COMMIT")
        return True
    finally:
        db.close()


def backup(paths: DataPaths, target: Path | None = None) -> Path:
    """``companion backup [FILE]``: a copy of the data directory's journal, by default
    ``backups/backup-<time>.sqlite3``. Reads only, so it works while the companion runs."""
    ensure_dir(paths.root)
    journal = Journal(paths.journal, readonly=True)
    try:
        default = paths.backups / f"backup-{_stamp()}.sqlite3"
        return copy_journal(journal, Path(target) if target else default)
    finally:
        journal.close()


def restore(paths: DataPaths, source: Path) -> Path | None:
    """``companion restore FILE``: make ``source`` (a journal or a backup of one) the data
    directory's journal. The caller holds the writer lock. The current journal, if any, is
    first saved as ``backups/before-restore-<time>.sqlite3``; that path is returned."""
    source = Path(source)
    if not source.is_file():
        raise StoreError("store.no_journal", path=str(source))
    incoming = Journal(source, readonly=True)
    try:
        broken = incoming.check_chain()
        if broken is not None and broken.seq is not None:
            raise StoreError("store.chain_broken", path=str(source), seq=broken.seq)
        path = paths.journal
        saved = None
        if path.exists():
            with contextlib.suppress(StoreError):
                current = Journal(path, readonly=True)
                try:
                    saved = copy_journal(current, paths.backups /
                                         f"before-restore-{_stamp()}.sqlite3")
                finally:
                    current.close()
            if saved is None:  # the current file is no journal at all: keep its bytes
                saved = paths.backups / f"before-restore-{_stamp()}.unreadable"
                ensure_dir(saved.parent)
                os.replace(path, saved)
                for suffix in ("-wal", "-shm"):
                    Path(f"{path}{suffix}").unlink(missing_ok=True)
        target = Journal(path)
        try:
            target.replace_with(incoming)
        finally:
            target.close()
    finally:
        incoming.close()
    return saved
