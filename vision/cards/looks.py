"""What a straightened card looks like to the matcher, and how far apart two looks are.

A look is a small grid of four numbers per cell: how much light the card reflects there (its
grey over the card's own white nearby, so that a shadow across the card or a dim room changes
little), its colour as chromaticity relative to the card's white (so that the light's colour
changes nothing), and how much fine detail it holds (hatching tells a striped shape from an
empty one). Two looks are compared cell by cell, the card either way up, forgiving a shift of
one cell (corners found a pixel or two off), relative to how much ink the two cards hold (two
cards with one thin shape each differ by little ink, but by all they have).
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


def look(card: np.ndarray) -> np.ndarray:
    """The look of a straightened card (BGR uint8), a float32 array of ``GRID`` x 4."""
    height, width = card.shape[:2]
    dy, dx = int(height * MARGIN), int(width * MARGIN)
    inner = card[dy:height - dy, dx:width - dx]
    grey = cv2.cvtColor(inner, cv2.COLOR_BGR2GRAY).astype(np.float32) + 1.0
    coarse = cv2.resize(grey, GRID, interpolation=cv2.INTER_AREA)
    kernel = np.ones((WHITE_KERNEL, WHITE_KERNEL), np.uint8)
    white = cv2.blur(cv2.morphologyEx(coarse, cv2.MORPH_CLOSE, kernel), (3, 3))
    reflect = np.minimum(grey / cv2.resize(white, grey.shape[::-1]), 1.2)
    detail = np.abs(cv2.Laplacian(reflect, cv2.CV_32F, ksize=3))
    colour = cv2.resize(inner, GRID, interpolation=cv2.INTER_AREA).astype(np.float32) + 1.0
    chroma = colour / colour.sum(axis=2, keepdims=True)
    small = cv2.resize(reflect, GRID, interpolation=cv2.INTER_AREA)
    bright = small >= 0.9
    paper = chroma[bright].mean(axis=0) if bright.any() else chroma.mean(axis=(0, 1))
    chroma = (chroma - paper) * CHROMA_WEIGHT
    stack = np.dstack([small, chroma[..., 0], chroma[..., 2],
                       DETAIL_WEIGHT * cv2.resize(detail, GRID, interpolation=cv2.INTER_AREA)])
    return cv2.GaussianBlur(stack, (3, 3), 0).astype(np.float32)


def _ink(looks: np.ndarray) -> np.ndarray:
    """How much ink each look holds (its mean darkness), over the last three axes."""
    return np.clip(1.0 - looks[..., 0], 0.0, None).mean(axis=(-2, -1))


def distances(query: np.ndarray, taught: np.ndarray) -> np.ndarray:
    """How far ``query`` (one look) is from each look of ``taught`` (N looks): the card either
    way up, the nearest few compared again shifted by a cell, each relative to the ink of
    the two cards."""
    if not len(taught):
        return np.zeros(0, np.float32)
    ink = _ink(query) + _ink(taught) + INK_FLOOR
    flat = taught.reshape(len(taught), -1)
    turns = (query, query[::-1, ::-1])
    near = np.minimum(*(np.abs(flat - q.reshape(1, -1)).mean(axis=1) for q in turns)) / ink
    shortlist = np.argsort(near)[:SHORTLIST]
    rows, cols = query.shape[:2]
    moved = np.stack([q[1 + dy:rows - 1 + dy, 1 + dx:cols - 1 + dx]
                      for q in turns for dy, dx in SHIFTS])
    inner = taught[shortlist, 1:-1, 1:-1]
    shifted = np.abs(inner[:, None] - moved[None]).mean(axis=(2, 3, 4)).min(axis=1)
    near[shortlist] = np.minimum(near[shortlist], shifted / ink[shortlist])
    return near
