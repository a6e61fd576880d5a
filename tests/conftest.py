"""Fixtures shared by every test: a session on a fresh data directory. The helpers several
folders share (``tests/helpers/``: sessions, Last Bastion's events and random table, the crash
writer, a mosquitto broker) are put on ``sys.path`` here, and the games' dice are handed to vision
as the app layer does (``companion.gamedice``)."""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent / "helpers"))

import pytest

from companion.dicehandoff import declare_dice
from companion.engine import Session

declare_dice()


@pytest.fixture
def data_dir(tmp_path: Path) -> Path:
    """A fresh data directory."""
    return tmp_path / "data"


@pytest.fixture
def session(data_dir: Path) -> Session:
    """A session on a fresh data directory."""
    s = Session(data_dir)
    yield s
    s.close()
