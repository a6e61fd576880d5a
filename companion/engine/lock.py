"""One writer per data directory: an OS lock on the data directory itself, held while a writer
is open.

Two processes writing the same journal corrupt a game (each keeps its own idea of the state
and appends on top of the other's events), so every command that writes — ``run``, ``undo``,
``replay``, ``cards``, ``tags``, ``pin``, ``repair``, ``restore`` — first takes this lock, and a
second writer is refused with the process that holds it. The lock is ``flock`` on the open
directory: the kernel drops it when the holder exits, even on SIGKILL or a power cut, so a stale
lock can never block the table; and no file can be deleted from under it (a lock on a file was
taken away by ``rm companion.lock``: the next writer locked a new file beside it). The file
``companion.lock`` only says who holds the lock (pid and command) for the refusal message; when
it is gone, the kernel's table of locks names the pid.

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
"""The directories this process holds: (device, inode) -> [directory fd, number of holders]."""
_HELD_GUARD = threading.Lock()
PROC_LOCKS = Path("/proc/locks")


class DataLock:
    """The writer lock of a data directory, taken on creation and held until :meth:`release`."""

    def __init__(self, data_dir: Path) -> None:
        self.path = DataPaths(Path(data_dir)).lock
        try:
            fd = os.open(data_dir, os.O_RDONLY | os.O_DIRECTORY)
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
            try:
                _say_who(self.path)
            except OSError as exc:
                os.close(fd)
                self._key = None
                raise storage_error(exc, Path(data_dir)) from None
            _HELD[self._key] = [fd, 1]

    def release(self) -> None:
        """Let another writer in (closing the directory drops the lock) once this process's
        last holder releases it."""
        with _HELD_GUARD:
            if self._key is None or self._key not in _HELD:
                return
            held = _HELD[self._key]
            held[1] -= 1
            if held[1] == 0:
                os.close(held[0])
                del _HELD[self._key]
            self._key = None


def _say_who(path: Path) -> None:
    """Record this process as the holder in ``companion.lock`` (pid, command, since)."""
    record = json.dumps({"pid": os.getpid(), "command": _command(), "since": time.time()})
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o644)
    try:
        os.write(fd, record.encode("utf-8") + b"\n")
    finally:
        os.close(fd)


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
    try:
        fd = os.open(data_dir, os.O_RDONLY | os.O_DIRECTORY)
    except OSError:
        return None
    try:
        try:
            fcntl.flock(fd, fcntl.LOCK_SH | fcntl.LOCK_NB)
        except BlockingIOError:
            return _recorded(DataPaths(Path(data_dir)).lock) or _from_kernel(os.fstat(fd))
        return None  # nobody holds it: what the file says is from a writer that has ended
    finally:
        os.close(fd)


def _recorded(path: Path) -> dict[str, Any] | None:
    """What ``companion.lock`` says of the holder, if it is there and readable."""
    try:
        record = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    return dict(record) if isinstance(record, dict) and "pid" in record else None


def _from_kernel(directory: os.stat_result) -> dict[str, Any]:
    """The holder's pid and command line from the kernel's lock table (``companion.lock``
    was removed or spoilt), else question marks."""
    where = (f"{os.major(directory.st_dev):02x}:{os.minor(directory.st_dev):02x}:"
             f"{directory.st_ino}")
    try:
        lines = PROC_LOCKS.read_text().splitlines()
    except OSError:
        lines = []
    for line in lines:
        fields = line.split()
        if len(fields) > 5 and fields[1:4] == ["FLOCK", "ADVISORY", "WRITE"] \
                and fields[5] == where:
            pid = int(fields[4])
            try:
                argv = Path(f"/proc/{pid}/cmdline").read_bytes().decode(errors="replace")
            except OSError:
                argv = "?"
            return {"pid": pid, "command": _shown(argv.rstrip("\0").split("\0"))}
    return {"pid": "?", "command": "?"}


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
    return _shown(list(sys.argv))


def _shown(argv: list[str]) -> str:
    """A command line as the refusal shows it (``companion ...``, at most 200 characters)."""
    if argv[1:3] == ["-m", "companion"]:  # an interpreter's command line, from /proc
        argv = argv[2:]
    if argv and argv[0].endswith(("__main__.py", "/companion")):
        argv[0] = "companion"
    return shlex.join(argv)[:200]
