"""Files of the data directory besides the journal: written whole or not at all, temporary
files that a crash left behind swept away, and a full or read-only disk noticed before a write.

Every file the companion derives or keeps next to the journal (taught definitions, the tag map,
backups) is written to a ``.tmp-*`` file in the same directory, flushed to disk, then renamed
over the real name, and the directory itself is synced: after a power cut the file is either
the old one or the new one. A process killed between the two steps leaves a ``.tmp-*`` file;
the next writer to open the directory removes them (:func:`sweep_temp`).
"""

from __future__ import annotations

import contextlib
import errno
import os
import tempfile
from pathlib import Path

from .errors import StoreError
from .paths import DataPaths

TEMP_PREFIX = ".tmp-"
MIN_FREE_BYTES = 4 * 1024 * 1024
"""Below this much free space an event is refused before it is written (SQLite needs room for
its write-ahead log, and a derived file for its new copy)."""


def ensure_dir(directory: Path) -> Path:
    """Create the data directory if needed; refuse a path that is a file or cannot be made."""
    try:
        directory.mkdir(parents=True, exist_ok=True)
    except (FileExistsError, NotADirectoryError):
        raise StoreError("store.not_a_directory", path=str(directory)) from None
    except OSError as exc:
        raise StoreError("store.unreadable", path=str(directory), detail=exc.strerror) from None
    return directory


def write_atomic(path: Path, data: bytes | str) -> None:
    """Replace ``path`` with ``data`` so that a crash leaves either the old or the new file."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=TEMP_PREFIX, suffix=path.suffix)
    try:
        with os.fdopen(fd, "wb") as out:
            out.write(data.encode("utf-8") if isinstance(data, str) else data)
            out.flush()
            os.fsync(out.fileno())
        os.replace(tmp, path)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        raise
    sync_path(path.parent)


def sync_path(path: Path) -> None:
    """Flush ``path`` to disk: a file's contents, or a rename or new file in a directory."""
    fd = os.open(path, os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


def temp_path(path: Path) -> Path:
    """A fresh temporary name next to ``path``, swept away by :func:`sweep_temp` if left."""
    return path.with_name(f"{TEMP_PREFIX}{os.getpid()}-{path.name}")


def sweep_temp(data_dir: Path) -> list[Path]:
    """Remove the temporary files a killed writer left at the top of the data directory and
    anywhere in the companion's own folders (the caller holds the writer lock, so none of them
    is being written); return them. ``*.tmp``: the status file's and the taught dice's own
    temporary names, and the host files' of earlier versions."""
    found = [path for pattern in (f"{TEMP_PREFIX}*", "*.tmp") for path in (
        *data_dir.glob(pattern),
        *(path for folder in DataPaths(data_dir).folders for path in folder.rglob(pattern)))]
    removed = []
    for path in sorted(set(found)):
        if path.is_file() and not path.is_symlink():
            path.unlink()
            removed.append(path)
    return removed


def check_writable(directory: Path, need: int | None = None) -> None:
    """Refuse (StoreError) when the data directory cannot take a write: a read-only file
    system or folder, or less than ``need`` bytes free (default :data:`MIN_FREE_BYTES`).
    Called before an event is written, so that a full disk refuses the event instead of
    failing half-way."""
    need = MIN_FREE_BYTES if need is None else need
    try:
        stats = os.statvfs(directory)
    except OSError as exc:
        raise StoreError("store.unreadable", path=str(directory), detail=exc.strerror) from None
    if stats.f_flag & os.ST_RDONLY or not os.access(directory, os.W_OK):
        raise StoreError("store.read_only", path=str(directory))
    free = stats.f_bavail * stats.f_frsize
    if free < need:
        raise StoreError("store.full", path=str(directory), free=_megabytes(free),
                         need=_megabytes(need))


def storage_error(exc: OSError | Exception, path: Path) -> StoreError:
    """The StoreError for a failed write: full disk, read-only, or another system error."""
    code = getattr(exc, "errno", None)
    text = str(exc).lower()
    if code == errno.ENOSPC or "full" in text:
        return StoreError("store.full", path=str(path), free="0", need=_megabytes(MIN_FREE_BYTES))
    if code in (errno.EROFS, errno.EACCES, errno.EPERM) or "readonly" in text:
        return StoreError("store.read_only", path=str(path))
    return StoreError("store.write_failed", path=str(path),
                      detail=getattr(exc, "strerror", None) or str(exc))


def _megabytes(size: int) -> str:
    return f"{size / 1e6:.1f} MB"
