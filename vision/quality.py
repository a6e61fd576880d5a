"""Frame checks that make a reading untrustworthy as a whole: too dark, blown out, blurred."""

from __future__ import annotations

import cv2
import numpy as np

from .detect import Blob

TOO_DARK = "too dark"
BLOWN_OUT = "blown out"
BLURRED = "blurred"


def exposure_notes(image: np.ndarray) -> list[str]:
    """``["too dark"]`` or ``["blown out"]`` when the light makes the frame unreadable."""
    grey = cv2.cvtColor(image, cv2.COLOR_BGR2GRAY)
    if float(np.percentile(grey, 99)) < 24:
        return [TOO_DARK]
    if float(np.mean(grey >= 250)) > 0.5:
        return [BLOWN_OUT]
    return []


def sharpness(image: np.ndarray, blob: Blob) -> float:
    """Edge steepness inside a die, in its blurriest direction, relative to its contrast.

    A sharp die has steep steps between marks and body in every direction; motion blur spreads
    them along the motion, so the steepest step *in the worst direction* falls compared with the
    range of grey levels (about 0.3 and more when sharp, well under 0.2 when blurred).
    """
    x0, y0, x1, y1 = blob.box
    grey = cv2.cvtColor(image[y0:y1, x0:x1], cv2.COLOR_BGR2GRAY).astype(np.float32)
    spread = float(np.percentile(grey, 98) - np.percentile(grey, 2))
    if spread <= 10 or min(grey.shape) < 4:
        return 0.0
    gx = cv2.Sobel(grey, cv2.CV_32F, 1, 0, ksize=3) / 8.0  # Sobel sums 8 grey steps
    gy = cv2.Sobel(grey, cv2.CV_32F, 0, 1, ksize=3) / 8.0
    steepest = min(
        float(np.percentile(np.abs(gx * c + gy * s), 98))
        for c, s in ((1, 0), (0, 1), (0.7071, 0.7071), (0.7071, -0.7071))
    )
    return steepest / spread
