"""The journal's checksum chain and its head, kept outside the database.

Each event row stores ``sha256(previous hash + the row's canonical JSON)``: a row altered,
removed or reordered in the middle breaks the chain from there on. A tail that vanished (a
damaged write-ahead log that SQLite silently cuts short, a file copied back from before the last
events) leaves a chain that is still whole, so the newest sequence number and hash are also
written to ``journal.head`` beside the database after every commit: a head newer than the
journal's last row means events were lost.

The head is rewritten in place without ``fsync``: after a power cut it may be older than the
journal (never newer), which reads as "nothing lost" — a head never raises a false alarm.
"""

from __future__ import annotations

import hashlib
import json
import os
from dataclasses import dataclass
from pathlib import Path
from typing import Any

GENESIS = "0" * 64
"""The previous hash of the first event."""

HEAD_WIDTH = 96


def link(previous: str, row: tuple[Any, ...]) -> str:
    """The chain hash of an event row ``(seq, game_id, type, body, source, at, label)``, and
    its event ``format`` after them once it is recorded."""
    canonical = json.dumps(list(row), ensure_ascii=False, separators=(",", ":"))
    return hashlib.sha256((previous + canonical).encode("utf-8")).hexdigest()


@dataclass(frozen=True)
class Head:
    """The newest event the journal acknowledged: its sequence number and chain hash."""

    seq: int
    hash: str


class HeadFile:
    """``journal.head``: one line, ``<seq> <hash>``, rewritten in place after each commit."""

    def __init__(self, path: Path) -> None:
        self.path = Path(path)
        self._fd: int | None = None

    def read(self) -> Head | None:
        """The recorded head, or None when there is none (or it is unreadable: a head is a
        check, never a reason to refuse a journal)."""
        try:
            seq, digest = self.path.read_text(encoding="ascii").split()
            return Head(int(seq), digest) if len(digest) == 64 else None
        except (OSError, ValueError, UnicodeDecodeError):
            return None

    def write(self, head: Head | None) -> None:
        """Record the new head (writers only)."""
        if self._fd is None:
            self._fd = os.open(self.path, os.O_RDWR | os.O_CREAT, 0o644)
        line = "" if head is None else f"{head.seq} {head.hash}"
        os.pwrite(self._fd, line.ljust(HEAD_WIDTH - 1).encode("ascii") + b"\n", 0)

    def close(self) -> None:
        """Close the file."""
        if self._fd is not None:
            os.close(self._fd)
            self._fd = None
