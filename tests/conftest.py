"""Fixtures shared by every test: a session on a fresh data directory. The helpers several
folders share (``tests/helpers/``: sessions, Last Bastion's events and random table, the crash
writer, a mosquitto broker) are put on ``sys.path`` here."""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent / "helpers"))

import pytest

from companion.engine import Session


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
