"""Shared helpers for the vision tests: the real labelled photos and seeded synthetic renders.

Import this module before ``vision`` in every test file: pytest puts ``tests/`` on ``sys.path``
(for ``tests/conftest.py``), where this folder would shadow the real ``vision`` package as a
namespace package, so the repository root is put first. (A conftest.py here would clash with the
engine tests' ``from conftest import ...``.)
"""

from __future__ import annotations

import sys
from functools import cache
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

import numpy as np  # noqa: E402
import pytest  # noqa: E402

from vision.datasets import BYLER, DatasetMissing, byler_frames  # noqa: E402
from vision.synth import render  # noqa: E402


@cache
def byler() -> list:
    """All labelled real photos, loaded once; fails (never skips) when the folder is missing."""
    try:
        return list(byler_frames())
    except DatasetMissing as exc:
        pytest.fail(f"{exc}. The real-photo tests need {BYLER}.")


def render_frame(profile: str, seed: int, **kwargs):
    """One deterministic synthetic frame: ``(image, truths)``."""
    return render(profile, np.random.default_rng(seed), **kwargs)
