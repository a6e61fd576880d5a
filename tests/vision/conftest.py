"""Shared fixtures for the vision tests: the real labelled photos and seeded synthetic renders."""

from __future__ import annotations

import sys
from pathlib import Path

# pytest puts tests/ on sys.path (tests/conftest.py), where this folder would shadow the real
# ``vision`` package as a namespace package; the repository root must come first.
sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

import numpy as np  # noqa: E402
import pytest  # noqa: E402

from vision.datasets import BYLER, DatasetMissing, byler_frames  # noqa: E402
from vision.synth import render  # noqa: E402


@pytest.fixture(scope="session")
def byler():
    """All labelled real photos, loaded once; fails (never skips) when the folder is missing."""
    try:
        return list(byler_frames())
    except DatasetMissing as exc:
        pytest.fail(f"{exc}. The real-photo tests need {BYLER}.")


@pytest.fixture
def render_frame():
    """``render_frame(profile, seed, **kw)`` -> (image, truths), deterministic."""

    def make(profile: str, seed: int, **kwargs):
        return render(profile, np.random.default_rng(seed), **kwargs)

    return make
