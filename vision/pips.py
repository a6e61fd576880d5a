"""Reading a pip die: find the pips on the top face, count them, and check their layout.

Pips are small round marks whose colour differs from the die body (dark on light, light on dark,
or coloured). Counting alone is fragile (glare, a side face's pips), so the count is checked
against the usual layout of that face: its confidence drops when the pips do not sit where a real
face puts them.
"""

from __future__ import annotations

from dataclasses import dataclass
from itertools import combinations

import cv2
import numpy as np

from .detect import Blob
from .marks import cut, mark_mask

# Canonical pip positions of faces 1-6, in units of the pip spacing.
LAYOUTS = {
    1: [(0, 0)],
    2: [(-1, -1), (1, 1)],
    3: [(-1, -1), (0, 0), (1, 1)],
    4: [(-1, -1), (1, -1), (-1, 1), (1, 1)],
    5: [(-1, -1), (1, -1), (0, 0), (-1, 1), (1, 1)],
    6: [(-1, -1), (1, -1), (-1, 0), (1, 0), (-1, 1), (1, 1)],
}


def _signature(points: np.ndarray) -> np.ndarray:
    """Sorted pairwise distances divided by the largest: invariant to shift, turn and scale."""
    d = np.array([np.hypot(*(a - b)) for a, b in combinations(points, 2)])
    return np.sort(d) / d.max()


SIGNATURES = {n: _signature(np.array(p, float)) for n, p in LAYOUTS.items() if n > 1}


@dataclass(frozen=True)
class PipReading:
    """Pips found on one die: how many, and how well they fit a face (0..1)."""

    count: int
    confidence: float
    centres: np.ndarray


def read_pips(image: np.ndarray, blob: Blob) -> PipReading:
    """Count the pips of the die in ``blob`` and rate how much the count can be trusted."""
    crop = cut(image, blob)
    if crop is None:
        return PipReading(0, 0.0, np.zeros((0, 2)))
    centres, sizes = _round_marks(mark_mask(crop).astype(np.uint8), crop.side)
    if len(centres) == 0:
        return PipReading(0, 0.0, centres)
    return PipReading(len(centres), _layout_fit(centres, sizes, crop.side), centres)


def _round_marks(marks: np.ndarray, side: float) -> tuple[np.ndarray, np.ndarray]:
    """Centres and areas of the pip-sized, roughly round marks."""
    n, _, stats, centroids = cv2.connectedComponentsWithStats(marks, connectivity=8)
    keep = []
    for i in range(1, n):
        w, h, area = stats[i, 2], stats[i, 3], stats[i, 4]
        if not 0.004 * side * side <= area <= 0.09 * side * side:
            continue
        if max(w, h) > 2.2 * min(w, h) or area < 0.45 * w * h:
            continue
        keep.append(i)
    return centroids[keep], stats[keep, 4].astype(float)


def _layout_fit(centres: np.ndarray, sizes: np.ndarray, side: float) -> float:
    """How well the pips look like a real face (0..1): equal sizes and the usual layout."""
    evenness = 1.0 - min(1.0, float(sizes.std() / sizes.mean())) if len(sizes) > 1 else 1.0
    n = len(centres)
    if n == 1:
        return 0.9 * evenness + 0.1
    if n > 6:
        return 0.0
    d = np.array([np.hypot(*(a - b)) for a, b in combinations(centres, 2)])
    if d.max() > 1.0 * side or d.min() < 0.12 * side:
        return 0.2 * evenness
    error = float(np.abs(np.sort(d) / d.max() - SIGNATURES[n]).max())
    return float(np.clip(1.0 - 3.0 * error, 0.0, 1.0)) * (0.5 + 0.5 * evenness)
