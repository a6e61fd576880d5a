"""A camera for the tests of what the box does with its camera's frame: it always gives the same
picture (the frame tap and the table take it as they take a Pi camera)."""

from __future__ import annotations

import numpy as np


class Still:
    """A camera that always gives the same frame."""

    name = "still camera"

    def __init__(self, frame: np.ndarray) -> None:
        self.frame = frame

    def open(self) -> None:
        """Nothing to open."""

    def read(self) -> tuple[float, np.ndarray]:
        """The frame, at time 1."""
        return 1.0, self.frame

    def close(self) -> None:
        """Nothing to close."""
