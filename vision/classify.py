"""Naming a learned face: nearest taught example, confidence from the runner-up's distance."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

REJECT_DISTANCE = 6.0  # farther than this from every example: not a die of this profile


@dataclass(frozen=True)
class FaceGuess:
    """Best face, its confidence (0..1) and the distance to its closest example."""

    face: str
    confidence: float
    distance: float


class FaceClassifier:
    """Nearest-neighbour classifier over the examples of a learned profile.

    Confidence compares the closest face with the closest *other* face: ``1 - d1 / d2``, lowered
    when even the closest example is far away (a face unlike anything taught).
    """

    def __init__(self, examples: dict[str, list[list[float]]]):
        rows = [(face, vec) for face, vecs in examples.items() for vec in vecs]
        self.faces = np.array([face for face, _ in rows])
        self.vectors = np.array([vec for _, vec in rows], np.float32).reshape(len(rows), -1)

    def guess(self, vector: np.ndarray) -> FaceGuess | None:
        """The best face for ``vector``, or ``None`` when there is nothing to compare with."""
        if len(self.faces) == 0:
            return None
        dist = np.linalg.norm(self.vectors - vector, axis=1)
        best = int(np.argmin(dist))
        face, d1 = str(self.faces[best]), float(dist[best])
        others = dist[self.faces != face]
        d2 = float(others.min()) if len(others) else np.inf
        margin = 1.0 - d1 / d2 if d2 > 0 else 0.0
        closeness = float(np.clip(1.5 - d1 / 2.0, 0.0, 1.0))
        return FaceGuess(face, float(np.clip(margin * 2.0, 0.0, 1.0)) * closeness, d1)
