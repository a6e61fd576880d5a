"""The third opinion on a plain card: what is printed on it, its outlines, its ink's colour and
how its shapes are filled.

A card without corners of its own (SET's smooth shapes on white) is named by its look, a coarse
grid in which an oval, a diamond and a squiggle of the same colour, count and filling differ by
a few cells: an untaught card lies as near its taught twin as the card itself does in another
photo. The edges of its ink, taken at half the straightened card's size, tell those shapes apart:
two photos of one card draw nearly the same edges, lined up within a pixel or two; two shapes
draw edges that cross. The agreement of two outlines is the share of each one's edge pixels that
lie within :data:`REACH` of the other's, the lesser of the two shares, at the best small shift
and either way up.

Two more things tell plain cards apart that the look weighs too lightly: the hue of the ink (on
SET's photos a card's hue over its paper moves by up to 10 degrees from photo to photo, the three
inks lie 50 degrees apart at the least) and how much of the ink's colour the insides of its
shapes hold (empty, hatched, solid: a hatching the camera cannot resolve still tints the inside).
A thumb holding the card (something coloured reaching in from its edge) is left out of all
three, and the taught outline is compared only where the seen card shows. A photo printed on a
card (little of its inside the colour of its paper) has no ink: only its outline is compared.
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

from .looks import COVER_ABOVE_PAPER, MARGIN, EdgeCover, held, inside

SIZE = (120, 180)  # (width, height) at which the outline is drawn: half a straightened card
WHITE_WINDOW = 25  # pixels over which the card's own white is taken (its paper round the ink)
INK_LIGHT = 0.75  # of the white nearby: a darker pixel is ink
DARKEST = 0.005  # of the card, the darkest share's light: a card whose ink is fainter (a
# small card's thin outline, blurred: 0.73-0.76 on SET's nine to a frame) draws its outline
# where it is darker than halfway from its paper to that
INK_COLOUR = 50  # saturation (of 255) above the paper's: a more coloured pixel is ink
REACH = 1  # pixels: an edge pixel this near one of the other outline's agrees with it
SHIFT = 4  # pixels either way the two outlines are slid over each other (corners found a pixel
# or two off, at the card's size: a cell of the look)
_WHITE = np.ones((WHITE_WINDOW, WHITE_WINDOW), np.uint8)
WIDE_WINDOW = 41  # pixels over which the paper round a wide solid shape is taken
INK_CHROMA = 12.0  # Lab units (a, b) from the paper's: a pixel this far apart is coloured ink
_WIDE_WHITE = cv2.getStructuringElement(cv2.MORPH_RECT, (WIDE_WINDOW, WIDE_WINDOW))
_NEAR = np.ones((2 * REACH + 1, 2 * REACH + 1), np.uint8)
_THIN = np.ones((3, 3), np.uint8)
HELD_EDGE = np.ones((5, 5), np.uint8)  # the blurred edge of a thumb, taken with it
LIT = 0.8  # of the card's brightest paper: paper nearby darker than this lies in a shadow
MIN_CHROMA = 5.0  # Lab units over the paper's: a greyer ink has no hue to compare (SET's
# cards half in shadow: inks of 5-6 units within 8 degrees of their own hue, of 4-5 within 13,
# under 3 anywhere)
HUE_APART = 40.0  # degrees: inks farther apart than this are other inks
GAPS = np.ones((5, 5), np.uint8)  # closes the gaps a blurred outline leaves, so its inside holds
RIM = np.ones((7, 7), np.uint8)  # the band inside a shape's edge left out of its inside
MIN_TINT = 0.02  # chromaticity over the paper's: a greyer ink's filling is not judged by colour
FILL_APART = 0.06  # fillings this far apart at the least, and
FILL_RATIO = 2.5  # this many times apart, are other fillings (on SET's photos: empty 0.09 at
# the most, hatched 0.13 at the least but for 1 % of hatched cards whose stripes the camera lost)
FILL_DOUBT = (0.07, 0.13)  # a filling in between may be empty or hatched: it tells nothing
CLOSED = 0.2  # of the shapes' hulls (their rim left out), the insides closed by their outline
# hold at least this much: less, and the paper came in through gaps in the outline
LIT_INSIDE = 0.25  # of the shapes' insides, lit at the least for a card partly in shadow to
# have its filling judged there
PAPER_TINT = 0.01  # chromaticity from the paper at the card's edge: a pixel this near is paper
ON_PAPER = 0.25  # of the card's inside (where it shows), its paper at the least: shapes printed
# on paper (SET's photos: 0.37 at the least, solid ovals; a photo printed inside a card's white
# border, as the art set's plainest: 0.15 at the most). A photo has no shapes to fill


@dataclass(frozen=True)
class Ink:
    """The colour of a card's ink over its paper (hue in degrees, chroma in Lab units), and how
    much of that colour the insides of its shapes hold (0 empty, about 0.25 hatched, over 1
    solid; None: no closed shape, or an ink too grey to tell)."""

    hue: float
    chroma: float
    fill: float | None
    lit_empty: bool = False  # of a card partly in shadow, its shapes empty where it is lit
    # too (a shadow fades a hatching; where the card is lit, a hatching would show)


NO_INK = Ink(0.0, 0.0, None)  # no ink seen, or a photo: no colour, no filling to compare


@dataclass(frozen=True)
class Outline:
    """The edges of a straightened card's ink (uint8 0/1, :data:`SIZE`) and the same edges
    widened by :data:`REACH`, kept to be compared; the ink's colour and filling; and, when a
    thumb holds the card, where the card shows (the thumb left out of all three)."""

    edges: np.ndarray
    near: np.ndarray
    ink: Ink
    visible: np.ndarray | None = None  # uint8 0/1: where the card is not covered, and far
    # enough from what covers it that a shift does not bring it in (None: nothing covers it)
    photo: bool = False  # a photo printed on the card, not shapes on paper (:data:`ON_PAPER`)

    def turned(self) -> Outline:
        """The outline of the card turned a half turn."""
        return Outline(self.edges[::-1, ::-1].copy(), self.near[::-1, ::-1].copy(), self.ink,
                       None if self.visible is None else self.visible[::-1, ::-1].copy(),
                       self.photo)


def outline(card: np.ndarray, out_of_view: np.ndarray | None = None,
            cover: EdgeCover | None = None) -> Outline:
    """The outline of the ink of a straightened card (BGR uint8): where ink meets paper
    (``out_of_view``: bool, where the card lies out of the frame, left out as a thumb is;
    ``cover``: what lies over its edge, when already worked out)."""
    small = cv2.resize(inside(card), SIZE, interpolation=cv2.INTER_AREA)
    grey = cv2.cvtColor(small, cv2.COLOR_BGR2GRAY).astype(np.float32) + 1.0
    white = cv2.blur(cv2.morphologyEx(grey, cv2.MORPH_CLOSE, _WHITE), (3, 3))  # the ink
    # filled with the paper round it; a shadow's edge stays where it lies (a dilation alone
    # took the lit paper's white across it, and the shadowed side's paper for ink)
    light = grey / white
    wide = cv2.blur(cv2.morphologyEx(grey, cv2.MORPH_CLOSE, _WIDE_WHITE), (3, 3))  # the paper
    # round a solid shape wider than the first window too (inside one, ``light`` is about 1)
    hsv = cv2.cvtColor(small, cv2.COLOR_BGR2HSV)
    saturation = hsv[..., 1].astype(np.float32)
    held = _held(card, hsv, out_of_view, cover)
    shown = None if held is None else held == 0
    paper = light > 0.9 if shown is None else (light > 0.9) & shown
    clear = paper & (grey > 0.9 * wide)  # (not inside a wide solid shape either)
    above = float(np.median(saturation[clear])) if clear.any() else 0.0  # (a thumb is more
    # coloured than the paper: with it, a coloured ink's inside read as paper)
    ink = (light < INK_LIGHT) | (saturation > above + INK_COLOUR)
    printed = _paper_share(card, small, shown) >= ON_PAPER  # else a photo: its dark and
    # coloured parts are no ink, and have neither one colour nor a filling
    if printed:  # (a photo's darker coloured parts are no shapes, nor its paler ones)
        ink |= _faded(small, (grey < INK_LIGHT * wide) & ~ink, clear)
    drawn = ink | (light < _faint(light)) if printed else ink  # a faint outline whole (its
    # colour and filling from the ink alone: a hatching's pale stripes are no shape's rim)
    drawn, ink = drawn.astype(np.uint8), ink.astype(np.uint8)
    edges = drawn & ~cv2.erode(drawn, _THIN)
    lit = white >= LIT * np.percentile(white, 95)  # a shadow dims an ink's colour too
    if shown is not None:
        ink &= 1 - held
        edges &= 1 - cv2.dilate(held, _THIN)  # the thumb's own edge is no shape's
    colour = _ink(small, ink, drawn, paper, lit, shown) if printed else NO_INK
    visible = None if held is None else 1 - cv2.dilate(held, np.ones((2 * SHIFT + 1,) * 2,
                                                                     np.uint8))
    return Outline(edges, cv2.dilate(edges, _NEAR), colour, visible, not printed)


def _faint(light: np.ndarray) -> float:
    """The light (over the paper nearby) under which a pixel draws a shape's outline:
    :data:`INK_LIGHT`, or halfway from the paper to the card's darkest ink when that is fainter
    (a thin outline blurred by a camera far away)."""
    at = int(DARKEST * light.size)
    return max(INK_LIGHT, (1.0 + float(np.partition(light.ravel(), at)[at])) / 2)


def _faded(small: np.ndarray, dark: np.ndarray, paper: np.ndarray) -> np.ndarray:
    """Which ``dark`` pixels (bool: darker than the paper round them over :data:`WIDE_WINDOW`)
    of a shrunk printed card lie :data:`INK_CHROMA` or more from the colour of its ``paper``
    (bool): a wide solid shape whose colour the camera faded (a shadow is the paper's
    colour)."""
    coloured = np.zeros_like(dark)
    if dark.any() and paper.any():
        paper_colour = np.median(_lab(_pixels(small, paper)[::4])[:, 1:], axis=0)
        coloured[dark] = np.linalg.norm(_lab(_pixels(cv2.blur(small, (5, 5)), dark))[:, 1:]
                                        - paper_colour, axis=1) > INK_CHROMA
    return coloured


def _paper_share(card: np.ndarray, small: np.ndarray, shown: np.ndarray | None) -> float:
    """The share of the shrunk inside of ``card`` (``small``, where ``shown``, None: all of
    it; taken at half its size) whose colour is the paper's at the card's edge (the band
    :data:`.looks.MARGIN` wide left out of the inside), by chromaticity (the same in a
    shadow)."""
    height, width = card.shape[:2]
    dy, dx = max(int(height * MARGIN), 1), max(int(width * MARGIN), 1)
    band = np.concatenate([card[:dy, ::16].reshape(-1, 3), card[-dy:, ::16].reshape(-1, 3),
                           card[::16, :dx].reshape(-1, 3), card[::16, -dx:].reshape(-1, 3)])
    saturation = cv2.cvtColor(band.reshape(-1, 1, 3), cv2.COLOR_BGR2HSV)[:, 0, 1].astype(float)
    band = band[saturation <= np.median(saturation) + COVER_ABOVE_PAPER]  # (a thumb over a
    # corner lies on a quarter of the band: with it, the paper's colour moved toward skin)
    paper = np.median(_tint(band), axis=0)
    half = cv2.resize(small, (SIZE[0] // 2, SIZE[1] // 2), interpolation=cv2.INTER_AREA)
    off = _tint(half.reshape(-1, 3) if shown is None else _pixels(half, shown[::2, ::2])) - paper
    near = (off * off).sum(axis=1) < PAPER_TINT ** 2
    return float(near.mean()) if len(near) else 0.0


def _held(card: np.ndarray, hsv: np.ndarray, out_of_view: np.ndarray | None,
          cover: EdgeCover | None) -> np.ndarray | None:
    """Where something coloured reaching in from the card's edge covers it (uint8 0/1, a
    thumb holding it; None: nothing does), as the look finds it (:func:`.looks.held`, on the
    shrunk inside in ``hsv``) but pixel by pixel, and a little wider (its blurred edge); and
    what lies out of the frame."""
    covered = held(card, hsv, out_of_view, cover)
    if not covered.any():
        return None
    return cv2.dilate(covered.astype(np.uint8), HELD_EDGE)


def _ink(small: np.ndarray, ink: np.ndarray, drawn: np.ndarray, paper: np.ndarray,
         lit: np.ndarray, shown: np.ndarray | None = None) -> Ink:
    """The colour and filling of the ink (``ink``: uint8 0/1) of a shrunk card, against its
    paper (``paper``: bool, as light as the paper nearby); its colour where the card is
    ``lit`` (bool) if it is lit anywhere; only where it is ``shown`` (bool; None: everywhere):
    a thumb across a shape is a wall the paper does not pass, and is no shape's inside. Where
    the ink alone closes no inside, the shapes' outline drawn whole (``drawn``: uint8 0/1,
    the ink and the faint outline beside it) closes it: a pale ink blurred, whose rim is ink
    only in places."""
    shows = np.ones_like(ink) if shown is None else shown.astype(np.uint8)
    outside, inside = _insides(ink, shows)
    if not inside.any():
        inside = _insides(drawn, shows)[1]
    printed = ink.astype(bool)
    around = _pixels(small[::2, ::2], (paper & outside)[::2, ::2])  # every other pixel of the paper
    # round the shapes: their median is the paper's, at a quarter of the cost
    if not printed.any() or not len(around):
        return NO_INK
    seen_lit = printed & lit
    paper_lit = _pixels(small[::2, ::2], (paper & outside & lit)[::2, ::2])
    if seen_lit.any() and len(paper_lit):
        _, a, b = _lab(_pixels(small, seen_lit)).mean(axis=0) - np.median(_lab(paper_lit), axis=0)
    else:
        _, a, b = _lab(_pixels(small, printed)).mean(axis=0) - np.median(_lab(around), axis=0)
    paper_tint = np.median(_tint(around), axis=0)
    fill = _fill(small, printed, inside, paper_tint)
    lit_empty = False
    if fill is not None and fill < FILL_DOUBT[0] and not lit[inside].all() \
            and (inside & lit).sum() >= LIT_INSIDE * inside.sum():  # partly in shadow, which
        # fades a hatching: empty where the card is lit too?
        lit_fill = _fill(small, printed & lit, inside & lit, paper_tint)
        lit_empty = lit_fill is not None and lit_fill < FILL_DOUBT[0]
    return Ink(float(np.degrees(np.arctan2(b, a))), float(np.hypot(a, b)), fill, lit_empty)


def _insides(shapes: np.ndarray, shows: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """What of a shrunk card lies outside the ``shapes`` (uint8 0/1: the paper reached from
    the card's edge), and their insides (both bool; their rim left out), where the card
    ``shows`` (uint8 0/1): closed by the shapes' outline, or each shape's hull where the
    outline is too broken to close much (a shadow faded its rim)."""
    closed = cv2.morphologyEx(shapes, cv2.MORPH_CLOSE, GAPS)
    reach = np.pad((1 - closed) & shows, 1, constant_values=1)
    cv2.floodFill(reach, None, (0, 0), 2)  # the paper reached from the card's edge
    outside = reach[1:-1, 1:-1] == 2
    inside = cv2.erode((~outside).astype(np.uint8) & shows, RIM).astype(bool)
    hulls = np.zeros_like(shapes)
    for contour in cv2.findContours(closed, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)[0]:
        cv2.fillConvexPoly(hulls, cv2.convexHull(contour), 1)
    within = cv2.erode(hulls & shows, RIM).astype(bool)
    return outside, within if inside.sum() < CLOSED * within.sum() else inside


def _fill(small: np.ndarray, printed: np.ndarray, inside: np.ndarray,
          paper_tint: np.ndarray) -> float | None:
    """How much of its ink's colour (``printed``, bool, its rim outside ``inside``) the shapes'
    ``inside`` (bool) of a shrunk card holds, over the paper's (``paper_tint``); None: no inside,
    or an ink too grey to tell."""
    rim = _pixels(small, printed & ~inside)
    strength = float(np.linalg.norm(_tint(rim).mean(axis=0) - paper_tint)) if len(rim) else 0.0
    if not inside.any() or strength < MIN_TINT:
        return None
    filling = np.median(_tint(_pixels(small, inside)), axis=0)
    return float(np.linalg.norm(filling - paper_tint)) / strength


def _pixels(image: np.ndarray, where: np.ndarray) -> np.ndarray:
    """The pixels (N x 3) of a BGR ``image`` where ``where`` (bool, its size) holds, in order:
    ``image[where]``, without numpy's slow boolean indexing of three channels."""
    return np.compress(where.ravel(), image.reshape(-1, 3), axis=0)


def _lab(pixels: np.ndarray) -> np.ndarray:
    """BGR pixels (N x 3, uint8) in CIE Lab (float32, OpenCV's 8-bit scale)."""
    return cv2.cvtColor(pixels.reshape(-1, 1, 3), cv2.COLOR_BGR2LAB).reshape(-1, 3).astype(
        np.float32)


def _tint(pixels: np.ndarray) -> np.ndarray:
    """The chromaticity of BGR pixels (N x 3, uint8): each channel's share, the same in a
    shadow."""
    colour = pixels.astype(np.float32) + 1.0
    return colour / colour.sum(axis=1, keepdims=True)


def same_colour(seen: Ink, taught: Ink) -> bool:
    """Whether two inks may be one (two inks too grey to have a hue may be)."""
    if min(seen.chroma, taught.chroma) < MIN_CHROMA:
        return True
    return abs((seen.hue - taught.hue + 180.0) % 360.0 - 180.0) <= HUE_APART


def same_filling(seen: Ink, taught: Ink) -> bool | None:
    """Whether two cards' shapes are filled alike (None: one of them cannot tell); two empty
    ones are, however little each holds of its ink's colour."""
    if any(f is None or FILL_DOUBT[0] <= f <= FILL_DOUBT[1] for f in (seen.fill, taught.fill)):
        return None
    low, high = sorted((seen.fill, taught.fill))
    return high < FILL_DOUBT[0] or not (high - low >= FILL_APART
                                        and high >= FILL_RATIO * max(low, 0.01))


def agreement(seen: Outline, taught: Outline) -> float:
    """How well two outlines agree (0-1): the lesser share of either's edge pixels within
    :data:`REACH` of the other's, at the best shift of up to :data:`SHIFT` pixels, the seen
    card either way up. Two blank cards agree wholly; a blank card and a printed one not
    at all."""
    seen_count = int(seen.edges.sum())
    pad = (SHIFT, SHIFT, SHIFT, SHIFT, cv2.BORDER_CONSTANT, 0)
    taught_near = cv2.copyMakeBorder(taught.near, *pad)
    whole = cv2.copyMakeBorder(taught.edges, *pad) if seen.visible is None else None
    best = 0.0
    for way in (seen, seen.turned()):
        shown = taught.edges if way.visible is None else taught.edges & way.visible  # what
        # covers the seen card hides the taught card's edges there too
        taught_count = int(shown.sum())
        if not taught_count or not seen_count:
            best = max(best, float(taught_count == seen_count))
            continue
        padded = whole if whole is not None else cv2.copyMakeBorder(shown, *pad)
        of_seen = cv2.matchTemplate(taught_near, way.edges, cv2.TM_CCORR) / seen_count
        of_taught = cv2.matchTemplate(padded, way.near, cv2.TM_CCORR) / taught_count
        best = max(best, float(np.minimum(of_seen, of_taught).max()))
    return best
