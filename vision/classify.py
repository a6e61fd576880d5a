"""Naming a learned face: nearest taught example, confidence from the runner-up's distance."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

# Confidence scale, set on synthetic renders of the four learned profiles, read both with the
# shipped embedder and with one trained without two of those profiles: the wrong faces read there
# had d1 / d2 >= 0.94, and 99% of the right ones were within 13 of an example.
FAR_OFF = 16.0  # this far from every example, a face is unlike anything taught: confidence 0
SURE_RATIO = 0.4  # d1 / d2 at or under which the confidence is 1 (0.7 gives 0.5)
FAR = 8.0  # beyond this distance to the closest example the confidence drops
SPREAD_FLOOR = 0.5  # smallest within-face spread a feature is measured in (in feature units)
SHRINK = 0.5  # share of the per-feature spreads (the rest: full covariance) in the metric


@dataclass(frozen=True)
class FaceGuess:
    """Best face, its confidence (0..1) and the distance to its closest example."""

    face: str
    confidence: float
    distance: float


class FaceClassifier:
    """Nearest-neighbour classifier over the examples of a learned profile, in a metric learned
    from those same examples.

    The metric is the inverse of how examples vary *within* a face (their covariance around the
    face's mean, shrunk halfway toward its diagonal and never below ``SPREAD_FLOOR`` per feature,
    so a few examples still give a sound metric). Features that are noise for this profile (the
    shape of marks on plain coloured dice) then weigh little, and so do correlated features that
    move together under light or blur (mark coverage and ring terms), while what tells its faces
    apart counts fully. Confidence compares the closest face with the closest *other* face
    through ``d1 / d2`` (rescaled so that 0.7 gives 0.5), lowered when even the closest
    example is far away (a face unlike anything taught).
    """

    def __init__(self, examples: dict[str, list[list[float]]]):
        rows = [(face, vec) for face, vecs in examples.items() for vec in vecs]
        self.faces = np.array([face for face, _ in rows])
        vectors = np.array([vec for _, vec in rows], np.float64).reshape(len(rows), -1)
        self.transform = _whitening(vectors, self.faces).astype(np.float32)
        self.vectors = (vectors @ self.transform).astype(np.float32)

    def guess(self, vector: np.ndarray) -> FaceGuess | None:
        """The best face for ``vector``, or ``None`` when there is nothing to compare with."""
        if len(self.faces) == 0:
            return None
        dist = np.linalg.norm(self.vectors - vector @ self.transform, axis=1)
        best = int(np.argmin(dist))
        face, d1 = str(self.faces[best]), float(dist[best])
        others = dist[self.faces != face]
        d2 = float(others.min()) if len(others) else np.inf
        ratio = d1 / d2 if d2 > 0 else 1.0
        margin = float(np.clip((1.0 - ratio) / (1.0 - SURE_RATIO), 0.0, 1.0))
        closeness = float(np.clip((FAR_OFF - d1) / (FAR_OFF - FAR), 0.0, 1.0))
        return FaceGuess(face, margin * closeness, d1)


def _whitening(vectors: np.ndarray, faces: np.ndarray) -> np.ndarray:
    """The matrix that maps a feature vector to units of the within-face spread."""
    size = vectors.shape[1]
    if len(vectors) == 0:
        return np.eye(size)
    centred = np.concatenate(
        [vectors[faces == f] - vectors[faces == f].mean(axis=0) for f in np.unique(faces)]
    )
    cov = centred.T @ centred / len(centred)
    spread = np.maximum(np.diag(cov), SPREAD_FLOOR**2)
    cov = (1.0 - SHRINK) * cov + SHRINK * np.diag(spread)
    values, axes = np.linalg.eigh(cov)
    return axes / np.sqrt(np.maximum(values, SHRINK * SPREAD_FLOOR**2))
