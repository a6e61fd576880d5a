"""A test roll the reader must read right: ``companion doctor``'s proof that the dice models
load and work on this machine, how fast, and with which library."""

from __future__ import annotations

import time
from dataclasses import dataclass

import numpy as np

from .net import DiceNets
from .profile import load_profile
from .reader import read
from .runtime import engine
from .synth import render

ROLLED = ("1", "2", "3", "4", "5", "6")  # one die of each face
SEED = 0  # the layout of the test roll: the shipped model reads each of its dice at 1.0


@dataclass(frozen=True)
class SelfTest:
    """What the reader made of a rendered test roll: the faces rolled, the faces it read (top
    to bottom), the milliseconds one read took once the models were loaded, and the library
    that ran the networks with its version (see :func:`vision.runtime.engine`)."""

    rolled: tuple[str, ...]
    read: tuple[str, ...]
    milliseconds: float
    engine: tuple[str, str]

    @property
    def right(self) -> bool:
        """Every die of the roll found once and read as rolled."""
        return sorted(self.read) == sorted(self.rolled)


def self_test(nets: DiceNets | None = None) -> SelfTest:
    """Read the test roll with ``nets`` (the shipped models when ``None``). Raises whatever
    loading or running damaged models raises: the caller reports it."""
    image, _ = render("d6", np.random.default_rng(SEED), faces=list(ROLLED))
    profile = load_profile("d6")
    read(image, profile, nets=nets)  # the first read loads the models
    start = time.perf_counter()
    roll = read(image, profile, nets=nets)
    milliseconds = (time.perf_counter() - start) * 1000
    return SelfTest(ROLLED, tuple(d.face for d in roll.dice), milliseconds, engine())
