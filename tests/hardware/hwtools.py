"""Shared helpers for the hardware tests: a Last Bastion table, a voice that records, waiting.

Import this module first in every test file: pytest puts ``tests/`` on ``sys.path`` (for
``tests/conftest.py``), where this folder would shadow the real ``hardware`` package as a
namespace package, so the repository root is put first (as ``tests/vision`` does).
"""

from __future__ import annotations

import sys
import threading
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))
sys.path.insert(1, str(Path(__file__).resolve().parents[1] / "helpers"))

from lastbastion import solo  # noqa: E402

from companion.engine import Session  # noqa: E402


class RecordingVoice:
    """A voice that writes down what it is asked to say, optionally waiting for ``gate``."""

    def __init__(self, gate: threading.Event | None = None) -> None:
        self.lines: list[tuple[str, str]] = []
        self.gate = gate

    def speak(self, text: str, lang: str) -> None:
        if self.gate is not None:
            self.gate.wait(10)
        self.lines.append((text, lang))

    def close(self) -> None:
        pass


def started_game(data_dir: Path, hero: str = "elmer") -> Session:
    """A session with a solo novice Last Bastion game set up (waiting for the first card)."""
    session = Session(data_dir)
    session.submit(solo(hero=hero), source="test")
    return session


def wait_until(condition: Callable[[], object], timeout: float = 5.0) -> bool:
    """Poll ``condition`` until it is true or ``timeout`` seconds pass."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if condition():
            return True
        time.sleep(0.005)
    return bool(condition())


def journal_types(session: Session) -> list[tuple[str, str]]:
    """(type, source) of every journaled event of the current game."""
    return [(e.event.type, e.event.source) for e in session.journal_entries()]
