"""Naming a learned face: the nearest taught face by its mean, in a metric learned from the taught
examples; confidence from the runner-up's distance; a find unlike every taught face is no die."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

# Set on real pip photos taught as unknown symbols (benchmarks/vision.py --teach,
# docs/vision-lab.md) and checked on the synthetic renders of the four learned profiles.
SURE_RATIO = 0.35  # d1 / d2 at or under which the confidence is 1 (0.675 gives 0.5)
FAR = 2.0  # beyond this many typical distances (see ``reach``) the confidence drops ...
FAR_OFF = 3.0  # ... to 0 here: a face unlike anything taught is asked about
NOT_A_DIE = 4.0  # this many typical distances from every taught face: not a die at all
DOUBTFUL = 2.0  # ... or this many, when the pip classifier also takes it for no die ...
NO_DIE_ODDS = 0.9  # ... with at least this probability
SPREAD_FLOOR = 0.5  # smallest within-face spread a feature is measured in (in feature units)
SHRINK = 0.5  # share of the per-feature spreads (the rest: full covariance) in the metric


@dataclass(frozen=True)
class FaceGuess:
    """Best face, its confidence (0..1) and the distance to that face's mean."""

    face: str
    confidence: float
    distance: float


class FaceClassifier:
    """Nearest-mean classifier over the examples of a learned profile, in a metric learned from
    those same examples.

    Each face is summed up by the mean of its examples: a few photos of a face vary in light,
    turn and blur, and their mean is a steadier picture of the face than any one of them (on
    real pip photos taught as symbols, ten per face: .96 of the dice read right by nearest mean,
    .95 by nearest example, with the same embedder). The metric is the inverse of how examples
    vary *within* a face (their covariance around the face's mean, shrunk halfway toward its
    diagonal and never below ``SPREAD_FLOOR`` per feature, so a few examples still give a sound
    metric): features that are noise for this profile weigh little, and so do correlated ones
    that move together under light or blur, while what tells its faces apart counts fully.

    Distances are then measured against ``reach``, how far the taught examples themselves lie
    from their face's mean when each is left out of it (a new photo of a taught face lies about
    as far). Confidence compares the closest face with the closest *other* face through
    ``d1 / d2`` (rescaled so that ``(1 + SURE_RATIO) / 2`` gives 0.5), lowered beyond ``FAR``
    reaches from the closest face. A find over ``NOT_A_DIE`` reaches from every face, or over
    ``DOUBTFUL`` when the pip classifier is ``NO_DIE_ODDS`` sure it is no die, is no die (a hole
    in the tray, a corner, a token: the detector's false finds), and :meth:`guess` says
    ``None``. The pip classifier alone would not do: it never saw symbol dice and takes a few
    of them for no die; nor would the distance alone: the tray's false finds lie barely further
    from the taught pips than new photos of them (docs/vision-lab.md).
    """

    def __init__(self, examples: dict[str, list[list[float]]]):
        taught = {face: np.asarray(vecs, np.float64) for face, vecs in examples.items() if vecs}
        self.faces = tuple(taught)
        if not taught:
            self.transform = self.means = np.zeros((0, 0), np.float32)
            self.reach = 1.0
            return
        groups = [vecs.reshape(len(vecs), -1) for vecs in taught.values()]
        transform = _whitening(groups)
        self.transform = transform.astype(np.float32)
        self.means = np.array([g.mean(axis=0) for g in groups]) @ transform
        self.means = self.means.astype(np.float32)
        self.reach = _reach([g @ transform for g in groups], self.transform.shape[1])

    def guess(
        self, vector: np.ndarray, not_a_die: Callable[[], float] | None = None
    ) -> FaceGuess | None:
        """The best face for ``vector``; ``None`` when there is nothing to compare with or the
        find is no die. ``not_a_die`` gives the pip classifier's probability that the find is
        no die (profile-independent: it learned the detector's false finds on trays); it is
        asked only of a find beyond ``DOUBTFUL`` reaches (it costs a few looks at the die)."""
        if not self.faces:
            return None
        dist = np.linalg.norm(self.means - vector @ self.transform, axis=1)
        order = np.argsort(dist)
        d1 = float(dist[order[0]])
        far = d1 / self.reach
        if far > NOT_A_DIE or (far > DOUBTFUL and not_a_die is not None
                               and not_a_die() >= NO_DIE_ODDS):
            return None
        d2 = float(dist[order[1]]) if len(order) > 1 else np.inf
        ratio = d1 / d2 if d2 > 0 else 1.0
        margin = float(np.clip((1.0 - ratio) / (1.0 - SURE_RATIO), 0.0, 1.0))
        closeness = float(np.clip((FAR_OFF - far) / (FAR_OFF - FAR), 0.0, 1.0))
        return FaceGuess(self.faces[order[0]], margin * closeness, d1)


def _whitening(groups: list[np.ndarray]) -> np.ndarray:
    """The matrix that maps a feature vector to units of the within-face spread."""
    centred = np.concatenate([g - g.mean(axis=0) for g in groups])
    cov = centred.T @ centred / len(centred)
    spread = np.maximum(np.diag(cov), SPREAD_FLOOR**2)
    cov = (1.0 - SHRINK) * cov + SHRINK * np.diag(spread)
    values, axes = np.linalg.eigh(cov)
    return axes / np.sqrt(np.maximum(values, SHRINK * SPREAD_FLOOR**2))


def _reach(groups: list[np.ndarray], size: int) -> float:
    """How far a new example of a taught face typically lies from that face's mean (in the
    whitened units): the root mean square distance of each example to the mean of the others of
    its face. With a single example per face, the spread of a face in the metric's units
    (``sqrt(size)``: the metric makes each direction's spread one)."""
    squared = []
    for g in groups:
        n = len(g)
        if n > 1:
            others = (g.sum(axis=0) - g) / (n - 1)
            squared += list(((g - others) ** 2).sum(axis=1))
    return float(np.sqrt(np.mean(squared))) if squared else float(np.sqrt(size))
