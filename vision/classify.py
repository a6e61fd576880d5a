"""Naming a learned face: nearest taught example, confidence from the runner-up's distance."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

FAR_OFF = 12.0  # this far from every example, a face is unlike anything taught: confidence 0
SURE_RATIO = 0.1  # d1 / d2 at or under which the confidence is 1 (0.55 gives 0.5)
FAR = 6.0  # beyond this distance to the closest example the confidence drops
SPREAD_FLOOR = 0.5  # smallest within-face spread a feature is divided by (in feature units)


@dataclass(frozen=True)
class FaceGuess:
    """Best face, its confidence (0..1) and the distance to its closest example."""

    face: str
    confidence: float
    distance: float


class FaceClassifier:
    """Nearest-neighbour classifier over the examples of a learned profile.

    Each feature is first divided by how much it varies between examples of the same face
    (at least ``SPREAD_FLOOR``), so features that are noise for this profile (the shape of marks
    on plain coloured dice) weigh little and the ones that tell its faces apart count fully.
    Confidence compares the closest face with the closest *other* face through ``d1 / d2``
    (rescaled so that 0.55, the best ratio a wrong face reached on synthetic renders, gives about
    0.5), lowered when even the closest example is far away (a face unlike anything taught).
    """

    def __init__(self, examples: dict[str, list[list[float]]]):
        rows = [(face, vec) for face, vecs in examples.items() for vec in vecs]
        self.faces = np.array([face for face, _ in rows])
        vectors = np.array([vec for _, vec in rows], np.float32).reshape(len(rows), -1)
        self.weights = 1.0 / np.maximum(_spread(vectors, self.faces), SPREAD_FLOOR)
        self.vectors = vectors * self.weights

    def guess(self, vector: np.ndarray) -> FaceGuess | None:
        """The best face for ``vector``, or ``None`` when there is nothing to compare with."""
        if len(self.faces) == 0:
            return None
        dist = np.linalg.norm(self.vectors - vector * self.weights, axis=1)
        best = int(np.argmin(dist))
        face, d1 = str(self.faces[best]), float(dist[best])
        others = dist[self.faces != face]
        d2 = float(others.min()) if len(others) else np.inf
        ratio = d1 / d2 if d2 > 0 else 1.0
        margin = float(np.clip((1.0 - ratio) / (1.0 - SURE_RATIO), 0.0, 1.0))
        closeness = float(np.clip((FAR_OFF - d1) / (FAR_OFF - FAR), 0.0, 1.0))
        return FaceGuess(face, margin * closeness, d1)


def _spread(vectors: np.ndarray, faces: np.ndarray) -> np.ndarray:
    """Per feature, the typical spread of examples around their own face's mean."""
    if len(vectors) == 0:
        return np.ones(vectors.shape[1], np.float32)
    centred = [vectors[faces == f] - vectors[faces == f].mean(axis=0) for f in np.unique(faces)]
    return np.sqrt(np.mean(np.concatenate(centred) ** 2, axis=0))
