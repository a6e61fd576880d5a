"""The top of one die cut out of a frame, and the small marks (pips, symbols) printed on it."""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

from .detect import Blob

CHANNEL_WEIGHTS = np.array([1.0, 1.5, 1.5], np.float32)  # Lab: colour counts more than light
# A larger die is shrunk to this side first: its marks keep their shape, and the wide top-hat
# below costs with the square of the side.
WORK_SIDE = 32


@dataclass(frozen=True)
class DieCrop:
    """A die cut out with a margin: Lab pixels, the die's inner area and the mark strength map."""

    lab: np.ndarray
    inner: np.ndarray
    body: np.ndarray
    response: np.ndarray
    side: float


def disk(d: int) -> np.ndarray:
    """An elliptic structuring element of odd diameter ``d`` (at least 3)."""
    d = max(3, d | 1)
    return cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (d, d))


def cut(image: np.ndarray, blob: Blob) -> DieCrop | None:
    """Cut ``blob`` out of ``image``; ``None`` when the die is too small to hold a readable face.

    A die wider than ``WORK_SIDE`` pixels is shrunk to it. The inner area leaves out the die's
    rim, where side faces and shadow sit. The mark response is how much each pixel stands out as
    a small mark whose colour differs from the body (the median colour inside, since marks cover
    far less than half of a face); a wide top-hat keeps marks up to most of the face (a large
    disk or triangle) and drops slow shading across it.
    """
    x0, y0, x1, y1 = blob.box
    side = blob.side
    pad = max(2, int(0.15 * side))
    h, w = image.shape[:2]
    px0, py0, px1, py1 = max(0, x0 - pad), max(0, y0 - pad), min(w, x1 + pad), min(h, y1 + pad)
    lab = cv2.cvtColor(image[py0:py1, px0:px1], cv2.COLOR_BGR2LAB)
    mask = np.zeros(lab.shape[:2], np.uint8)
    mask[y0 - py0 : y1 - py0, x0 - px0 : x1 - px0] = blob.mask
    if side > WORK_SIDE:
        size = (max(1, round(lab.shape[1] * WORK_SIDE / side)),
                max(1, round(lab.shape[0] * WORK_SIDE / side)))
        lab = cv2.resize(lab, size, interpolation=cv2.INTER_AREA)
        mask = cv2.resize(mask, size, interpolation=cv2.INTER_NEAREST)
        side = float(WORK_SIDE)
    inner = cv2.erode(mask, disk(int(0.16 * side))) > 0
    if inner.sum() < 12:
        return None
    weighted = lab.astype(np.float32) * CHANNEL_WEIGHTS
    body = np.median(weighted[inner], axis=0)
    distance = np.clip(np.linalg.norm(weighted - body, axis=2), 0, 255).astype(np.uint8)
    response = cv2.morphologyEx(distance, cv2.MORPH_TOPHAT, disk(int(0.9 * side)))
    return DieCrop(lab, inner, body / CHANNEL_WEIGHTS, response, side)


def mark_mask(
    crop: DieCrop,
    floor: float = 20.0,
    smallest: float = 0.012,
    edge: float = 0.06,
    edge_share: float = 0.8,
) -> np.ndarray:
    """Pixels of the inner area that belong to marks (Otsu split of the response, at least
    ``floor`` so a blank face yields no marks).

    Dropped: specks under ``smallest`` of the die's area (noise, glare), and marks with more
    than ``edge_share`` of their pixels within ``edge`` die sides of the inner area's border:
    those are the lit edge of the top face or a sliver of a side face, thin lines that would
    otherwise turn a dot into a bar (a symbol reaching the border keeps its inner part).
    """
    values = np.clip(crop.response[crop.inner], 0, 255).astype(np.uint8)
    level, _ = cv2.threshold(values, 0, 255, cv2.THRESH_OTSU)
    marks = ((crop.response > max(float(level), floor)) & crop.inner).astype(np.uint8)
    n, labels, stats, _ = cv2.connectedComponentsWithStats(marks, connectivity=8)
    border = cv2.distanceTransform(crop.inner.astype(np.uint8), cv2.DIST_L2, 3) < edge * crop.side
    on_border = np.bincount(labels[border], minlength=n) / np.maximum(stats[:, cv2.CC_STAT_AREA], 1)
    keep = (stats[:, cv2.CC_STAT_AREA] >= smallest * crop.side**2) & (on_border <= edge_share)
    return np.isin(labels, np.flatnonzero(keep[1:]) + 1)
