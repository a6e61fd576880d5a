"""Describing a die's top face for faces learned from photos (colour and symbol dice).

The description must not change when the die turns, so it uses colours (of the body and of the
marks), how much of the face the marks cover, how they spread from the centre, and two
rotation-invariant moments of their shape.
"""

from __future__ import annotations

import cv2
import numpy as np

from .detect import Blob
from .marks import cut, mark_mask

FEATURES = 12
# Divisors that bring each feature to about one unit per clearly visible difference.
SCALES = np.array([12, 6, 6, 12, 6, 6, 0.05, 0.15, 0.15, 0.15, 0.6, 1.5], np.float32)


def describe(image: np.ndarray, blob: Blob) -> np.ndarray | None:
    """The feature vector of the face on top of ``blob``, already scaled; ``None`` if unreadable."""
    crop = cut(image, blob)
    if crop is None:
        return None
    marks = mark_mask(crop)
    lab = crop.lab.astype(np.float32)
    body = _median(lab[crop.inner & ~marks], crop.body)
    ink = _median(lab[marks], body)
    cover = float(marks.sum()) / float(crop.inner.sum())
    rings, hu = _shape(marks, crop.inner)
    raw = np.concatenate([body, ink, [cover], rings, hu]).astype(np.float32)
    raw[[1, 2, 4, 5]] -= 128.0
    return raw / SCALES


def _median(pixels: np.ndarray, fallback: np.ndarray) -> np.ndarray:
    return np.median(pixels, axis=0) if len(pixels) >= 3 else np.asarray(fallback, np.float32)


def _shape(marks: np.ndarray, inner: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Share of the marks in three rings around the face centre, and Hu moments 1-2 (log)."""
    ys, xs = np.nonzero(inner)
    cy, cx = ys.mean(), xs.mean()
    radius = max(1.0, float(np.sqrt(inner.sum() / np.pi)))
    my, mx = np.nonzero(marks)
    if len(mx) == 0:
        return np.zeros(3, np.float32), np.zeros(2, np.float32)
    r = np.hypot(my - cy, mx - cx) / radius
    rings = np.histogram(np.clip(r, 0, 0.999), bins=3, range=(0, 1))[0] / len(r)
    hu = cv2.HuMoments(cv2.moments(marks.astype(np.uint8), binaryImage=True))[:2, 0]
    hu = -np.sign(hu) * np.log10(np.abs(hu) + 1e-12)
    return rings.astype(np.float32), np.clip(hu, 0, 8).astype(np.float32)
