"""Finding dice: the learned detector gives boxes; each box is then cut from its tray locally.

The detector (``vision.net``) finds every die's box, touching dice and white-on-white included.
Faces read from colours and marks (learned profiles) also need the die's own pixels: inside a box,
the tray colour is the median of a thin ring just outside the box, and the die is the connected
area, around the box centre, of pixels far from that colour.
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

from .net import DiceNets, clip_box

TRAY_DISTANCE = 18.0  # Lab distance from the tray colour above which a pixel belongs to a die


@dataclass(frozen=True)
class Blob:
    """A die: its box in the frame, its pixel mask inside that box, and the mask's area."""

    box: tuple[int, int, int, int]
    mask: np.ndarray
    area: int

    @property
    def side(self) -> float:
        """Side of the die in pixels, from the mask's tightest rotated rectangle."""
        points = cv2.findNonZero(self.mask.astype(np.uint8))
        (_, _), (w, h), _ = cv2.minAreaRect(points)
        return float(max(min(w, h), np.sqrt(self.area) * 0.8))


def find_dice(image: np.ndarray, nets: DiceNets) -> list[Blob]:
    """Every die in a BGR frame, with its pixels."""
    return [b for f in nets.detect(image) if (b := die_pixels(image, f.box)) is not None]


def die_pixels(image: np.ndarray, box: tuple[int, int, int, int]) -> Blob | None:
    """The die inside ``box``: pixels unlike the tray ring around it, connected to the centre.

    Falls back to the ellipse inscribed in the box when the die is coloured like the tray.
    The box is first cut to the frame; ``None`` when too little of it is left to hold a die.
    """
    h, w = image.shape[:2]
    inside = clip_box(box, w, h)
    if inside is None:
        return None
    x0, y0, x1, y1 = box = inside
    pad = max(2, (x1 - x0) // 8)
    px0, py0, px1, py1 = max(0, x0 - pad), max(0, y0 - pad), min(w, x1 + pad), min(h, y1 + pad)
    lab = cv2.cvtColor(image[py0:py1, px0:px1], cv2.COLOR_BGR2LAB).astype(np.float32)
    ring = np.ones(lab.shape[:2], bool)
    ring[y0 - py0 : y1 - py0, x0 - px0 : x1 - px0] = False
    inside = ~ring
    ellipse = np.zeros(lab.shape[:2], np.uint8)
    centre = ((x0 + x1) // 2 - px0, (y0 + y1) // 2 - py0)
    cv2.ellipse(ellipse, centre, ((x1 - x0) // 2, (y1 - y0) // 2), 0, 0, 360, 1, -1)
    mask = ellipse.astype(bool)
    if ring.any():
        tray = np.median(lab[ring], axis=0)
        far = (np.linalg.norm(lab - tray, axis=2) > TRAY_DISTANCE) & inside
        far = cv2.morphologyEx(far.astype(np.uint8), cv2.MORPH_CLOSE, np.ones((3, 3), np.uint8))
        n, labels, stats, _ = cv2.connectedComponentsWithStats(far, connectivity=8)
        if n > 1:
            best = 1 + int(np.argmax(stats[1:, cv2.CC_STAT_AREA]))
            area = stats[best, cv2.CC_STAT_AREA]
            if area >= 0.4 * (x1 - x0) * (y1 - y0):
                mask = _fill(labels == best)
    mask = mask[y0 - py0 : y1 - py0, x0 - px0 : x1 - px0]
    return Blob(box, mask, int(mask.sum())) if mask.sum() >= 12 else None


def _fill(mask: np.ndarray) -> np.ndarray:
    """Fill the holes of a mask (marks coloured like the tray)."""
    u8 = mask.astype(np.uint8)
    contours, _ = cv2.findContours(u8, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
    filled = np.zeros(mask.shape, np.uint8)
    cv2.drawContours(filled, contours, -1, 1, cv2.FILLED)
    return filled.astype(bool)
