"""What a straightened card looks like to the matcher, and how far apart two looks are.

A look is a small grid of five numbers per cell: how much light the card reflects there (its
grey over the card's own white nearby, so that a shadow across the card or a dim room changes
little), its colour as chromaticity relative to the card's white (so that the light's colour
changes nothing), how much fine detail it holds (hatching tells a striped shape from an
empty one), and whether the cell is the card's own or covered (a thumb on a corner: a coloured
patch joined to the card's edge). Two looks are compared cell by cell over the cells that
both show, the card either way up, forgiving a shift of one cell (corners found a pixel or two
off), relative to how much ink the two cards hold there (two cards with one thin shape each
differ by little ink, but by all they have).
"""

from __future__ import annotations

import cv2
import numpy as np

GRID = (30, 45)  # (columns, rows) of a look
MARGIN = 0.06  # of each side, left out: the card's edge depends on where its corners were found
WHITE_KERNEL = 13  # cells of a card shrunk to GRID over which its own white is taken
CHROMA_WEIGHT = 3.0  # a colour difference against a difference of reflected light
DETAIL_WEIGHT = 0.25  # fine detail against reflected light
SHIFTS = [(dy, dx) for dy in (-1, 0, 1) for dx in (-1, 0, 1)]
SHORTLIST = 4  # the nearest looks compared again, shifted
INK_FLOOR = 0.02  # a blank card's ink, so that two blank cards are not infinitely apart
COVER_SATURATION = 60  # of 255: a cell more coloured than this (and than the card's paper by
COVER_ABOVE_PAPER = 40  # this much), joined to the card's edge, is a thumb or another object
MAX_COVERED = 0.4  # of the card: more coloured surface joined to the edge is the card's own art
SEEN = 4  # the channel of a look that says whether a cell shows the card (1) or is covered (0)
_MEAN = np.array([0.25] * SEEN + [0.0], np.float32)  # of the channels but SEEN


def look(card: np.ndarray) -> np.ndarray:
    """The look of a straightened card (BGR uint8), a float32 array of ``GRID`` x 5."""
    height, width = card.shape[:2]
    dy, dx = int(height * MARGIN), int(width * MARGIN)
    inner = card[dy:height - dy, dx:width - dx]
    seen = ~_covered(inner)
    grey = cv2.cvtColor(inner, cv2.COLOR_BGR2GRAY).astype(np.float32) + 1.0
    coarse = cv2.resize(grey, GRID, interpolation=cv2.INTER_AREA)
    kernel = np.ones((WHITE_KERNEL, WHITE_KERNEL), np.uint8)
    white = cv2.blur(cv2.morphologyEx(coarse, cv2.MORPH_CLOSE, kernel), (3, 3))
    reflect = np.minimum(grey / cv2.resize(white, grey.shape[::-1]), 1.0)  # no brighter than
    # paper: past a shadow's edge the white taken nearby is too dark, not the card brighter
    detail = np.abs(cv2.Laplacian(reflect, cv2.CV_32F, ksize=3))
    colour = cv2.resize(inner, GRID, interpolation=cv2.INTER_AREA).astype(np.float32) + 1.0
    chroma = colour / colour.sum(axis=2, keepdims=True)
    small = cv2.resize(reflect, GRID, interpolation=cv2.INTER_AREA)
    bright = (small >= 0.9) & seen  # the paper's colour, not the thumb's
    paper = chroma[bright].mean(axis=0) if bright.any() else chroma.mean(axis=(0, 1))
    chroma = (chroma - paper) * CHROMA_WEIGHT
    stack = np.dstack([small, chroma[..., 0], chroma[..., 2],
                       DETAIL_WEIGHT * cv2.resize(detail, GRID, interpolation=cv2.INTER_AREA)])
    stack = cv2.GaussianBlur(stack, (3, 3), 0)
    return np.dstack([stack, seen.astype(np.float32)]).astype(np.float32)


def _covered(inner: np.ndarray) -> np.ndarray:
    """The cells of a card (``GRID``, bool) covered by something coloured that reaches in from
    its edge: a thumb holding it, a die lying on its corner. The card's own coloured ink lies
    inside its white border; a card printed to its edge shows more colour than a thumb
    covers, and is then left whole."""
    saturation = cv2.resize(cv2.cvtColor(inner, cv2.COLOR_BGR2HSV)[..., 1], GRID,
                            interpolation=cv2.INTER_AREA)
    limit = max(COVER_SATURATION, float(np.median(saturation)) + COVER_ABOVE_PAPER)
    count, labels, stats, _ = cv2.connectedComponentsWithStats(
        (saturation > limit).astype(np.uint8), connectivity=8)
    rows, cols = saturation.shape
    edge = [i for i in range(1, count)
            if stats[i, 0] == 0 or stats[i, 1] == 0 or stats[i, 0] + stats[i, 2] == cols
            or stats[i, 1] + stats[i, 3] == rows]
    covered = np.isin(labels, edge)
    if covered.mean() > MAX_COVERED:
        return np.zeros_like(covered)
    return cv2.dilate(covered.astype(np.uint8), np.ones((3, 3), np.uint8)).astype(bool)


def _apart(query: np.ndarray, taught: np.ndarray) -> np.ndarray:
    """How far each look of ``query`` lies from each of ``taught`` (arrays of looks of the same
    size, broadcast against each other), over the cells both show, relative to the ink both
    hold there."""
    both = query[..., SEEN] * taught[..., SEEN]
    apart = np.abs(taught - query) @ _MEAN  # the mean of the first four channels as a
    # product: numpy's reductions over a short last axis are slow
    ink = np.clip(1.0 - query[..., 0], 0.0, None) + np.clip(1.0 - taught[..., 0], 0.0, None)
    cells = (-2, -1)
    return (apart * both).sum(axis=cells) / ((ink * both).sum(axis=cells)
                                             + INK_FLOOR * np.maximum(both.sum(axis=cells), 1.0))


def distances(query: np.ndarray, taught: np.ndarray) -> np.ndarray:
    """How far ``query`` (one look) is from each look of ``taught`` (N looks): the card either
    way up, the nearest few compared again shifted by a cell, each over the cells both show
    and relative to the ink of the two cards there."""
    if not len(taught):
        return np.zeros(0, np.float32)
    turns = (query, query[::-1, ::-1])
    near = np.minimum(*(_apart(q, taught) for q in turns))
    shortlist = np.argsort(near)[:SHORTLIST]
    rows, cols = query.shape[:2]
    moved = np.stack([q[1 + dy:rows - 1 + dy, 1 + dx:cols - 1 + dx]
                      for q in turns for dy, dx in SHIFTS])
    shifted = _apart(moved[None], taught[shortlist, None, 1:-1, 1:-1]).min(axis=1)
    near[shortlist] = np.minimum(near[shortlist], shifted)
    return near
