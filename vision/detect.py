"""Finding dice on a plain tray: background model, foreground mask, and splitting touching dice.

The tray is assumed plain (any colour, with slow light changes), so a die is a compact blob whose
colour differs from the local background. The background is estimated twice: a coarse median first,
then a fill that ignores what the first pass marked as foreground, so tight clusters of dice are not
mistaken for background.
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

WORK = 160  # side of the coarse grid the background is estimated on
L_WEIGHT = 0.5  # weight of lightness against colour in the difference


@dataclass(frozen=True)
class Blob:
    """A die candidate: its pixel mask bounding box, the mask inside that box, and its area."""

    box: tuple[int, int, int, int]
    mask: np.ndarray
    area: int

    @property
    def side(self) -> float:
        """Side of the die in pixels, from the blob's tightest rotated rectangle."""
        points = cv2.findNonZero(self.mask.astype(np.uint8))
        (_, _), (w, h), _ = cv2.minAreaRect(points)
        return float(max(min(w, h), np.sqrt(self.area) * 0.8))


@dataclass(frozen=True)
class Detection:
    """What the detector saw: candidate dice, the typical die side in pixels, the difference map."""

    blobs: list[Blob]
    die_side: float
    difference: np.ndarray


def _lab(image: np.ndarray) -> np.ndarray:
    lab = cv2.cvtColor(image, cv2.COLOR_BGR2LAB).astype(np.float32)
    lab[:, :, 0] *= L_WEIGHT
    return lab


def background(lab: np.ndarray, ignore: np.ndarray | None = None) -> np.ndarray:
    """Estimate the tray colour at every pixel of ``lab`` (a half-weighted-L Lab image).

    Without ``ignore`` it is a coarse median; with it, a normalised blur of the pixels not ignored.
    """
    h, w = lab.shape[:2]
    small = cv2.resize(lab, (WORK, WORK), interpolation=cv2.INTER_AREA)
    if ignore is None:
        u8 = np.clip(small, 0, 255).astype(np.uint8)
        est = cv2.medianBlur(u8, 31).astype(np.float32)
    else:
        keep = cv2.resize((~ignore).astype(np.float32), (WORK, WORK), interpolation=cv2.INTER_AREA)
        keep = (keep > 0.99).astype(np.float32)
        num = cv2.GaussianBlur(small * keep[:, :, None], (0, 0), 6)
        den = cv2.GaussianBlur(keep, (0, 0), 6)[:, :, None]
        coarse = cv2.GaussianBlur(small, (0, 0), 6)
        est = np.where(den > 1e-3, num / np.maximum(den, 1e-3), coarse)
    return cv2.resize(est, (w, h), interpolation=cv2.INTER_LINEAR)


def difference(image: np.ndarray) -> np.ndarray:
    """Colour distance of each pixel from the estimated tray (float32, 0..~200)."""
    lab = _lab(image)
    first = np.linalg.norm(lab - background(lab), axis=2)
    ignore = cv2.dilate((first > 20).astype(np.uint8), np.ones((9, 9), np.uint8)).astype(bool)
    return np.linalg.norm(lab - background(lab, ignore), axis=2)


def _outlines(image: np.ndarray) -> np.ndarray:
    """Closed shapes drawn by edges: finds dice coloured like the tray (white on white)."""
    grey = cv2.cvtColor(image, cv2.COLOR_BGR2GRAY)
    edges = cv2.Canny(cv2.GaussianBlur(grey, (3, 3), 0), 20, 50)
    edges = cv2.morphologyEx(edges, cv2.MORPH_CLOSE, np.ones((5, 5), np.uint8))
    filled = _fill_holes(edges, (min(grey.shape) / 8.0) ** 2)
    return cv2.morphologyEx(filled, cv2.MORPH_OPEN, np.ones((7, 7), np.uint8))


def _fill_holes(mask: np.ndarray, max_area: float) -> np.ndarray:
    """Fill holes smaller than ``max_area`` (pips, glare); a tray wall's inside stays empty."""
    contours, hierarchy = cv2.findContours(mask, cv2.RETR_CCOMP, cv2.CHAIN_APPROX_SIMPLE)
    filled = mask.copy()
    if hierarchy is None:
        return filled
    holes = [
        c
        for c, h in zip(contours, hierarchy[0], strict=True)
        if h[3] >= 0 and cv2.contourArea(c) < max_area
    ]
    cv2.drawContours(filled, holes, -1, 255, cv2.FILLED)
    return filled


def find_dice(image: np.ndarray, threshold: float = 22.0) -> Detection:
    """Find die-shaped blobs in a BGR image; touching dice are split into one blob each."""
    diff = difference(image)
    mask = (diff > threshold).astype(np.uint8) * 255
    mask = cv2.morphologyEx(mask, cv2.MORPH_OPEN, np.ones((3, 3), np.uint8)) | _outlines(image)
    mask = _fill_holes(mask, (min(mask.shape) / 8.0) ** 2) & _tray_floor(diff)
    side = _typical_side(mask)
    mask = _drop_thin(mask, side)
    n, labels, stats, _ = cv2.connectedComponentsWithStats(mask, connectivity=8)
    comps = [(i, stats[i]) for i in range(1, n) if stats[i, cv2.CC_STAT_AREA] >= 0.3 * side**2]
    blobs: list[Blob] = []
    for i, s in comps:
        x, y, w, h, area = (int(v) for v in s)
        sub = (labels[y : y + h, x : x + w] == i).astype(np.uint8)
        blobs.extend(_split(sub, x, y, side))
    blobs = [b for b in blobs if _die_shaped(b, side)]
    return Detection(blobs, side, diff)


def _tray_floor(diff: np.ndarray, still: float = 10.0) -> np.ndarray:
    """Where dice can lie: the convex hull of the innermost large background-coloured areas.

    A tray seen inside a larger scene shows as a floor area enclosed by the wall and by the table
    around it; only areas that enclose no other large area are kept, so walls, rims and the table
    outside are ignored. Without any large background area the whole frame is kept.
    """
    low = (diff < still).astype(np.uint8)
    low = cv2.morphologyEx(low, cv2.MORPH_OPEN, np.ones((5, 5), np.uint8))
    contours, hierarchy = cv2.findContours(low, cv2.RETR_TREE, cv2.CHAIN_APPROX_SIMPLE)
    large = {
        i
        for i, c in enumerate(contours)
        if _is_outer(hierarchy[0], i) and cv2.contourArea(c) > 0.1 * diff.size
    }
    innermost = [i for i in large if not any(_encloses(hierarchy[0], i, j) for j in large - {i})]
    if not innermost:
        return np.full(diff.shape, 255, np.uint8)
    floor = np.zeros(diff.shape, np.uint8)
    for i in innermost:
        cv2.fillConvexPoly(floor, cv2.convexHull(contours[i]), 255)
    return floor


def _is_outer(hierarchy: np.ndarray, i: int) -> bool:
    """True when contour ``i`` bounds a foreground area (even depth in the contour tree)."""
    depth = 0
    while hierarchy[i][3] >= 0:
        i = hierarchy[i][3]
        depth += 1
    return depth % 2 == 0


def _encloses(hierarchy: np.ndarray, outer: int, inner: int) -> bool:
    """True when contour ``inner`` lies somewhere inside contour ``outer``."""
    i = hierarchy[inner][3]
    while i >= 0:
        if i == outer:
            return True
        i = hierarchy[i][3]
    return False


def _typical_side(mask: np.ndarray) -> float:
    """Median side of the compact, square-ish components: the size of one die in this frame."""
    contours, _ = cv2.findContours(mask, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
    lo, hi = min(mask.shape) / 40.0, min(mask.shape) / 6.0
    sides = []
    for c in contours:
        (_, _), (w, h), _ = cv2.minAreaRect(c)
        if lo < min(w, h) and max(w, h) < hi and cv2.contourArea(c) > 0.7 * w * h:
            sides.append(np.sqrt(w * h))
    if not sides:
        return min(mask.shape) / 16.0
    return float(np.median(sides))


def _drop_thin(mask: np.ndarray, side: float) -> np.ndarray:
    """Remove bands thinner than a die (tray walls, rims) while keeping whole dice."""
    radius = int(0.3 * side)
    opened = cv2.morphologyEx(mask, cv2.MORPH_OPEN, _disk(2 * radius + 1))
    return cv2.dilate(opened, _disk(2 * radius + 1)) & mask


def _split(sub: np.ndarray, x: int, y: int, side: float) -> list[Blob]:
    """Cut a component holding several touching dice into one blob per die.

    Seeds are the peaks of the distance to the component's edge, at least half a die apart; the
    watershed on the mask then cuts along the narrowest necks between seeds.
    """
    h, w = sub.shape
    if sub.sum() < 1.5 * side * side and max(h, w) < 1.5 * side:
        return [_blob(sub, x, y)]
    dist = cv2.distanceTransform(sub, cv2.DIST_L2, 5)
    peaks = (dist >= 0.25 * side) & (dist == cv2.dilate(dist, _disk(int(0.6 * side))))
    n, markers = cv2.connectedComponents(peaks.astype(np.uint8))
    if n <= 2:
        return [_blob(sub, x, y)]
    markers = markers.astype(np.int32)
    markers[cv2.dilate(sub, np.ones((3, 3), np.uint8)) == 0] = n  # background seed
    cv2.watershed(cv2.cvtColor(sub * 255, cv2.COLOR_GRAY2BGR), markers)
    parts = ((markers == k).astype(np.uint8) & sub for k in range(1, n))
    return [_blob(p, x, y) for p in parts if p.any()]


def _disk(d: int) -> np.ndarray:
    d = max(3, d | 1)
    return cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (d, d))


def _blob(sub: np.ndarray, x: int, y: int) -> Blob:
    ys, xs = np.nonzero(sub)
    x0, x1, y0, y1 = xs.min(), xs.max() + 1, ys.min(), ys.max() + 1
    box = (int(x + x0), int(y + y0), int(x + x1), int(y + y1))
    return Blob(box, sub[y0:y1, x0:x1].astype(bool), int(len(xs)))


def _die_shaped(b: Blob, side: float) -> bool:
    w, h = b.box[2] - b.box[0], b.box[3] - b.box[1]
    return (
        0.35 * side * side <= b.area <= 2.2 * side * side
        and max(w, h) <= 2.0 * side
        and min(w, h) >= 0.5 * side
    )
