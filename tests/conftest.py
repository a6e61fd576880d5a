"""Fixtures shared by every test: a session on a fresh data directory."""

from __future__ import annotations

from pathlib import Path

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
