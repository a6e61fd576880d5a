"""Frame checks that make a reading untrustworthy as a whole: too dark, blown out, blurred."""

from __future__ import annotations

import cv2
import numpy as np

from .net import clip_box
from .roll import Box

TOO_DARK = "too dark"
BLOWN_OUT = "blown out"
BLURRED = "blurred"
SHARP_SIDE = 64  # a larger die is shrunk to this side before its sharpness is judged


def exposure_notes(image: np.ndarray) -> list[str]:
    """``["too dark"]`` or ``["blown out"]`` when the light makes the frame unreadable (judged on
    every pixel of a 640 px frame, on a regular sample of a larger one)."""
    step = max(1, max(image.shape[:2]) // 640)
    grey = cv2.cvtColor(np.ascontiguousarray(image[::step, ::step]), cv2.COLOR_BGR2GRAY)
    counts = cv2.calcHist([grey], [0], None, [256], [0, 256]).ravel()
    share = np.cumsum(counts) / counts.sum()
    if share[23] > 0.99:  # the 99th percentile is darker than 24
        return [TOO_DARK]
    if 1.0 - share[249] > 0.5:
        return [BLOWN_OUT]
    return []


def sharpness(image: np.ndarray, box: Box) -> float:
    """Edge steepness inside a die, in its blurriest direction, relative to its contrast.

    A sharp die has steep steps between marks and body in every direction; motion blur spreads
    them along the motion, so the steepest step *in the worst direction* falls compared with the
    range of grey levels (about 0.3 and more when sharp, well under 0.2 when blurred).
    """
    inside = clip_box(box, image.shape[1], image.shape[0])
    if inside is None:  # nothing of the die left in the frame: nothing to judge it by
        return 0.0
    x0, y0, x1, y1 = inside
    grey = cv2.cvtColor(image[y0:y1, x0:x1], cv2.COLOR_BGR2GRAY)
    if max(grey.shape) > SHARP_SIDE:  # judged at the size of a die in a 640 px frame
        k = SHARP_SIDE / max(grey.shape)
        grey = cv2.resize(grey, (max(1, round(grey.shape[1] * k)), max(1, round(
            grey.shape[0] * k))), interpolation=cv2.INTER_AREA)
    grey = grey.astype(np.float32)
    spread = _quantile(grey, 0.98) - _quantile(grey, 0.02)
    if spread <= 10:
        return 0.0
    gx = cv2.Sobel(grey, cv2.CV_32F, 1, 0, ksize=3) / 8.0  # Sobel sums 8 grey steps
    gy = cv2.Sobel(grey, cv2.CV_32F, 0, 1, ksize=3) / 8.0
    steepest = min(
        _quantile(np.abs(gx * c + gy * s), 0.98)
        for c, s in ((1, 0), (0, 1), (0.7071, 0.7071), (0.7071, -0.7071))
    )
    return steepest / spread


def _quantile(values: np.ndarray, q: float) -> float:
    """The ``q`` quantile (nearest rank) by partial sort: much faster than ``np.percentile``."""
    flat = values.ravel()
    k = min(len(flat) - 1, int(q * len(flat)))
    return float(np.partition(flat, k)[k])
