"""The colour a die shows the camera from above: which player's dice it is, in games where each
player rolls dice of their own colour (red, yellow, green, blue bodies, say).

The colour is named from the middle of the die's box (its top face, away from the table at the
corners): a die whose body is mostly saturated is named by the hue most of that colour has; a
grey die by its lightness. A die whose colour is split between two names, or too small to judge,
gets ``None``: whoever asks must not guess whose die it is.
"""

from __future__ import annotations

import cv2
import numpy as np

from .net import clip_box
from .roll import Box

HUES = (("red", 0), ("orange", 8), ("yellow", 20), ("green", 45), ("blue", 85),
        ("purple", 130), ("red", 165))
"""Hue names and where each begins on OpenCV's 0–179 hue circle (red wraps round)."""
COLOURS = ("white", "grey", "black", "red", "orange", "yellow", "green", "blue", "purple")
"""Every name :func:`die_colour` can give."""
SATURATED = 70  # a pixel this saturated (0-255) and this bright counts towards a hue
BRIGHT = 80
DARK, LIGHT = 71, 170  # a grey pixel's lightness (0-255) from which it is grey, then white
COLOURED = 0.12  # share of saturated pixels above which the die is coloured, not grey
AGREE = 0.7  # share of its saturated pixels the hue named must hold
MIDDLE = 0.25  # the share of the box's side left out on each edge (the table at the corners)
MIN_SIDE = 6  # pixels: a smaller middle says nothing
SAMPLE = 16  # a larger middle is judged on every n-th pixel, about this many across


def die_colour(image: np.ndarray, box: Box) -> str | None:
    """The name (one of :data:`COLOURS`) of the colour of the die in ``box`` of a BGR
    ``image``, or ``None`` when it cannot be told with confidence."""
    x0, y0, x1, y1 = box
    cut_x, cut_y = int((x1 - x0) * MIDDLE), int((y1 - y0) * MIDDLE)
    inside = clip_box((x0 + cut_x, y0 + cut_y, x1 - cut_x, y1 - cut_y),
                      image.shape[1], image.shape[0])
    if inside is None or min(inside[2] - inside[0], inside[3] - inside[1]) < MIN_SIDE:
        return None
    step = max(1, (inside[2] - inside[0]) // SAMPLE)
    middle = np.ascontiguousarray(image[inside[1]:inside[3]:step, inside[0]:inside[2]:step])
    hsv = cv2.cvtColor(middle, cv2.COLOR_BGR2HSV).reshape(-1, 3)
    saturated = hsv[(hsv[:, 1] >= SATURATED) & (hsv[:, 2] >= BRIGHT), 0]
    if len(saturated) < COLOURED * len(hsv):  # grey dice: the lightness most pixels have
        shades = np.bincount(np.digitize(hsv[:, 2], (DARK, LIGHT)), minlength=3)
        return ("black", "grey", "white")[int(np.argmax(shades))]
    starts = np.array([start for _, start in HUES])
    names = np.array([name for name, _ in HUES])[np.searchsorted(starts, saturated, "right") - 1]
    found, counts = np.unique(names, return_counts=True)
    best = int(np.argmax(counts))
    return str(found[best]) if counts[best] >= AGREE * len(saturated) else None
