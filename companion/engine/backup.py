"""Backups of the journal: on demand (``companion backup``), at every game end (the newest
:data:`KEEP` kept in ``backups/``), and putting one back (``companion restore``).

Copies are made with SQLite's online backup API, which gives a consistent copy even while the
companion writes, into a temporary file that is flushed and then renamed: a backup on disk is
always whole. Restoring first saves the current journal beside the others, so a restore can
itself be undone.
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

KEEP = 5
"""How many backups made at game ends are kept (the oldest beyond are removed)."""
AUTO_PREFIX = "auto-"


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
    """The backup made when a game ends: ``backups/auto-<time>-<seq>.sqlite3``, keeping the
    newest :data:`KEEP`."""
    folder = paths.backups
    made = copy_journal(journal, folder / f"{AUTO_PREFIX}{_stamp()}-{journal.last_seq():08d}"
                                          ".sqlite3")
    for old in sorted(folder.glob(f"{AUTO_PREFIX}*.sqlite3"))[:-KEEP]:
        old.unlink()
    return made


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
