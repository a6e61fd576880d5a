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

from dataclasses import dataclass

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
HELD_SAMPLE = (60, 90)  # (width, height) at which what covers a card's edge is followed in
HELD_LIGHT = 0.5  # of the card's paper (its brightest): a darker pixel's colour is noise, and
# what covers a card is no darker
HELD_RANGE = np.float32([40, 12, 12])  # Lab units (OpenCV's 8-bit scale) from the colour over
# a card's edge that are still that colour: its light may change (shading), its hue little
STRICTER = 2.0  # that range divided by this where it spreads over the card's art (a wooden
# table's photo under a thumb: both brown, the table lighter)
_NEIGHBOURS = np.ones((5, 5), np.uint8)  # round what covers a card's edge, where its outline is
# taken pixel by pixel
SEEN = 4  # the channel of a look that says whether a cell shows the card (1) or is covered (0)


def inside(card: np.ndarray) -> np.ndarray:
    """A straightened card without its edge (:data:`MARGIN` of each side): what the look, the
    outline and the cells compare, wherever its corners were found."""
    height, width = card.shape[:2]
    dy, dx = int(height * MARGIN), int(width * MARGIN)
    return card[dy:height - dy, dx:width - dx]


def look(card: np.ndarray, out_of_view: np.ndarray | None = None,
         cover: EdgeCover | None = None) -> np.ndarray:
    """The look of a straightened card (BGR uint8), a float32 array of ``GRID`` x 5
    (``out_of_view``: bool, where the card lies out of the frame, as covered; ``cover``: what
    lies over its edge, when already worked out)."""
    inner = inside(card)
    seen = ~_covered(card, out_of_view, cover)
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


def _covered(card: np.ndarray, out_of_view: np.ndarray | None, cover: EdgeCover | None
             ) -> np.ndarray:
    """The cells of a card (``GRID``, bool) covered by something that reaches in from its
    edge (:func:`held`) or out of the frame, and the cells beside them."""
    hsv = cv2.resize(cv2.cvtColor(inside(card), cv2.COLOR_BGR2HSV), GRID,
                     interpolation=cv2.INTER_AREA)
    covered = held(card, hsv, out_of_view, cover)
    return cv2.dilate(covered.astype(np.uint8), np.ones((3, 3), np.uint8)).astype(bool)


@dataclass(frozen=True)
class EdgeCover:
    """What lies over a straightened card's very edge (:func:`edge_cover`), worked out once a
    card: the look and the outline each follow it into the card at their own size."""

    over: np.ndarray | None  # float32, 1 where it covers the card's inside, at HELD_SAMPLE
    # (None: nothing lies over the edge)
    paper: float  # the light of the card's paper (its brightest), at HELD_SAMPLE


def edge_cover(card: np.ndarray) -> EdgeCover:
    """What lies over the edge of a straightened card (BGR uint8; :func:`_held_at_edge`)."""
    small = cv2.resize(card, HELD_SAMPLE, interpolation=cv2.INTER_AREA)
    over = _held_at_edge(small)
    return EdgeCover(over, float(np.percentile(small, 95)) if over is not None else 0.0)


def held(card: np.ndarray, hsv: np.ndarray, out_of_view: np.ndarray | None = None,
         cover: EdgeCover | None = None) -> np.ndarray:
    """Where a straightened card's inside (bool, at the size of ``hsv``, the inside in HSV) is
    covered by something over the card's own edge: a thumb holding it, a die lying on its
    corner. What lies over the edge (:func:`_held_at_edge`), its outline taken pixel by pixel
    where a coloured, lit patch reaches in from the inside's edge (:func:`reaching_in`; a dark
    pixel's saturation is noise) beside it; the card's own art reaching the inside's edge within
    the card's border covers nothing. What lies ``out_of_view`` (bool, the card's size: out of
    the frame) is covered too. ``cover``: what lies over the edge, when already worked out
    (:func:`edge_cover`)."""
    cover = edge_cover(card) if cover is None else cover
    size = hsv.shape[1::-1]
    over = np.zeros(size[::-1], bool) if cover.over is None \
        else cv2.resize(cover.over, size, interpolation=cv2.INTER_AREA) > 0.5
    out = np.zeros_like(over) if out_of_view is None else cv2.resize(
        inside(out_of_view.astype(np.float32)), size, interpolation=cv2.INTER_AREA) > 0
    if not over.any():
        return over | out
    lit = hsv[..., 2] >= HELD_LIGHT * cover.paper  # (of the card's brightest: its paper)
    reach = reaching_in(np.where(lit, hsv[..., 1], 0))
    return over | out | reach & cv2.dilate(over.astype(np.uint8), _NEIGHBOURS).astype(bool)


def _held_at_edge(small: np.ndarray) -> np.ndarray | None:
    """Where a card's inside (float32 0/1, at the size of ``small``, the card at
    :data:`HELD_SAMPLE`) is covered by what lies over the card's very edge where it is coloured
    and lit (its border is paper, or the table seen past a corner): the surface of that colour
    joined to it (a thumb is one colour; where it meets the card's art the colour changes,
    if only a little: :data:`STRICTER`). None when nothing coloured and lit lies over the
    edge, or when that spreads over more than :data:`MAX_COVERED` of the card (the art itself
    reaches the edge)."""
    hsv = cv2.cvtColor(small, cv2.COLOR_BGR2HSV)
    saturation, value = hsv[..., 1], hsv[..., 2].astype(np.float32)
    ring = np.ones(saturation.shape, bool)
    ring[1:-1, 1:-1] = False
    limit = max(COVER_SATURATION, float(np.median(saturation[ring])) + COVER_ABOVE_PAPER)
    lit = value >= HELD_LIGHT * np.percentile(value[ring], 90)  # (a dark pixel's hue and
    # saturation are noise: the table past a corner in a shadow)
    over = ring & (saturation > limit) & lit
    if not over.any():
        return None
    lab = cv2.cvtColor(small, cv2.COLOR_BGR2LAB).astype(np.float32)
    colour = np.median(lab[over], axis=0)
    for reach in (HELD_RANGE, HELD_RANGE / STRICTER):
        alike = cv2.inRange(lab, colour - reach, colour + reach)
        count, labels = cv2.connectedComponents(alike, connectivity=4)
        joined = np.zeros(count, bool)  # the surfaces of that colour over the edge
        joined[labels[over & (alike > 0)]] = True
        joined[0] = False
        covered = joined[labels]
        if covered.mean() <= MAX_COVERED:
            return inside(covered.astype(np.float32))
    return None


def reaching_in(saturation: np.ndarray) -> np.ndarray:
    """Where something coloured reaches in from the edge of a card (its saturation, any size;
    bool): more coloured than :data:`COVER_SATURATION` and than the paper by
    :data:`COVER_ABOVE_PAPER`, joined to the edge. The card's own coloured ink lies inside its
    white border; a card printed to its edge shows more colour than a thumb covers
    (:data:`MAX_COVERED`), and is then left whole."""
    limit = max(COVER_SATURATION, float(np.median(saturation)) + COVER_ABOVE_PAPER)
    count, labels, stats, _ = cv2.connectedComponentsWithStats(
        (saturation > limit).astype(np.uint8), connectivity=8)
    rows, cols = saturation.shape
    edge = [i for i in range(1, count)
            if stats[i, 0] == 0 or stats[i, 1] == 0 or stats[i, 0] + stats[i, 2] == cols
            or stats[i, 1] + stats[i, 3] == rows]
    covered = np.isin(labels, edge)
    return np.zeros_like(covered) if covered.mean() > MAX_COVERED else covered


@dataclass(frozen=True)
class Cells:
    """Looks laid flat to be compared at once: per look, the compared channels of its cells
    (all but :data:`SEEN`, one row), which cells it shows, and its ink where it shows them."""

    channels: np.ndarray  # (looks, cells x SEEN) float32
    seen: np.ndarray  # (looks, cells): 1 where the look shows the card
    seen_ink: np.ndarray  # (looks, cells)
    hidden: np.ndarray | None  # ``seen`` for each compared value; None: every cell shows

    @classmethod
    def of(cls, looks: np.ndarray) -> Cells:
        """The cells of ``looks`` (an array of looks of the same size)."""
        return cls.flat(looks[..., :SEEN], looks[..., SEEN],
                        np.clip(1.0 - looks[..., 0], 0.0, None))

    @classmethod
    def flat(cls, channels: np.ndarray, seen: np.ndarray, ink: np.ndarray) -> Cells:
        """The cells of looks given as their compared channels, seen cells and ink, each
        (looks, rows, columns[, SEEN])."""
        count, cells = len(seen), int(np.prod(seen.shape[1:]))
        seen = np.ascontiguousarray(seen.reshape(count, cells))
        hidden = None if seen.all() else np.repeat(seen, SEEN, axis=1)
        return cls(np.ascontiguousarray(channels.reshape(count, cells * SEEN)), seen,
                   seen * ink.reshape(count, cells), hidden)

    def __getitem__(self, rows: np.ndarray) -> Cells:
        """The cells of some of the looks."""
        return Cells(self.channels[rows], self.seen[rows], self.seen_ink[rows],
                     None if self.hidden is None else self.hidden[rows])


@dataclass(frozen=True)
class Looks:
    """Taught looks made ready to be compared, once when they are loaded rather than at every
    card read: their cells whole, and without their outer ring (compared shifted by a cell)."""

    looks: np.ndarray  # (looks, rows, columns, SEEN + 1)
    whole: Cells
    inner: Cells

    @classmethod
    def of(cls, looks: np.ndarray) -> Looks:
        """``looks`` (an array of looks of the same size) made ready."""
        return cls(looks, Cells.of(looks), Cells.of(looks[:, 1:-1, 1:-1]))

    def __len__(self) -> int:
        return len(self.looks)


def _apart(query: Cells, taught: Cells) -> np.ndarray:
    """How far each of ``taught``'s looks lies from each of ``query``'s (looks x queries), over
    the cells both show, relative to the ink both hold there: the mean difference of the
    compared channels summed over those cells, over the ink summed there."""
    diff = taught.channels[None] - query.channels[:, None]  # (queries, looks, values)
    np.abs(diff, out=diff)  # in place: a new array of this size costs ten times the work
    if taught.hidden is not None:
        diff *= taught.hidden
    weights = (np.full(diff.shape[-1], 1.0 / SEEN, np.float32) if query.hidden is None
               else query.hidden[:, :, None] * np.float32(1.0 / SEEN))
    apart = (diff @ weights).reshape(diff.shape[:2]).T
    ink = taught.seen @ query.seen_ink.T + taught.seen_ink @ query.seen.T
    both = taught.seen @ query.seen.T
    return apart / (ink + INK_FLOOR * np.maximum(both, 1.0))


def distances(query: np.ndarray, taught: Looks | np.ndarray) -> np.ndarray:
    """How far ``query`` (one look) is from each look of ``taught`` (N looks, best made ready
    once: :class:`Looks`): the card either way up, the nearest few compared again shifted by a
    cell, each over the cells both show and relative to the ink of the two cards there."""
    if not isinstance(taught, Looks):
        taught = Looks.of(taught)
    if not len(taught):
        return np.zeros(0, np.float32)
    turns = np.stack((query, query[::-1, ::-1]))
    channels, seen = turns[..., :SEEN], turns[..., SEEN]
    ink = np.clip(1.0 - turns[..., 0], 0.0, None)
    near = _apart(Cells.flat(channels, seen, ink), taught.whole).min(axis=1)
    shortlist = np.argsort(near)[:SHORTLIST]
    rows, cols = query.shape[:2]
    moved = [np.stack([part[:, 1 + dy:rows - 1 + dy, 1 + dx:cols - 1 + dx] for dy, dx in SHIFTS],
                      axis=1).reshape(-1, rows - 2, cols - 2, *part.shape[3:])
             for part in (channels, seen, ink)]  # each turn shifted each way
    shifted = _apart(Cells.flat(*moved), taught.inner[shortlist]).min(axis=1)
    near[shortlist] = np.minimum(near[shortlist], shifted)
    return near
