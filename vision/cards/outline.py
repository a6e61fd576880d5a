"""The third opinion on a plain card: the outlines of what is printed on it.

A card without corners of its own (SET's smooth shapes on white) is named by its look, a coarse
grid in which an oval, a diamond and a squiggle of the same colour, count and filling differ by
a few cells: an untaught card lies as near its taught twin as the card itself does in another
photo. The edges of its ink, taken at half the straightened card's size, tell those shapes apart:
two photos of one card draw nearly the same edges, lined up within a pixel or two; two shapes
draw edges that cross. The agreement of two outlines is the share of each one's edge pixels that
lie within :data:`REACH` of the other's, the lesser of the two shares, at the best small shift
and either way up.
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

from .looks import MARGIN

SIZE = (120, 180)  # (width, height) at which the outline is drawn: half a straightened card
WHITE_WINDOW = 25  # pixels over which the card's own white is taken (its paper round the ink)
INK_LIGHT = 0.75  # of the white nearby: a darker pixel is ink
INK_COLOUR = 50  # saturation (of 255) above the paper's: a more coloured pixel is ink
REACH = 1  # pixels: an edge pixel this near one of the other outline's agrees with it
SHIFT = 4  # pixels either way the two outlines are slid over each other (corners found a pixel
# or two off, at the card's size: a cell of the look)
_WHITE = np.ones((WHITE_WINDOW, WHITE_WINDOW), np.uint8)
_NEAR = np.ones((2 * REACH + 1, 2 * REACH + 1), np.uint8)
_THIN = np.ones((3, 3), np.uint8)


@dataclass(frozen=True)
class Outline:
    """The edges of a straightened card's ink (uint8 0/1, :data:`SIZE`), and the same edges
    widened by :data:`REACH`, kept to be compared."""

    edges: np.ndarray
    near: np.ndarray

    def turned(self) -> Outline:
        """The outline of the card turned a half turn."""
        return Outline(self.edges[::-1, ::-1].copy(), self.near[::-1, ::-1].copy())


def outline(card: np.ndarray) -> Outline:
    """The outline of the ink of a straightened card (BGR uint8): where ink meets paper."""
    height, width = card.shape[:2]
    dy, dx = int(height * MARGIN), int(width * MARGIN)
    small = cv2.resize(card[dy:height - dy, dx:width - dx], SIZE, interpolation=cv2.INTER_AREA)
    grey = cv2.cvtColor(small, cv2.COLOR_BGR2GRAY).astype(np.float32) + 1.0
    white = cv2.blur(cv2.morphologyEx(grey, cv2.MORPH_CLOSE, _WHITE), (3, 3))  # the ink
    # filled with the paper round it; a shadow's edge stays where it lies (a dilation alone
    # took the lit paper's white across it, and the shadowed side's paper for ink)
    light = grey / white
    saturation = cv2.cvtColor(small, cv2.COLOR_BGR2HSV)[..., 1].astype(np.float32)
    paper = light > 0.9
    above = float(np.median(saturation[paper])) if paper.any() else 0.0
    ink = ((light < INK_LIGHT) | (saturation > above + INK_COLOUR)).astype(np.uint8)
    edges = ink & ~cv2.erode(ink, _THIN)
    return Outline(edges, cv2.dilate(edges, _NEAR))


def agreement(seen: Outline, taught: Outline) -> float:
    """How well two outlines agree (0-1): the lesser share of either's edge pixels within
    :data:`REACH` of the other's, at the best shift of up to :data:`SHIFT` pixels, the seen
    card either way up. Two blank cards agree wholly; a blank card and a printed one not
    at all."""
    taught_count = int(taught.edges.sum())
    seen_count = int(seen.edges.sum())
    if not taught_count or not seen_count:
        return float(taught_count == seen_count)
    pad = (SHIFT, SHIFT, SHIFT, SHIFT, cv2.BORDER_CONSTANT, 0)
    taught_near = cv2.copyMakeBorder(taught.near, *pad)
    taught_edges = cv2.copyMakeBorder(taught.edges, *pad)
    best = 0.0
    for way in (seen, seen.turned()):
        of_seen = cv2.matchTemplate(taught_near, way.edges, cv2.TM_CCORR) / seen_count
        of_taught = cv2.matchTemplate(taught_edges, way.near, cv2.TM_CCORR) / taught_count
        best = max(best, float(np.minimum(of_seen, of_taught).max()))
    return best
