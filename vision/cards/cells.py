"""The last judge of a card with art that its corners confirm: is it the taught card, or another
card with the same art (photos of one table with other dice on it, one picture with other
numbers)?

Two such cards share most of their corners, lined up, and nearly their whole look: what tells
them apart is a patch or two. Compared cell by cell (a grid over the straightened card, each
cell searched a few pixels round in the taught picture), a card and its own picture correlate
everywhere; a card with the same art and something else in one place does not, there. The
least alike cell says it. A shadow's edge makes a cell of a card's own picture as unlike: of a
card half in shadow, the cells its edge crosses are left out (:func:`shadow_edge_cells`), the
rest smoothed (the shadow's darkness is noisy); of a card held by a thumb, the cells it covers.
"""

from __future__ import annotations

import cv2
import numpy as np

from .looks import inside

SIZE = (120, 180)  # (width, height) of the grey picture compared: half a straightened card
GRID = (6, 9)  # (columns, rows) of cells
CELL = (SIZE[0] // GRID[0], SIZE[1] // GRID[1])  # (width, height) of a cell, in pixels
SHIFT = 4  # pixels the whole card is searched round its place (corners found a pixel or two
# off)
NUDGE = 2  # pixels each cell is searched round where the whole card lines up (a card seen at a
# slant is not lined up everywhere at once)
ROUND_INSET = 0.03  # of the card's width: the border's round is walked this far in from its edge
EDGE_REACH = 5  # pixels (of SIZE) either side of a shadow's edge drawn straight that it may
# cover: the edge blurred, bent a little, its ends found a pixel or two off
DETAIL_SIGMA = 3.0  # pixels: what changes more slowly is light, not the card's detail
FLAT = 4.0  # grey levels: a cell whose spread is less has nothing to compare (plain paper)
SHADED_SIGMA = 1.5  # pixels: a card in a shadow is smoothed this much before it is compared
SHADED_FLAT = 6.0  # and its cells need this spread (on the art set half in shadow, a card's
# own picture then 0.63 at the 1st percentile, and no card 0.65 or more but its own)


def small(card: np.ndarray) -> np.ndarray:
    """A straightened card (BGR uint8) as the grey picture its cells are taken from, its edge
    left out (where its corners were found a pixel off, the table shows in a corner cell)."""
    return cv2.cvtColor(cv2.resize(inside(card), SIZE, interpolation=cv2.INTER_AREA),
                        cv2.COLOR_BGR2GRAY)


def least_alike(seen: np.ndarray, taught: np.ndarray, hidden: np.ndarray | None = None,
                shaded: bool = False) -> float:
    """How alike the least alike cell of ``seen`` is to ``taught`` (both :func:`small`): the
    normalised correlation of that cell at its best place near where the whole card lines up
    best (1: alike), the card the way up it lines up best; the cells ``hidden`` (bool,
    ``GRID`` rows x columns, of ``seen``: a thumb over them, a shadow's edge) left out.
    ``shaded``: ``seen`` is partly in a shadow, whose darkness leaves more noise than detail
    in its plainest cells: both pictures are smoothed, and a cell must hold more to be
    compared."""
    taught, seen = taught.astype(np.float32), seen.astype(np.float32)
    if shaded:
        taught, seen = (cv2.GaussianBlur(p, (0, 0), SHADED_SIGMA) for p in (taught, seen))
    ways = [seen, seen[::-1, ::-1].copy()]
    detail = _detail(taught)  # the whole card lined up by its detail: a shadow across it would
    # outweigh it
    lined = [cv2.matchTemplate(detail, _detail(way)[SHIFT:-SHIFT, SHIFT:-SHIFT],
                               cv2.TM_CCOEFF_NORMED)
             for way in ways]  # where the whole card lines up, each way up
    turned = float(lined[1].max()) > float(lined[0].max())
    way, lines = ways[turned], lined[turned]
    shown = np.ones(GRID[::-1], bool) if hidden is None \
        else ~(hidden[::-1, ::-1] if turned else hidden)
    dy, dx = (int(v) - SHIFT for v in np.unravel_index(int(lines.argmax()), lines.shape))
    cells = way[:GRID[1] * CELL[1], :GRID[0] * CELL[0]]
    cells = cells - cv2.resize(_means(cells), cells.shape[::-1], interpolation=cv2.INTER_NEAREST)
    spread = np.sqrt(_means(cells * cells))  # of each cell, per pixel
    padded = cv2.copyMakeBorder(taught, SHIFT + NUDGE, SHIFT + NUDGE, SHIFT + NUDGE,
                                SHIFT + NUDGE, cv2.BORDER_REPLICATE)
    mean = cv2.boxFilter(padded, -1, CELL, anchor=(0, 0), borderType=cv2.BORDER_CONSTANT)
    power = cv2.boxFilter(padded * padded, -1, CELL, anchor=(0, 0),
                          borderType=cv2.BORDER_CONSTANT)
    there_spread = np.sqrt(np.maximum(power - mean * mean, 0.0))  # of the cell starting at
    # each pixel of the taught picture
    best = np.full(GRID[::-1], -1.0, np.float32)
    height, width = cells.shape
    for ny in range(-NUDGE, NUDGE + 1):
        for nx in range(-NUDGE, NUDGE + 1):
            y, x = SHIFT + NUDGE + dy + ny, SHIFT + NUDGE + dx + nx
            across = _means(cells * padded[y:y + height, x:x + width])  # (the seen cells'
            # mean is 0: the taught cells' own mean need not be taken off)
            spreads = there_spread[y:y + height:CELL[1], x:x + width:CELL[0]]
            np.maximum(best, across / np.maximum(spread * spreads, 1e-6), out=best)
    compared = (spread >= (SHADED_FLAT if shaded else FLAT)) & shown  # a flat cell: nothing
    return float(best[compared].min()) if compared.any() else 1.0


def hidden_cells(shown: np.ndarray) -> np.ndarray:
    """The cells (bool, ``GRID`` rows x columns) of which part is not shown, given what of the
    card shows on a finer grid over the same inside (``shown``: 1 where it shows, e.g. a look's
    cells, each side a multiple of ``GRID``'s)."""
    rows, cols = shown.shape
    blocks = shown.reshape(GRID[1], rows // GRID[1], GRID[0], cols // GRID[0])
    return blocks.min(axis=(1, 3)) < 1


def shadow_edge_cells(card: np.ndarray, dark_below: float) -> np.ndarray | None:
    """The cells (bool, ``GRID`` rows x columns) a shadow's edge crosses on the straightened
    ``card`` (BGR uint8), whose border turns darker than ``dark_below`` (grey level) once along
    its round and back once: a shadow comes from off the card, so its edge runs from one of
    those two places to the other (drawn straight between them, as wide as a blurred edge and
    a corner found off). None when the border turns dark more often or never: no one edge to
    leave out."""
    height, width = card.shape[:2]
    grey = cv2.cvtColor(card, cv2.COLOR_BGR2GRAY)
    inset = max(int(ROUND_INSET * width), 1)
    x0, y0, x1, y1 = inset, inset, width - 1 - inset, height - 1 - inset
    steps = [np.linspace(a, b, int(np.linalg.norm(np.subtract(b, a))), endpoint=False)
             for a, b in (((x0, y0), (x1, y0)), ((x1, y0), (x1, y1)), ((x1, y1), (x0, y1)),
                          ((x0, y1), (x0, y0)))]
    round_ = np.concatenate(steps).round().astype(int)  # the border's round, pixel by pixel
    light = cv2.medianBlur(grey[round_[:, 1], round_[:, 0]].reshape(1, -1), 5).ravel()
    dark = light < dark_below
    turns = np.flatnonzero(dark != np.roll(dark, 1))  # where the round turns dark or light
    if len(turns) != 2:
        return None
    inner = inside(card)
    scale = np.float32([SIZE[0] / inner.shape[1], SIZE[1] / inner.shape[0]])
    margin = np.float32([(width - inner.shape[1]) // 2, (height - inner.shape[0]) // 2])
    ends = [tuple(int(v) for v in ((round_[t] - margin) * scale).round()) for t in turns]
    edge = np.zeros(SIZE[::-1], np.uint8)
    cv2.line(edge, ends[0], ends[1], 1, 2 * EDGE_REACH + 1)
    return hidden_cells(1 - edge)


def _detail(picture: np.ndarray) -> np.ndarray:
    """``picture`` (float32) without what changes slowly across it (light, a shadow)."""
    return picture - cv2.GaussianBlur(picture, (0, 0), DETAIL_SIGMA)


def _means(picture: np.ndarray) -> np.ndarray:
    """The mean of each cell of ``picture`` (float32, the cells' grid exactly)."""
    return cv2.resize(picture, GRID, interpolation=cv2.INTER_AREA)
