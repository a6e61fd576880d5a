"""Finding cards in a frame and straightening each one (a card seen from any angle becomes the
same upright rectangle of pixels, the only view the matcher compares).

A card is a bright, nearly rectangular shape with a card's proportions: the frame is reduced to
:data:`WORK_SIDE` pixels, split into bright and dark (Otsu's threshold, and the edges between
touching cards), and each outline whose convex hull has four corners with a card's proportions
(a card seen at a slant fills no rectangle), or fills its tightest rotated rectangle well
enough, is a card; the pale parts alone are searched too, so that a thumb
as bright as the card, joined to its outline, is cut off it. A glare cuts into the outline, not
into its hull, so the card is still found where it lies; a thumb over a corner cuts the corner
off the hull too, which then has five corners: the card's lost corner is where the two sides
beside the cut meet, each drawn on along the outline (the tightest rectangle round what shows
is skewed by the cut, up to a tenth of the card's width). Where no card lies whole at the card
spot, a card with one corner out of the frame is found the same way (the frame's edge cuts
that corner off as a thumb would; what is out of view is then left out of the comparison, as
a thumb is); a card with a side along the frame's edge is left out: how much of it is out of
view cannot be told.

A card half in shadow falls on both sides of Otsu's threshold (its dark art in the shadow is as
dark as the table), so the frame is split again nearer the table's grey, where the shadowed
white border still lies above it: there the outline is parted by colour edges only (a shadow
changes the light, not the colour), and it is kept when it has four clean corners (a pale patch
of table joined to a card does not) and Otsu's split did not already give the card whole.
An outline holding two card outlines that barely overlap, their paper as light, is cards lying
side by side, not one card (a shadow's edge across a card's middle cuts it in a lit part and a
part half as light).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

import cv2
import numpy as np

WORK_SIDE = 640  # the long side a frame is searched at, in pixels
MIN_AREA = 0.008  # of the frame: a smaller outline is not a card
MAX_AREA = 0.6
ASPECTS = (1.15, 1.95)  # long side over short side of the cards looked for (playing: 1.4)
MIN_FILL = 0.82  # the outline's area over its rectangle's: lower is a blob, not a card
SLANT_FILL = 0.75  # the same, for four clean corners of a solid outline: a card tilted 30°
# from the camera fills its tightest rectangle down to 0.79 (art set); the hollow outlines a
# shadow leaves of a card's border (0.12-0.72 solid) do not count
MAX_OUT = 0.2  # of a card, at most out of the frame for it to be read (as a thumb's cover)
PAPER_SATURATION = 60  # of 255: paler is card stock; a thumb or a coloured table is more
SHADOWED = 0.42  # of the way from the table's grey to Otsu's threshold: a card in shadow is
# brighter than this (its white border at 45 % light still is), the table's grain is not
SIDE_BY_SIDE = 0.2  # two outlines sharing less than this of the smaller one are two cards
SIDE_BY_SIDE_AREA = 0.15  # of the outline holding them, each: smaller are shapes on a card
LIT_ALIKE = 0.7  # of the lighter one's paper: two cards side by side are at least this light
# (a card half in a shadow of 45 % light: 0.45-0.55 between its parts)
SOLID = 0.9  # of its hull, an outline found whole covers at least this much
SAME_CARD = 0.75  # two outlines overlapping this much (shared over joined area) are one card
CUT_CORNER = 5  # corners of a card's outline with one corner cut off (a thumb over it)
ON_SIDE = 3  # pixels: an outline's point this near a side is drawn along it
DRAWN = 0.4  # of its length, a card's side beside a cut corner is drawn along at the least
# (SET's and the art set's cards held by a thumb: 0.44 at the least; the hull's sides across
# the gap between a card and a thumb joined to it: 0.06-0.29)
RING = 0.5  # of its hull, a card's border alone (its art as dark as the table) covers at most
RING_DRAWN = 0.85  # of each side's length, such a border runs along at the least (art set: 0.89;
# anything else found in a shadow or under a thumb 0.67 at the most)
ROUNDING = 6  # pixels: a card's rounded corner puts its outline's hull this far off its sides
Point = Sequence[float]  # a point or a vector of the plane: (x, y)
CARD_SIZE = (240, 360)  # (width, height) of a straightened card, in pixels


@dataclass(frozen=True)
class CardSpot:
    """A card found in a frame: its four ``corners`` in frame pixels (clockwise, the first at
    the top left of the upright card) and its bounding ``box`` (x0, y0, x1, y1)."""

    corners: np.ndarray
    box: tuple[int, int, int, int]


def find_cards(frame: np.ndarray, one_corner_out: bool = False) -> list[CardSpot]:
    """Every card-shaped outline in ``frame`` (BGR uint8), none inside another, the one nearest
    the frame's centre first (the card spot: where a card is shown to the camera);
    ``one_corner_out``: also, when no card lies whole at the frame's centre, a card with one
    corner out of the frame (read as one held by a thumb: :func:`out_of_frame`; never taught
    from)."""
    scale = WORK_SIDE / max(frame.shape[:2])
    small = cv2.resize(frame, None, fx=scale, fy=scale, interpolation=cv2.INTER_AREA) \
        if scale < 1 else frame
    scale = min(scale, 1.0)
    gray = cv2.GaussianBlur(cv2.cvtColor(small, cv2.COLOR_BGR2GRAY), (5, 5), 0)
    otsu, bright = cv2.threshold(gray, 0, 255, cv2.THRESH_BINARY + cv2.THRESH_OTSU)
    table = _median_below(gray, otsu)  # Otsu's darker class: the table
    _, above_table = cv2.threshold(gray, table + SHADOWED * (otsu - table), 255,
                                   cv2.THRESH_BINARY)
    saturation = cv2.cvtColor(small, cv2.COLOR_BGR2HSV)[..., 1]
    _, paper = cv2.threshold(saturation, PAPER_SATURATION - 1, 255, cv2.THRESH_BINARY_INV)
    edges = cv2.dilate(cv2.Canny(gray, 40, 120), np.ones((3, 3), np.uint8))
    colour_edges = cv2.dilate(cv2.Canny(cv2.GaussianBlur(saturation, (5, 5), 0), 40, 120),
                              np.ones((3, 3), np.uint8))
    masks = {True: ((bright, edges), (cv2.bitwise_and(bright, paper), edges)),  # Otsu's split
             False: ((above_table, colour_edges),
                     (cv2.bitwise_and(above_table, paper), colour_edges))}
    outlines: dict[bool, list[np.ndarray]] = {True: [], False: []}
    at_edge: dict[bool, list[np.ndarray]] = {True: [], False: []}  # the frame's edge cuts them
    judged: dict[tuple[bytes, bool], np.ndarray | None] = {}  # (an outline two masks share
    # is judged once)
    for bright_only, pairs in masks.items():
        for mask, parting in pairs:
            mask = cv2.subtract(mask, parting)  # touching cards part along their edges
            mask = cv2.morphologyEx(mask, cv2.MORPH_OPEN, np.ones((3, 3), np.uint8))
            whole, cut = _card_outlines(mask, bright_only, judged)
            outlines[bright_only] += whole
            at_edge[bright_only] += cut
    spots = outlines[True] + [spot for spot in outlines[False]  # a card in half shadow:
                              if not any(_overlap(spot, lit) > SAME_CARD  # Otsu's outline
                                         for lit in outlines[True])]  # is kept where it is whole
    spots.sort(key=lambda c: -cv2.contourArea(c.astype(np.float32)))
    found: list[CardSpot] = []
    for index, corners in enumerate(spots):
        if _side_by_side(corners, spots[index + 1:], gray):
            continue
        corners = corners / scale
        if not any(_inside(corners, kept.corners) for kept in found):
            found.append(_spot(corners, frame.shape))
    centre = np.array(frame.shape[1::-1], np.float32) / 2
    if one_corner_out and not any(_holds(kept.corners, centre) for kept in found):
        lit = _corner_out(at_edge[True], gray.shape)  # none at the card spot whole: as above,
        shaded = [c for c in _corner_out(at_edge[False], gray.shape)  # Otsu's outline kept
                  if not any(_overlap(c, one) > SAME_CARD for one in lit)]  # where it is whole
        for corners in sorted(lit + shaded, key=lambda c: -cv2.contourArea(c)):
            corners = corners / scale
            if not any(_inside(corners, kept.corners) or _inside(kept.corners, corners)
                       for kept in found):
                found.append(_spot(corners, frame.shape))
    return sorted(found, key=lambda spot: float(np.linalg.norm(spot.corners.mean(axis=0)
                                                               - centre)))


def _spot(corners: np.ndarray, shape: tuple[int, ...]) -> CardSpot:
    """The card at ``corners`` (frame pixels) in a frame of ``shape``, its box within it."""
    x0, y0 = np.floor(corners.min(axis=0)).astype(int)
    x1, y1 = np.ceil(corners.max(axis=0)).astype(int)
    height, width = shape[:2]
    return CardSpot(corners.astype(np.float32), (max(int(x0), 0), max(int(y0), 0),
                                                 min(int(x1), width), min(int(y1), height)))


def _median_below(gray: np.ndarray, limit: float) -> float:
    """The median of the greys of ``gray`` at or below ``limit``."""
    counts = np.cumsum(cv2.calcHist([gray], [0], None, [256], [0, 256]).ravel()[:int(limit) + 1])
    return float(np.searchsorted(counts, counts[-1] / 2)) if len(counts) and counts[-1] else 0.0


def _card_outlines(mask: np.ndarray, cut: bool,
                   judged: dict[tuple[bytes, bool], np.ndarray | None]
                   ) -> tuple[list[np.ndarray], list[np.ndarray]]:
    """The corners of each card-shaped outline of ``mask`` wholly in view (``cut``: also
    outlines with a corner cut off, where their sides meet), and the outlines the frame's
    edge cuts; ``judged``: the corners of the outlines already judged (None: no card), filled
    in."""
    contours = cv2.findContours(mask, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_NONE)[0]  # every
    # point: a side is drawn along them (:func:`_fitted`)
    area = mask.shape[0] * mask.shape[1]
    whole, at_edge = [], []
    for contour in contours:
        rect = cv2.boundingRect(contour)
        if rect[2] * rect[3] < MIN_AREA * area:  # (its hull is smaller still: no card)
            continue
        if _cut_by_edge(rect, mask.shape):
            at_edge.append(contour)
        else:
            key = (contour.tobytes(), cut)
            if key not in judged:
                judged[key] = _card_outline(contour, area, cut)
            if judged[key] is not None:
                whole.append(judged[key])
    return whole, at_edge


def _overlap(one: np.ndarray, other: np.ndarray) -> float:
    """How much two convex outlines overlap: their shared area over their joined area."""
    shared = cv2.intersectConvexConvex(one, other)[0]
    return shared / max(cv2.contourArea(one) + cv2.contourArea(other) - shared, 1e-6)


def _cut_by_edge(rect: tuple[int, int, int, int], shape: tuple[int, ...]) -> bool:
    """Whether the outline bounded by ``rect`` (x, y, width, height) runs along the frame's
    edge: a card partly out of view, which cannot be read whole."""
    x, y, width, height = rect
    return x <= 1 or y <= 1 or x + width >= shape[1] - 1 or y + height >= shape[0] - 1


def _card_outline(contour: np.ndarray, frame_area: int, cut: bool = True
                  ) -> np.ndarray | None:
    """The four corners of ``contour`` when it is card-shaped, else None (``cut``: also when
    a corner is cut off, a thumb on it, its rectangle's corners)."""
    hull = cv2.convexHull(contour)
    hull_area = cv2.contourArea(hull)
    if not MIN_AREA * frame_area <= hull_area <= MAX_AREA * frame_area:
        return None
    poly = cv2.approxPolyDP(hull, 0.04 * cv2.arcLength(hull, True), True).reshape(-1, 2)
    if not cut and (len(poly) != 4 or cv2.contourArea(contour) < SOLID * hull_area
                    and not _border_ring(contour, poly, hull_area)):
        return None  # a pale patch of table joined to the card, not a card whole
    mended = _mended(poly.astype(np.float64), contour.reshape(-1, 2)) \
        if len(poly) == CUT_CORNER else None
    if mended is not None and _card_shaped(mended, hull_area):
        return _upright_order(mended.astype(np.float32))  # a corner cut by a thumb: where
        # the two sides beside the cut meet
    rect = cv2.boxPoints(cv2.minAreaRect(hull))
    if len(poly) == 4:  # the card's own corners: seen at a slant, it fills no rectangle
        corners = poly.astype(np.float32)
        fill = hull_area / max(cv2.contourArea(rect), 1e-6)
        shaped = _card_shaped(corners, hull_area) and (fill >= MIN_FILL or fill >= SLANT_FILL
                                                       and cv2.contourArea(contour)
                                                       >= SOLID * hull_area)
    else:  # cut otherwise: the rectangle, when the outline runs along its sides
        corners = rect.astype(np.float32)
        shaped = _card_shaped(corners, hull_area) \
            and _least_drawn(contour.reshape(-1, 2), corners) >= DRAWN
    return _upright_order(corners) if shaped else None


def _corner_out(contours: list[np.ndarray], shape: tuple[int, ...]) -> list[np.ndarray]:
    """The corners of the cards with one corner out of the frame (:func:`_one_corner_out`)
    among the outlines the frame's edge cuts (``contours``, in a frame of ``shape``)."""
    return [c for c in (_one_corner_out(c, shape) for c in contours) if c is not None]


def _one_corner_out(contour: np.ndarray, shape: tuple[int, ...]) -> np.ndarray | None:
    """The four corners of a card-shaped outline the frame's edge cuts (:func:`_card_outline`:
    one corner cut off, as a thumb would, or little enough that the outline keeps four) when
    one corner alone lies at or past the edge, that corner where the two sides beside it,
    drawn on along the outline, meet; else None (a side along the edge: how much of the card
    is out of view cannot be told)."""
    corners = _card_outline(contour, shape[0] * shape[1])
    if corners is None:
        return None
    height, width = shape[:2]
    at_edge = (corners[:, 0] <= 1) | (corners[:, 0] >= width - 2) | (corners[:, 1] <= 1) \
        | (corners[:, 1] >= height - 2)
    if int(at_edge.sum()) != 1:
        return None
    cut = int(np.argmax(at_edge))
    before, corner, after = (corners[(cut + k) % 4].astype(np.float64) for k in (-1, 0, 1))
    points = contour.reshape(-1, 2)
    meet = _meeting(*_fitted(points, before, corner), *_fitted(points, corner, after))
    if meet is not None and math.dist(meet, corner) < math.dist(after, corner) / 2:
        corners[cut] = meet
    seen = cv2.intersectConvexConvex(corners, _target((width, height)))[0]
    return corners if seen >= (1 - MAX_OUT) * cv2.contourArea(corners) else None


def _card_shaped(corners: np.ndarray, hull_area: float) -> bool:
    """Whether the quadrilateral ``corners`` has a card's proportions and the outline's hull
    (of ``hull_area``) fills it well enough."""
    sides = np.linalg.norm(corners - np.roll(corners, -1, axis=0), axis=1)
    across, along = (sides[0] + sides[2]) / 2, (sides[1] + sides[3]) / 2
    if min(across, along) <= 0:
        return False
    aspect = max(across, along) / min(across, along)
    area = cv2.contourArea(corners.astype(np.float32))
    return ASPECTS[0] <= aspect <= ASPECTS[1] and hull_area >= MIN_FILL * area


def _mended(poly: np.ndarray, contour: np.ndarray) -> np.ndarray | None:
    """The four corners of a card whose outline (``poly``, five corners of ``contour``) has one
    corner cut off (a thumb over it): of the sides whose two neighbours, drawn on, meet beyond
    it, the one whose cut leaves the card nearest a parallelogram (its opposite sides parallel,
    as a card's are but for perspective); None when no side's neighbours meet beyond it, or
    when the outline does not run along the two sides beside that cut (:func:`_drawn`: they
    span the gap between a card and a thumb joined to it). Those two sides are drawn on along
    the outline's points, not its corners alone."""
    points = poly.tolist()  # (plain numbers: five corners tried, each a few sums)
    centre = poly.mean(axis=0).tolist()
    best, corners = math.inf, None
    for cut in range(len(points)):
        before, start, end, after, last = (points[(cut + k) % len(points)]
                                           for k in (-1, 0, 1, 2, 3))
        meet = _meeting(before, start, end, after)
        side = _minus(end, start)
        if meet is None or _cross(side, _minus(meet, start)) * _cross(
                side, _minus(centre, start)) >= 0:  # not beyond the cut
            continue
        quad = (meet, after, last, before)
        sides = [_minus(quad[(k + 1) % 4], quad[k]) for k in range(4)]
        skew = sum(_angle(sides[k], [-v for v in sides[k + 2]]) for k in (0, 1))  # (opposite
        # sides run back along each other)
        if skew < best:
            best, corners = skew, (quad, (before, start), (end, after))
    if corners is None:
        return None
    quad, (before, start), (end, after) = (np.array(part, float) for part in corners)
    if min(_drawn(contour, before, start), _drawn(contour, end, after)) < DRAWN:
        return None  # a hull's side across a gap (a thumb joined to the card), not the card's
    fitted = _meeting(*_fitted(contour, before, start), *_fitted(contour, end, after))
    if fitted is None or math.dist(fitted, quad[0]) > math.dist(end, start):
        return quad  # (a side too ragged to be drawn along: its two ends say where it runs)
    return np.array([fitted, *quad[1:]])


def _border_ring(contour: np.ndarray, poly: np.ndarray, hull_area: float) -> bool:
    """Whether ``contour``, whose hull (of ``hull_area``) has the four corners ``poly``, is a
    card's border alone, its art as dark as the table (a dark photo in a thin white border, in
    a shadow): a thin outline running along all four sides, however broken (a shadowed half's
    border runs along three: the shadow's edge draws no side)."""
    return cv2.contourArea(contour) <= RING * hull_area \
        and _least_drawn(contour.reshape(-1, 2), poly) >= RING_DRAWN


def _least_drawn(contour: np.ndarray, corners: np.ndarray) -> float:
    """The least share of a side of the quadrilateral ``corners`` drawn along the outline's
    points (``contour``; :func:`_drawn`): the rectangle round a card and a thumb joined to it
    has sides across the gap between them."""
    corners = corners.astype(np.float64)
    return min(_drawn(contour, corners[k], corners[(k + 1) % 4]) for k in range(4))


def _drawn(contour: np.ndarray, start: np.ndarray, end: np.ndarray) -> float:
    """The share of the side from ``start`` to ``end`` along which the outline's points
    (``contour``) run within :data:`ROUNDING` pixels of it: a card's side is drawn whole, a
    hull's side spanning the gap between a card and a thumb joined to it is not."""
    t, off, length = _along(contour, start, end)
    if length < 1:
        return 0.0
    near = (t >= 0) & (t < length) & (off <= ROUNDING)
    steps = np.zeros(int(np.ceil(length)), bool)  # each pixel's step along the side
    steps[t[near].astype(int)] = True
    return float(np.count_nonzero(steps) / np.ceil(length))


def _along(contour: np.ndarray, start: np.ndarray, end: np.ndarray
           ) -> tuple[np.ndarray, np.ndarray, float]:
    """How far along the side from ``start`` to ``end`` each of the outline's points
    (``contour``) lies, how far off it, and the side's length."""
    along = end - start
    length = math.hypot(*along)
    unit = along / max(length, 1e-9)
    offset = contour - start
    return offset @ unit, np.abs(offset @ np.array([-unit[1], unit[0]])), length


def _fitted(contour: np.ndarray, start: np.ndarray, end: np.ndarray
            ) -> tuple[np.ndarray, np.ndarray]:
    """Two points of the line that best fits the outline's points along the side from
    ``start`` to ``end`` (its middle, within :data:`ON_SIDE` pixels of the side): the side
    as drawn, not as its two ends alone say."""
    t, off, length = _along(contour, start, end)
    points = contour[(t > 0.15 * length) & (t < 0.85 * length) & (off <= ON_SIDE)]
    if len(points) < 2:
        return start, end
    dx, dy, x, y = cv2.fitLine(points.astype(np.float32), cv2.DIST_HUBER, 0, 0.01, 0.01).ravel()
    return np.array([x, y], float), np.array([x + dx, y + dy], float)


def _minus(one: Point, other: Point) -> tuple[float, float]:
    """The plane vector from ``other`` to ``one``."""
    return one[0] - other[0], one[1] - other[1]


def _cross(one: Point, other: Point) -> float:
    """The cross product of two plane vectors (its sign: which way the second turns)."""
    return one[0] * other[1] - one[1] * other[0]


def _angle(one: Point, other: Point) -> float:
    """The angle between two directions, in radians."""
    cosine = (one[0] * other[0] + one[1] * other[1]) / (math.hypot(*one) * math.hypot(*other)
                                                        + 1e-9)
    return math.acos(min(max(cosine, -1.0), 1.0))


def _meeting(a0: Point, a1: Point, b0: Point, b1: Point) -> tuple[float, float] | None:
    """Where the line through ``a0`` and ``a1`` meets the one through ``b0`` and ``b1`` (None:
    they are nearly parallel)."""
    (x0, y0), (x1, y1), (u0, v0), (u1, v1) = (map(float, p) for p in (a0, a1, b0, b1))
    da, db = (x1 - x0, y1 - y0), (u1 - u0, v1 - v0)
    denominator = _cross(da, db)
    if abs(denominator) < 1e-6 * math.hypot(*da) * math.hypot(*db):
        return None
    along = _cross((u0 - x0, v0 - y0), db)
    return x0 + da[0] * along / denominator, y0 + da[1] * along / denominator


def _upright_order(corners: np.ndarray) -> np.ndarray:
    """The corners clockwise from the one that starts a short side, so that the card's
    straightened view is upright (taller than wide)."""
    centre = corners.mean(axis=0)
    angles = np.arctan2(corners[:, 1] - centre[1], corners[:, 0] - centre[0])
    corners = corners[np.argsort(angles)]  # clockwise in image coordinates (y down)
    first = int(np.argmin(corners.sum(axis=1)))
    corners = np.roll(corners, -first, axis=0)
    top = np.linalg.norm(corners[1] - corners[0])
    side = np.linalg.norm(corners[2] - corners[1])
    return corners if top <= side else np.roll(corners, -1, axis=0)


def _side_by_side(corners: np.ndarray, smaller: list[np.ndarray], gray: np.ndarray) -> bool:
    """Whether the outline ``corners`` holds two smaller card outlines that barely overlap and
    are lit alike: cards lying side by side, seen as one where no gap of table parts them (not
    the two parts of one card that a shadow's edge across it cut apart)."""
    least = SIDE_BY_SIDE_AREA * cv2.contourArea(corners)
    inner = [c for c in smaller if _inside(c, corners) and cv2.contourArea(c) >= least]
    for i, one in enumerate(inner):
        for other in inner[i + 1:]:
            shared = cv2.intersectConvexConvex(one, other)[0]
            if shared < SIDE_BY_SIDE * min(cv2.contourArea(one), cv2.contourArea(other)) \
                    and _lit_alike(corners, one, other, gray):
                return True
    return False


def _lit_alike(whole: np.ndarray, one: np.ndarray, other: np.ndarray, gray: np.ndarray
               ) -> bool:
    """Whether the brightest of the two parts of the outline ``whole`` nearer ``one`` and
    nearer ``other`` (their paper, in ``gray``) is about as light, as two cards under one
    light are: a shadow's edge parts a card into a lit part and one about half as light. (The
    parts of the whole, not the two outlines: the lit part's outline may hold its art alone,
    its border lost where the art meets it, the shadowed part's its border alone.)"""
    inside = np.zeros(gray.shape, np.uint8)
    cv2.fillConvexPoly(inside, whole.astype(np.int32), 255)
    ys, xs = np.nonzero(inside)
    near, far = one.mean(axis=0), other.mean(axis=0)
    towards = (xs - (near[0] + far[0]) / 2) * (far[0] - near[0]) \
        + (ys - (near[1] + far[1]) / 2) * (far[1] - near[1]) > 0
    greys = gray[ys, xs]
    if towards.all() or not towards.any():
        return True
    lights = [float(np.percentile(greys[part], 90)) for part in (~towards, towards)]
    return min(lights) >= LIT_ALIKE * max(lights)


def _inside(corners: np.ndarray, outer: np.ndarray) -> bool:
    """Whether the centre of ``corners`` lies within ``outer`` (a card drawn on a card)."""
    return _holds(outer, corners.mean(axis=0))


def _holds(corners: np.ndarray, point: np.ndarray) -> bool:
    """Whether ``point`` lies within the outline ``corners``."""
    centre = tuple(float(v) for v in point)
    return cv2.pointPolygonTest(corners.reshape(-1, 1, 2), centre, False) >= 0


def out_of_frame(frame: np.ndarray, spot: CardSpot, size: tuple[int, int] = CARD_SIZE
                ) -> np.ndarray | None:
    """Where the card at ``spot``, straightened (:func:`straighten`), lies out of ``frame``
    (bool, ``size``; None when it lies wholly in it)."""
    height, width = frame.shape[:2]
    corners = spot.corners
    if corners.min() >= 0 and corners[:, 0].max() <= width - 1 \
            and corners[:, 1].max() <= height - 1:
        return None
    matrix = cv2.getPerspectiveTransform(corners.astype(np.float32), _target(size))
    seen = cv2.warpPerspective(np.full((height, width), 255, np.uint8), matrix, size,
                               flags=cv2.INTER_NEAREST, borderMode=cv2.BORDER_CONSTANT)
    return seen == 0


def _target(size: tuple[int, int]) -> np.ndarray:
    """The corners of a straightened card of ``size`` (width, height)."""
    width, height = size
    return np.float32([[0, 0], [width - 1, 0], [width - 1, height - 1], [0, height - 1]])


def straighten(frame: np.ndarray, spot: CardSpot, size: tuple[int, int] = CARD_SIZE
               ) -> np.ndarray:
    """The card at ``spot`` seen square on, upright, ``size`` (width, height) pixels."""
    matrix = cv2.getPerspectiveTransform(spot.corners.astype(np.float32), _target(size))
    return cv2.warpPerspective(frame, matrix, size, flags=cv2.INTER_AREA,
                               borderMode=cv2.BORDER_REPLICATE)
