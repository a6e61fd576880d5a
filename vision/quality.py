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
DARK = 23  # a frame with more than DARK_SHARE of its pixels this dark or darker is too dark
DARK_SHARE = 0.99
BLOWN = 249  # a frame with more than BLOWN_SHARE of its pixels brighter than this is blown out
BLOWN_SHARE = 0.5
DIRECTIONS = np.array([(1, 0), (0, 1), (0.7071, 0.7071), (0.7071, -0.7071)], np.float32)


def exposure_notes(image: np.ndarray) -> list[str]:
    """``["too dark"]`` or ``["blown out"]`` when the light makes the frame unreadable (judged on
    every pixel of a 640 px frame, on a regular sample of a larger one). Two counts of grey
    levels, not a histogram: a third of the time (0.2 ms a 640 px frame, one core)."""
    step = max(1, max(image.shape[:2]) // 640)
    grey = cv2.cvtColor(np.ascontiguousarray(image[::step, ::step]), cv2.COLOR_BGR2GRAY)
    if cv2.countNonZero(cv2.threshold(grey, DARK, 255, cv2.THRESH_BINARY_INV)[1]) > (
            DARK_SHARE * grey.size):  # the 99th percentile is darker than DARK + 1
        return [TOO_DARK]
    if cv2.countNonZero(cv2.threshold(grey, BLOWN, 255, cv2.THRESH_BINARY)[1]) > (
            BLOWN_SHARE * grey.size):
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
    low, high = _rank(grey.size, 0.02), _rank(grey.size, 0.98)
    ordered = np.partition(grey.ravel(), (low, high))
    spread = float(ordered[high] - ordered[low])
    if spread <= 10:
        return 0.0
    gx = cv2.Sobel(grey, cv2.CV_32F, 1, 0, ksize=3).ravel() / 8.0  # Sobel sums 8 grey steps
    gy = cv2.Sobel(grey, cv2.CV_32F, 0, 1, ksize=3).ravel() / 8.0
    steps = np.abs(DIRECTIONS[:, :1] * gx + DIRECTIONS[:, 1:] * gy)  # one row a direction
    return float(np.partition(steps, high, axis=1)[:, high].min()) / spread


def _rank(size: int, q: float) -> int:
    """The rank of the ``q`` quantile (nearest rank) of ``size`` values."""
    return min(size - 1, int(q * size))
