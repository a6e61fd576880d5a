"""One writer per data directory: an OS lock on ``companion.lock`` held while a writer is open.

Two processes writing the same journal corrupt a game (each keeps its own idea of the state
and appends on top of the other's events), so every command that writes — ``run``, ``undo``,
``replay``, ``cards``, ``tags``, ``pin``, ``repair``, ``restore`` — first takes this lock, and a
second writer is refused with the process that holds it. The lock is ``flock`` on an open file:
the kernel drops it when the holder exits, even on SIGKILL or a power cut, so a stale lock can
never block the table. The file records who holds it (pid and command) for the refusal message;
it is never deleted (deleting a lock file lets two processes lock two different files).

The lock is per process: a second session opened by the process that already holds the
directory (a test reopening a journal to compare) shares it, and the lock is dropped when the
last of them closes. Within a process the composition root opens one session for everything.
"""

from __future__ import annotations

import contextlib
import fcntl
import json
import os
import shlex
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from .errors import StoreError
from .files import ensure_dir, storage_error
from .paths import DataPaths

_HELD: dict[tuple[int, int], list[int]] = {}
"""The locks this process holds: lock file (device, inode) -> [fd, number of holders]."""
_HELD_GUARD = threading.Lock()


class DataLock:
    """The writer lock of a data directory, taken on creation and held until :meth:`release`."""

    def __init__(self, data_dir: Path) -> None:
        self.path = DataPaths(Path(data_dir)).lock
        try:
            fd = os.open(self.path, os.O_RDWR | os.O_CREAT, 0o644)
        except OSError as exc:
            raise storage_error(exc, Path(data_dir)) from None
        stat = os.fstat(fd)
        self._key: tuple[int, int] | None = (stat.st_dev, stat.st_ino)
        with _HELD_GUARD:
            held = _HELD.get(self._key)
            if held is not None:
                os.close(fd)
                held[1] += 1
                return
            if not _take(fd):
                holder = holder_of(Path(data_dir)) or {}
                os.close(fd)
                self._key = None
                raise StoreError("store.busy", path=str(data_dir), pid=holder.get("pid", "?"),
                                 command=holder.get("command", "?"))
            _HELD[self._key] = [fd, 1]
        record = json.dumps({"pid": os.getpid(), "command": _command(), "since": time.time()})
        os.ftruncate(fd, 0)
        os.pwrite(fd, record.encode("utf-8") + b"\n", 0)

    def release(self) -> None:
        """Let another writer in (closing the file drops the lock) once this process's last
        holder releases it."""
        with _HELD_GUARD:
            if self._key is None or self._key not in _HELD:
                return
            held = _HELD[self._key]
            held[1] -= 1
            if held[1] == 0:
                os.close(held[0])
                del _HELD[self._key]
            self._key = None


def _take(fd: int, tries: int = 5) -> bool:
    """Try the lock a few times: a reader asking who holds it holds it for an instant."""
    for attempt in range(tries):
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            return True
        except BlockingIOError:
            if attempt < tries - 1:
                time.sleep(0.02)
    return False


def holder_of(data_dir: Path) -> dict[str, Any] | None:
    """Who holds the data directory's writer lock now (pid, command, since), or None."""
    path = DataPaths(Path(data_dir)).lock
    try:
        fd = os.open(path, os.O_RDONLY)
    except OSError:
        return None
    try:
        try:
            fcntl.flock(fd, fcntl.LOCK_SH | fcntl.LOCK_NB)
        except BlockingIOError:
            raw = os.read(fd, 4096)
            try:
                return dict(json.loads(raw.decode("utf-8")))
            except (ValueError, TypeError):
                return {"pid": "?", "command": "?"}
        return None  # nobody holds it: what the file says is from a writer that has ended
    finally:
        os.close(fd)


@contextlib.contextmanager
def writer_lock(data_dir: Path) -> Iterator[DataLock]:
    """Hold the writer lock for the length of a ``with`` block (commands that write a file of
    the data directory without opening a session: ``tags``, ``restore``, ``repair``)."""
    ensure_dir(Path(data_dir))
    lock = DataLock(data_dir)
    try:
        yield lock
    finally:
        lock.release()


def _command() -> str:
    argv = list(sys.argv)
    if argv and argv[0].endswith(("__main__.py", "/companion")):
        argv[0] = "companion"
    return shlex.join(argv)[:200]
