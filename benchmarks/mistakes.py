"""Contact sheets of the dice a model got wrong (``benchmarks/vision.py --mistakes DIR``).

Figures say how much is lost; a sheet shows what: the dark dice read wrong, the heaps of
touching dice missed, the board's number tokens taken for dice. Every lead in
docs/vision-lab.md started from such a sheet.

One sheet per set and transform, ``<set>-<transform>.png``: a tile per mistake, the costly ones
first (a face read wrong or a die seen where there is none, without asking the host), then the
dice asked about and read wrong, the dice missed and the false finds asked about. Each tile is
the die with some of its surroundings, its box framed in the colour of its kind, and a caption:
``5>3 .97`` (labelled 5, read 3 at .97), ``5>3 .61?`` (asked), ``5 miss``, ``>3 .97`` (no
die there). Beside it, ``<set>-<transform>.txt`` lists the tiles row by row with their photo and
box, to find the photo again.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import cv2
import numpy as np

from vision.evaluate import FALSE, MISSED, WRONG, Mistake

TILE = 96  # pixels of a tile's side
COLUMNS = 12
MOST = 240  # tiles on one sheet (the rest are counted in its list)
CONTEXT = 1.8  # a tile's side, in sides of the die's box
COLOURS = {WRONG: (0, 0, 255), MISSED: (255, 128, 0), FALSE: (255, 0, 255)}  # BGR
ORDER = {WRONG: 1, MISSED: 2, FALSE: 3}


@dataclass(frozen=True)
class Seen:
    """A mistake and where it was made: the photo's name and fold, and its tile (:func:`tile`,
    cut at once: a row of 12 MP frames is not kept in memory for its sheet)."""

    stem: str
    fold: int
    mistake: Mistake
    tile: np.ndarray


def seen_in(stem: str, fold: int, image: np.ndarray, m: Mistake) -> Seen:
    """The mistake ``m`` made on photo ``stem`` of ``fold``, read as ``image``."""
    return Seen(stem, fold, m, tile(image, m))


def caption(m: Mistake) -> str:
    """The tile's caption: labelled face, ``>``, read face and confidence, followed by ``?``
    when the host is asked; ``miss`` when the die was not found."""
    if m.kind == MISSED:
        return f"{m.truth} miss"
    said = f"{m.confidence:.2f}".lstrip("0") + ("?" if m.asked else "")
    return f"{m.truth}>{m.read} {said}"


def tile(image: np.ndarray, m: Mistake) -> np.ndarray:
    """The die of ``m`` with its surroundings, ``TILE`` pixels square, its box framed and the
    caption written below it."""
    x0, y0, x1, y1 = m.box
    half = max(4, round(CONTEXT * max(x1 - x0, y1 - y0) / 2))
    cx, cy = (x0 + x1) // 2, (y0 + y1) // 2
    padded = cv2.copyMakeBorder(image, half, half, half, half, cv2.BORDER_CONSTANT)
    cut = padded[cy : cy + 2 * half, cx : cx + 2 * half]
    k = TILE / (2 * half)
    out = cv2.resize(cut, (TILE, TILE), interpolation=cv2.INTER_AREA if k < 1 else cv2.INTER_LINEAR)
    corner = (round((x0 - cx + half) * k), round((y0 - cy + half) * k))
    far = (round((x1 - cx + half) * k), round((y1 - cy + half) * k))
    cv2.rectangle(out, corner, far, COLOURS[m.kind], 1)
    cv2.rectangle(out, (0, TILE - 14), (TILE, TILE), (0, 0, 0), -1)
    cv2.putText(out, caption(m), (2, TILE - 3), cv2.FONT_HERSHEY_SIMPLEX, 0.4, (255, 255, 255), 1,
                cv2.LINE_AA)
    return out


def ordered(seen: list[Seen]) -> list[Seen]:
    """The costly mistakes first, then by kind, then by photo."""
    return sorted(seen, key=lambda s: (not s.mistake.costly, ORDER[s.mistake.kind], s.stem))


def write_sheet(folder: Path, name: str, seen: list[Seen]) -> Path:
    """Write the sheet ``folder/name.png`` of the first ``MOST`` mistakes (in
    :func:`ordered` order) and its list ``folder/name.txt``; returns the sheet's path."""
    folder.mkdir(parents=True, exist_ok=True)
    shown = ordered(seen)
    tiles = [s.tile for s in shown[:MOST]]
    tiles += [np.zeros((TILE, TILE, 3), np.uint8)] * (-len(tiles) % COLUMNS)
    rows = [np.hstack(tiles[i : i + COLUMNS]) for i in range(0, len(tiles), COLUMNS)]
    sheet = np.vstack(rows) if rows else np.zeros((TILE, TILE * COLUMNS, 3), np.uint8)
    path = folder / f"{name}.png"
    cv2.imwrite(str(path), sheet)
    lines = [f"# {name}: {len(seen)} mistakes, the first {min(len(seen), MOST)} on {path.name}",
             "# row col photo fold kind labelled read confidence asked box"]
    for i, s in enumerate(shown):
        m = s.mistake
        where = f"{i // COLUMNS} {i % COLUMNS}" if i < MOST else "- -"
        lines.append(f"{where} {s.stem} {s.fold} {m.kind} {m.truth or '-'} {m.read or '-'} "
                     f"{m.confidence:.3f} {'yes' if m.asked else 'no'} {' '.join(map(str, m.box))}")
    path.with_suffix(".txt").write_text("\n".join(lines) + "\n")
    return path
