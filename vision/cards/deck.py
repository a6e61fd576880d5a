"""The cards the owner taught, one photo each, and the reading of a frame against them.

Each taught card is kept as its straightened picture, ``<folder>/<card id>.png`` (taught again:
``<card id>@2.png``..., the earlier pictures kept, each one a way the card may look): the look the
matcher compares is computed from it when the deck is loaded, so a later, better matcher uses
every card already taught. A card is named only when its look is near one taught card and
clearly nearer it than any other; nearer none of them, it is a card not taught (``id`` None),
and near two of them, the reading is marked uncertain, never guessed.

A card whose picture has corners of its own (art, text: :mod:`.features`) has a second judge: the
cards its look is nearest must also share its corners, lined up as on the card. A card with art
that no taught card's corners confirm is a card not taught, however near its look (its colours and
layout may be another card's); one that two taught cards confirm alike is asked, and one whose
cells (those a thumb leaves shown, or a shadow's edge leaves out) are not all alike the confirming
picture's is another card with the same art (:mod:`.cells`). A plain card (SET's shapes on white: a
few smooth edges) is judged by its look and by its print (:mod:`.outline`; a shadow across it
allowed, a thumb holding it left out): the outlines of its ink, the ink's colour and how its shapes
are filled. Of the cards nearest by look, the first printed alike and filled alike is the card (its
look may then lie a little farther from it: a blurred teaching photo); none, and it is a card not
taught (an oval where a diamond was taught, a red card where the purple one was, a hatched one
where the empty one was); named surely when no other card about as near by look is printed alike.
"""

from __future__ import annotations

import functools
import re
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path

import cv2
import numpy as np

from ..imageio import load_image
from ..profile import write_atomic
from ..say import VisionError
from .cells import hidden_cells, least_alike, shadow_edge_cells, small
from .features import Features, features, inliers, matches, self_inliers
from .find import find_cards, out_of_frame, straighten
from .looks import GRID, SEEN, Looks, distances, edge_cover, look
from .outline import (
    FILL_DOUBT,
    MIN_CHROMA,
    Outline,
    agreement,
    outline,
    same_colour,
    same_filling,
)

# Distances between looks (vision.cards.looks.distances), set on real photos of the 81 cards of
# SET (benchmarks/cards.py): the same card read in another photo lay at about 0.08 (median) and
# 0.18 (99th percentile), the nearest other card at 0.07 (1st percentile) and 0.09 (10th): many
# cards of SET differ only by a hatching the camera may not see, so those are asked.
SURE = 0.12  # a look this near a taught card can be that card
KNOWN = 0.17  # farther than this from every taught card: a card not taught
MARGIN = 1.4  # the second nearest card this many times farther: a sure reading (at 1.2, 0.4 %
# of the benchmark's cards were named surely and wrongly; at 1.4, none)
COVER_DOUBT = 3.0  # a card a fifth covered is sure only at 1.6 times the margin: what is covered
# may be what tells it from the second nearest card
ALIKE = 0.09  # two taught cards nearer than this are reported alike when taught
CONFIRM = 20  # inliers (vision.cards.features) that confirm a card with corners of its own
CHECKABLE = 40  # inliers a taught picture has against itself moved, for its corners to be
# checked at all (SET's plainest striped cards reach 25; the art set's cards 77, median)
SHARE = 0.75  # of the inliers a picture has against itself moved, a card seen must have to be
# named surely: cards sharing a background or a frame share part of their corners, not all
CLEAR = 2.0  # the card confirmed has this many times the inliers of any other: a sure reading
CANDIDATES = 3  # the cards nearest by look whose corners are checked
HELD_CANDIDATES = 8  # the same, of a card partly covered: those about as near by look as the
# nearest (within its margin), up to this many; more, and it is asked (on the art set, a
# fifth covered: one card in 20 had its own picture 4th to 8th by look, and a card sharing its
# background confirmed surely in its place)
WHOLE_SHARE = 0.7  # of the inliers a taught picture has against itself moved: a card seen whole
# and evenly lit with fewer, against every card nearest by look, is a card not taught (on the art
# set, plain: taught cards' 5th percentile 0.79, untaught cards' 95th 0.69). Half in shadow or
# covered, a taught card keeps fewer (5th percentile 0.28): it is asked, never said unknown.
# Its cells all alike its picture's (SAME_CELLS), it is that card however few it keeps (turned in
# the frame, 25 of 438 taught cards kept fewer)
SAME_CELLS = 0.65  # correlation (vision.cards.cells) under which a cell of a card with art seen
# whole and evenly lit is not its taught picture's: on the art set, a card and its own picture
# 0.75 at the least (plain and tilted 30°), another card its corners confirm 0.57 at the most
SHADED_CELLS = 0.5  # the same, half in shadow (the shadow's edge left out): under it, not
# the card (on the art set, a card and its own picture 0.5 at the least but for 2 %, another
# card its corners confirm 0.49 at the most); at SAME_CELLS and over, that card
BORDER = 0.025  # of each side: the ring inside the card's edge where its paper is looked for
INSET = 2  # pixels of the straightened card's very edge left out (the table may show there)
PAPER_LIGHT = 0.75  # of the paper's brightest: a ring pixel darker than this is not paper
PAPER_COLOUR = 60  # saturation (of 255): a ring pixel more coloured than this is not paper
OFF_PAPER = 0.1  # of the ring, at most, not paper: the card is seen whole and evenly lit
SAME_OUTLINE = 0.47  # agreement of outlines (vision.cards.outline) under which two plain cards
# are not one: on SET's photos (3 folds) every untaught card is said unknown at 0.47 (0.49
# too), seen whole or half in shadow; a higher bar makes more taught cards unknown (tilted 30°:
# 0.4 % more at 0.49); at 0.44, 1-3 % of untaught cards are named (asked)
PRINT_REACH = 1.3  # times KNOWN: a plain card printed as a taught card may lie this far from it
# by look (a blurred teaching photo: SET's red cards lay up to 0.21 from their own)
SHADE_REACH = 1.7  # times KNOWN: the same, for a card not evenly lit (a shadow across most of
# a card moves its look farther: SET's blurred red cards lay up to 0.27 from their own)
PRINT_CANDIDATES = 5  # the plain cards nearest by look whose print is compared
HELD_ALIKE = 0.57  # agreement of outlines under which two plain cards, one held by a thumb,
# are not one: where the thumb leaves them, a red oval's and a red squiggle's agree up to 0.56
# (SET a fifth covered), a card's own outline 0.62 at the 1st percentile
HELD_OUTLINE = 0.65  # agreement of outlines a card held by a thumb must reach to be named
# surely: what the thumb hides may be what tells two shapes apart (SET, a fifth covered: other
# shapes of one ink and filling reach 0.64, a card's own outline is under 0.65 for 7 %)
PRINT_RIVALS = 12  # the cards about as near by look as the card named whose print is compared
# (more, and it is asked; a card partly covered has many: what is covered may tell them apart)
AGAIN = "@"  # <id>@2.png: the second picture of a card taught twice
_NO_LOOKS = Looks.of(np.zeros((0, GRID[1], GRID[0], SEEN + 1), np.float32))
CARD_ID = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_.+-]{0,63}$")


@dataclass(frozen=True)
class CardSeen:
    """One card of a frame: the taught card it is (None: a card not taught), how sure the
    reading is (0-1), whether it must be asked instead of trusted, and where it lies."""

    id: str | None
    confidence: float
    uncertain: bool
    box: tuple[int, int, int, int]
    alike: tuple[str, ...] = ()

    def to_json(self) -> dict:
        """The card as ``companion cards read --json`` prints it."""
        return {"id": self.id, "confidence": round(self.confidence, 3),
                "uncertain": self.uncertain, "box": list(self.box)}


@dataclass(frozen=True)
class CardsRead:
    """The cards of one frame, the one nearest its centre first, and how long reading it took
    (ms)."""

    cards: list[CardSeen]
    ms: float

    def to_json(self) -> dict:
        """The reading as ``companion cards read --json`` prints it."""
        return {"cards": [card.to_json() for card in self.cards], "ms": round(self.ms, 1)}


@dataclass(frozen=True)
class Taught:
    """What teaching a card did: the card's id, where its picture is kept, and the taught cards
    that look so much like it that a reading may not tell them apart."""

    id: str
    path: Path
    alike: list[str] = field(default_factory=list)


class Deck:
    """The taught cards kept in ``folder`` (created on the first teaching)."""

    def __init__(self, folder: Path) -> None:
        self.folder = Path(folder)
        self.ids: list[str] = []  # the card of each picture (a card taught twice has two)
        self.looks = _NO_LOOKS
        self.corners: list[Corners] = []  # of each picture
        self.outlines: list[Outline] = []  # of each picture
        self.damaged: list[str] = []  # cards whose picture could not be read (doctor names them)
        self._stamp: tuple | None = None
        self._known: dict[tuple[str, int], tuple[np.ndarray, Corners, Outline]] = {}  # what
        # each picture (name, mtime) gave, so that a teaching computes only the new one
        self._lock = threading.Lock()  # a camera thread names cards while a teaching reloads
        self.reload()

    def reload(self) -> None:
        """Load the taught pictures again when the folder changed since they were loaded."""
        files = sorted(self.folder.glob("*.png")) if self.folder.is_dir() else []
        stamp = tuple((f.name, f.stat().st_mtime_ns) for f in files)
        if stamp == self._stamp:
            return
        ids, looks, corners, outlines, damaged, known = [], [], [], [], [], {}
        for path, key in zip(files, stamp, strict=True):
            if key not in self._known:
                try:
                    picture = load_image(path)
                except VisionError:  # one damaged picture leaves the others known
                    damaged.append(path.stem.split(AGAIN)[0])
                    continue
                self._known[key] = _described(picture)
            known[key] = self._known[key]
            ids.append(path.stem.split(AGAIN)[0])
            looks.append(known[key][0])
            corners.append(known[key][1])
            outlines.append(known[key][2])
        self._known = known
        with self._lock:
            self._stamp, self.ids, self.damaged = stamp, ids, damaged
            self.looks = Looks.of(np.stack(looks)) if looks else _NO_LOOKS  # made
            # ready to compare once here, not at every card read
            self.corners = corners
            self.outlines = outlines

    def taught(self) -> tuple[list[str], np.ndarray]:
        """The card of each taught picture and its look, as loaded last (one consistent
        pair)."""
        ids, looks, _corners, _outlines = self._taught()
        return ids, looks.looks

    def _taught(self) -> tuple[list[str], Looks, list[Corners], list[Outline]]:
        """:meth:`taught` and the corners and outline of each picture."""
        with self._lock:
            return self.ids, self.looks, self.corners, self.outlines

    def teach(self, card_id: str, photo: np.ndarray) -> Taught:
        """Learn ``card_id`` from ``photo`` (the card nearest its centre); raises
        :class:`VisionError` for a bad id or a photo with no card."""
        if not CARD_ID.match(card_id):
            raise VisionError("cards.bad_id", id=repr(card_id))
        spots = find_cards(photo)
        if not spots:
            raise VisionError("cards.none_in_photo")
        picture = straighten(photo, spots[0])
        ids, looks, corners, outlines = self._taught()
        described = _described(picture)
        near = distances(described[0], looks)
        own, shapes = described[1].features, described[2]
        grey = small(picture) if border_clear(picture) else None
        alike = sorted({i for i, d, taught, printed in zip(ids, near, corners, outlines,
                                                            strict=True)
                        if i != card_id and (  # (what is told apart when read is not alike)
                            (d < ALIKE or inliers(own, taught.features) >= CONFIRM)
                            and (grey is None or least_alike(grey, taught.grey) >= SAME_CELLS)
                            if taught.checkable else d < ALIKE and _judge(shapes, printed).same)})
        self.folder.mkdir(parents=True, exist_ok=True)
        path, again = self.folder / f"{card_id}.png", 1
        while path.exists():  # a card taught again keeps its earlier pictures
            again += 1
            path = self.folder / f"{card_id}{AGAIN}{again}.png"
        try:  # a crash leaves the picture whole or absent
            write_atomic(path, cv2.imencode(".png", picture)[1].tobytes())
        except OSError as exc:
            raise VisionError("cards.not_saved", path=str(path),
                              detail=exc.strerror or exc) from None
        self._known[(path.name, path.stat().st_mtime_ns)] = described  # (the picture as
        # saved, losslessly: not worked out again when the deck loads it)
        self.reload()
        return Taught(card_id, path, alike)

    def name(self, card: np.ndarray, box: tuple[int, int, int, int],
             out_of_view: np.ndarray | None = None) -> CardSeen:
        """Which taught card the straightened ``card`` is, as sure as its look (and its
        corners, or its outline) allow; what lies ``out_of_view`` (bool: out of the frame) is
        left out as what a thumb covers."""
        ids, looks, corners, outlines = self._taught()
        if not ids:
            return CardSeen(None, 1.0, False, box)
        cover = edge_cover(card)  # (the look and the outline both follow it)
        seen = look(card, out_of_view, cover)
        near = distances(seen, looks)
        by_card: dict[str, float] = {}
        for card_id, distance in zip(ids, near.tolist(), strict=True):
            by_card[card_id] = min(distance, by_card.get(card_id, distance))
        ranked = sorted(by_card, key=by_card.__getitem__)
        best = max(by_card[ranked[0]], 1e-6)
        second = by_card[ranked[1]] if len(ranked) > 1 else float("inf")
        if best > KNOWN * SHADE_REACH:
            return CardSeen(None, _sureness(best / KNOWN), False, box)
        covered = float(1.0 - seen[..., SEEN].mean())
        margin = MARGIN * (1.0 + COVER_DOUBT * covered)
        rivals = [i for i in ranked if by_card[i] <= margin * best] if covered else []  # what
        # a thumb hides may be what set the card apart by look: more cards are about as near
        checked = {i: [c for j, c in zip(ids, corners, strict=True) if j == i]
                   for i in ranked[:max(CANDIDATES, min(len(rivals), HELD_CANDIDATES))]}
        plain = not any(c.checkable for c in checked[ranked[0]])  # else the nearest card has
        # corners of its own: they must agree
        shapes = outline(card, out_of_view, cover) if plain else None
        ring = Border.of(card, out_of_view) if plain else None
        if shapes is not None and (
                shapes.visible is not None and shapes.edges.any()  # a thumb found, left out,
                # and some ink left beside it
                or shapes.visible is None and ring.clear(shadow_ok=True)):  # (else what is
            # on the border draws edges of its own)
            lit = ring.clear(held_ok=True)
            if shapes.photo and not lit:  # a shadow's edge draws more of a photo's outline
                # than the photo does: its cells, the edge left out, are compared
                return _confirmed(card, checked, box, ring, shown=seen[..., SEEN],
                                  out_of_view=out_of_view)
            return _printed(shapes, ranked, by_card, (ids, outlines), margin, box, lit,
                            KNOWN * (PRINT_REACH if lit else SHADE_REACH))
        if best > KNOWN and (plain or not covered):  # (held, a photo's look lies farther
            # from its own: its cells may still be its picture's)
            return CardSeen(None, _sureness(best / KNOWN), False, box)
        if not plain:
            return _confirmed(card, checked, box, Border.of(card, out_of_view),
                              unchecked=len(rivals) > len(checked), shown=seen[..., SEEN],
                              out_of_view=out_of_view)
        sure = best <= SURE and second >= margin * best
        alike = tuple(i for i in ranked[1:3] if by_card[i] < MARGIN * best)
        confidence = _sureness(min(SURE / best, second / best / margin))
        return CardSeen(ranked[0], confidence, not sure, box, alike)


@dataclass(frozen=True)
class Corners:
    """The corners of a taught picture and how many inliers they have against the picture
    itself slightly moved (what a card seen again can be expected to have)."""

    features: Features
    own: int
    grey: np.ndarray  # the picture, small and grey, compared cell by cell (:mod:`.cells`)

    @property
    def checkable(self) -> bool:
        """Whether the corners confirm the picture itself slightly moved, blurred and dimmed
        (a plain card's do not: its look alone names it)."""
        return self.own >= CHECKABLE


def _described(picture: np.ndarray) -> tuple[np.ndarray, Corners, Outline]:
    """What a taught picture is compared by: its look, its corners and its outline."""
    cover = edge_cover(picture)  # (the look and the outline both follow it)
    return look(picture, None, cover), _corners(picture), outline(picture, None, cover)


def _corners(picture: np.ndarray) -> Corners:
    """The corners of a taught picture and their inliers against itself moved."""
    own = features(picture)
    return Corners(own, self_inliers(picture, own), small(picture))


def border_clear(card: np.ndarray, shadow_ok: bool = False, held_ok: bool = False) -> bool:
    """Whether the straightened ``card``'s border shows its paper all round (:class:`Border`);
    ``shadow_ok``: a shadow across the border does not count, only something on it;
    ``held_ok``: the other way round (is the card evenly lit where nothing covers it)."""
    return Border.of(card).clear(shadow_ok, held_ok)


@dataclass(frozen=True)
class Border:
    """The thin ring inside a straightened card's edge where its paper is looked for: which of
    its pixels are darker than 0.75 of the paper's brightest, and which are coloured. A shadow
    across the card darkens half the ring, a thumb or a die on it colours part of it (on the art
    set: at most 5 % of the ring off paper on plain frames, at least 24 % half in shadow or a
    fifth covered). A card printed to its edge has no such border: it never counts as clear,
    and is asked rather than said unknown."""

    dark: np.ndarray  # bool, one value a pixel of the ring
    coloured: np.ndarray
    dark_below: float  # the grey under which a pixel of the ring is dark

    @classmethod
    def of(cls, card: np.ndarray, out_of_view: np.ndarray | None = None) -> Border:
        """The ring of a straightened card (BGR uint8); what of it lies ``out_of_view``
        (bool: out of the frame) counts as covered, as a thumb does."""
        ring = _ring(*card.shape[:2])
        hsv = cv2.cvtColor(card.reshape(-1, 3)[ring].reshape(-1, 1, 3),
                           cv2.COLOR_BGR2HSV).reshape(-1, 3)
        bright, colour = hsv[:, 2].astype(np.float32), hsv[:, 1]  # (the ring's pixels only:
        # the rest of the card is not looked at)
        coloured = colour > PAPER_COLOUR
        if out_of_view is not None:
            coloured |= out_of_view.ravel()[ring]
        paper = bright[~coloured] if (~coloured).any() else bright  # (a thumb on the ring may
        # be brighter than the paper, which would then look shadowed)
        dark_below = PAPER_LIGHT * float(np.percentile(paper, 90))
        return cls(bright < dark_below, coloured, dark_below)

    def clear(self, shadow_ok: bool = False, held_ok: bool = False) -> bool:
        """Nearly all of the ring is paper (see :func:`border_clear` for the two leaves)."""
        off = (self.coloured if shadow_ok else self.dark & ~self.coloured if held_ok
               else self.dark | self.coloured)
        return float(off.mean()) <= OFF_PAPER


@functools.lru_cache(maxsize=4)
def _ring(height: int, width: int) -> np.ndarray:
    """The pixels (flat indices, in order) of the :class:`Border` ring of a straightened card
    of ``height`` x ``width``, laid out once for every card of that size."""
    dy, dx = max(int(BORDER * height), 1), max(int(BORDER * width), 1)
    ring = np.zeros((height, width), bool)
    ring[INSET:INSET + dy, INSET:width - INSET] = True
    ring[height - INSET - dy:height - INSET, INSET:width - INSET] = True
    ring[INSET:height - INSET, INSET:INSET + dx] = True
    ring[INSET:height - INSET, width - INSET - dx:width - INSET] = True
    return np.flatnonzero(ring)


def _confirmed(card: np.ndarray, checked: dict[str, list[Corners]],
               box: tuple[int, int, int, int], border: Border, unchecked: bool = False,
               shown: np.ndarray | None = None, out_of_view: np.ndarray | None = None
               ) -> CardSeen:
    """The card whose taught corners line up with the straightened ``card``'s, among the cards
    nearest by look (``checked``: their pictures' corners): sure when it has clearly more
    inliers than any other and most of those its picture has against itself, asked when two
    have about as many or it has only part of them (a card sharing its background), unknown
    when none has enough, or, the card seen whole and evenly lit (:func:`border_clear`), when
    none has most of those its picture has against itself nor is its picture cell by cell
    (:mod:`.cells`: a turn or a slant keeps fewer corners, not fewer alike cells). Seen so, a
    card whose cells are not all alike its picture's is not that card, however many corners
    they share (the same art with something else on it), and one whose cells all are is
    named surely when no other card is about as confirmed. The card nearest by look is
    compared cell by cell however few of its corners line up (a shadow or a thumb keeps few of
    a photo of a plain table): its cells all alike, it is that card (held, asked: what the
    thumb hides may differ). ``unchecked``: other cards about as near by look were not checked
    (a card held by a thumb): the card is never sure. ``border``: the card's border ring
    (:class:`Border`, what lies ``out_of_view`` counted as covered); ``out_of_view``: as
    :meth:`Deck.name`."""
    seen = features(card, out_of_view)
    clear = border.clear()
    hidden = None if clear or shown is None or shown.all() or not border.clear(held_ok=True) \
        else hidden_cells(shown)  # held by a thumb, evenly lit where it shows
    if hidden is None and not clear and border.clear(shadow_ok=True):  # in a shadow, nothing
        hidden = shadow_edge_cells(card, border.dark_below)  # on it: all but the shadow's edge
        shaded = hidden is not None
    else:
        shaded = False
    grey = small(card) if clear or hidden is not None else None
    matched = {card_id: [(matches(seen, c.features), c) for c in pictures]
               for card_id, pictures in checked.items()}
    most = {card_id: max(m.most for m, _ in found) for card_id, found in matched.items()}
    counts: dict[str, int] = {}
    expected = {card_id: found[0][1].own for card_id, found in matched.items()}
    cells_alike: dict[str, float] = {}
    held_alike: set[str] = set()
    nearest = next(iter(checked))  # by look

    def check(card_id: str) -> None:
        """Fit the card's matches (its inliers), and compare it cell by cell when it may be
        the card."""
        found = [(m.inliers(), c.own) for m, c in matched[card_id]]
        counts[card_id], expected[card_id] = max(found)
        if grey is not None and (counts[card_id] >= CONFIRM or card_id == nearest):
            cells = max(least_alike(grey, c.grey, hidden, shaded) for _, c in matched[card_id])
            if cells < (SHADED_CELLS if shaded else SAME_CELLS):
                counts[card_id] = 0  # the same art with something else on it: another card
            elif clear or shaded and cells >= SAME_CELLS:
                cells_alike[card_id] = cells  # its picture cell by cell, however many of its
                # corners a turn or a slant kept
            elif cells >= SAME_CELLS:
                held_alike.add(card_id)  # held: what the thumb hides may differ (asked)

    # Fitting is most of the time a card takes: a card that cannot confirm itself nor be
    # compared cell by cell is fitted only when what it may have at most could change the
    # reading (the reading the same whether it has none or all its matches are inliers); a
    # card taught twice always is (which picture it keeps most of sets what it is expected to
    # keep).
    fitted = [i for i in checked if i == nearest or most[i] >= CONFIRM or len(matched[i]) > 1]
    for card_id in fitted:
        check(card_id)
    unfitted = sorted((i for i in checked if i not in fitted), key=lambda i: -most[i])
    judged = (expected, cells_alike, held_alike, box, clear, unchecked)  # (filled in by check)
    while True:
        reading = _verdict({i: counts.get(i, 0) for i in checked}, *judged)
        if not unfitted or reading == _verdict({i: counts.get(i, most[i]) for i in checked},
                                               *judged):
            return reading
        check(unfitted.pop(0))


def _verdict(counts: dict[str, int], expected: dict[str, int], cells_alike: dict[str, float],
             held_alike: set[str], box: tuple[int, int, int, int], clear: bool,
             unchecked: bool) -> CardSeen:
    """The reading :func:`_confirmed` gives from each card's inliers (``counts``, in the order
    of their look), those its picture has against itself (``expected``) and the cards alike
    cell by cell (seen whole, or held)."""
    by_cells = held_alike | set(cells_alike)
    ranked = sorted(counts, key=lambda i: (counts[i] >= CONFIRM or i in by_cells, counts[i]),
                    reverse=True)
    top = counts[ranked[0]]
    if top < CONFIRM and not by_cells:
        return CardSeen(None, _sureness(CONFIRM / max(top, 1)), False, box)
    if clear and all(counts[i] < WHOLE_SHARE * expected[i] and i not in cells_alike
                     for i in ranked):
        share = max(counts[i] / max(expected[i], 1) for i in ranked)
        return CardSeen(None, _sureness(WHOLE_SHARE / max(share, 1e-6)), False, box)
    alike = tuple(i for i in ranked[1:] if counts[i] * CLEAR > top  # about as many, or
                  or counts[i] >= max(CONFIRM, SHARE * expected[i])  # confirmed itself
                  or i in cells_alike)
    runner = counts[ranked[1]] if len(ranked) > 1 else 0
    kept = max(top / (SHARE * max(expected[ranked[0]], 1)),
               cells_alike.get(ranked[0], 0.0) / SAME_CELLS)
    ratio = min(top / max(runner * CLEAR, 1), kept)
    sure = ratio >= 1.0 and not alike and not unchecked and (
        top >= CONFIRM or ranked[0] in cells_alike)
    evidence = top / CONFIRM if top >= CONFIRM else kept  # (few corners: its cells)
    return CardSeen(ranked[0], _sureness(min(ratio, evidence)), not sure, box, alike)


@dataclass(frozen=True)
class Print:
    """How the print of a plain card seen compares with a taught card's: the agreement of their
    outlines, whether their inks may be one, and whether their shapes are filled alike (None:
    cannot tell)."""

    agreement: float
    colour: bool
    filling: bool | None
    held: bool = False  # the seen card held by a thumb: its outline compared where it shows
    hue: bool = True  # their colours compared (False: one ink too grey to have a hue, the
    # other not, as a shadow leaves a card's ink: they may be one, or not)

    @property
    def alike(self) -> bool:
        """The same shapes in the same ink (their filling aside)."""
        return self.agreement >= (HELD_ALIKE if self.held else SAME_OUTLINE) and self.colour

    @property
    def same(self) -> bool:
        """Alike, and not filled otherwise."""
        return self.alike and self.filling is not False


def _print(shapes: Outline, card_id: str, taught: tuple[list[str], list[Outline]]) -> Print:
    """How ``shapes`` compare with the best matching of ``card_id``'s taught pictures."""
    ids, outlines = taught
    judged = [_judge(shapes, other) for i, other in zip(ids, outlines, strict=True)
              if i == card_id]
    return max(judged, key=lambda p: (p.alike, p.filling is True, p.filling is None,
                                      p.agreement))


def _judge(shapes: Outline, other: Outline) -> Print:
    """How the print ``shapes`` compares with one taught picture's (``other``)."""
    colour = same_colour(shapes.ink, other.ink)
    return Print(agreement(shapes, other) if colour else 0.0, colour,
                 same_filling(shapes.ink, other.ink), shapes.visible is not None,
                 (shapes.ink.chroma < MIN_CHROMA) == (other.ink.chroma < MIN_CHROMA))


def _printed(shapes: Outline, ranked: list[str], by_card: dict[str, float],
             taught: tuple[list[str], list[Outline]], margin: float,
             box: tuple[int, int, int, int], lit: bool, reach: float) -> CardSeen:
    """The plain card whose print (:class:`Print`) is the seen card's, among those nearest by look
    (``ranked``, at ``by_card``, within ``reach``): the nearest printed alike and not filled
    otherwise is the card (a small card's look may lie nearer its twin of another filling), unless
    its filling was not told alike and another card is nearer by look; none, a card not taught (one
    printed alike but filled otherwise too: a hatching unseen makes an empty card of a hatched one
    more often than the other way). Sure when no other card about as near by look (``margin``)
    is printed alike, its filling was told alike (the card evenly ``lit``, its shapes empty where
    it is lit too, or not empty: a shadow or a blur fades a hatching, never draws one), its ink's
    colour was compared (a shadow may leave it too grey for a hue), and, held by a thumb, most of
    its outline matches; an ink with no colour to tell a filling by, when no other card at all
    is about as near by look and its look is near."""
    near = [i for i in ranked[:PRINT_CANDIDATES] if by_card[i] <= reach]
    prints: dict[str, Print] = {}
    named = None
    for card_id in near:
        prints[card_id] = _print(shapes, card_id, taught)
        if prints[card_id].same:  # (one printed alike but filled otherwise is passed: its
            # twin of the seen filling may lie a little farther by look)
            named = card_id
            break
    told = named is not None and prints[named].filling and (
        lit or shapes.ink.lit_empty or shapes.ink.fill > FILL_DOUBT[1])
    if named is None or (named != ranked[0] and not told):
        # (only a filling told alike names a card whose look is nearer another)
        own = prints[ranked[0]].agreement if ranked[0] in prints else 0.0
        return CardSeen(None, _sureness(SAME_OUTLINE / max(own, 1e-6)), False, box)
    distance = max(by_card[named], 1e-6)
    rivals = [i for i in ranked if i != named and by_card[i] < margin * distance]
    for card_id in rivals[:PRINT_RIVALS]:
        if card_id not in prints:
            prints[card_id] = _print(shapes, card_id, taught)
    alike = tuple(i for i in rivals if i not in prints or prints[i].same)
    grey = shapes.ink.chroma < MIN_CHROMA and prints[named].filling is None  # an ink with no
    # colour to tell a filling by: the look alone, as near and with no card about as near
    sure = (told and prints[named].hue and not alike and distance <= KNOWN or grey and not rivals
            and distance <= SURE) and (
        shapes.visible is None or prints[named].agreement >= HELD_OUTLINE)
    bar = KNOWN if told else SURE
    return CardSeen(named, _sureness(bar / distance) if sure else 0.5, not sure, box,
                    alike[:2])


def _sureness(ratio: float) -> float:
    """A ratio of distances (1: at the limit, more: clearer) as a confidence between 0.5
    (at the limit) and 1."""
    return float(1.0 - 0.5 / max(ratio, 1.0) ** 2)


def read_cards(frame: np.ndarray, deck: Deck) -> CardsRead:
    """Every card in ``frame`` named against ``deck`` (see :class:`Deck`)."""
    start = time.perf_counter()
    if frame is None or frame.ndim != 3 or frame.dtype != np.uint8:
        raise VisionError("image.shape", shape=getattr(frame, "shape", None))
    cards = [deck.name(straighten(frame, spot), spot.box, out_of_frame(frame, spot))
             for spot in find_cards(frame, one_corner_out=True)]
    return CardsRead(cards, (time.perf_counter() - start) * 1000)
