"""Calibrate the pip classifier's ask threshold per face on photos the models never saw.

    .venv/bin/python benchmarks/ask.py [--sets ...] [--transforms ...] [--limit N]
        [--save FILE] [--load FILE ...] [--write FILE ...] [--model FILE] [--sweep T ...]

Every photo of the benchmark's rows (``benchmarks/vision.py``: each set's photos read by a model
of the shipped recipe that never saw them, after each transform) is read with the classifier's
own probabilities. For each face, the threshold is the lowest probability (on a grid of 0.01,
not under ``FLOOR``) at which no die read as that face was read wrong with a probability from
there up to ``ASKED_AT``, on any row: no row has a die read wrong and not asked that it did not
have at ``ASKED_AT``, and every die read right in between is no longer asked about.

The thresholds are fitted on every fold and printed with what they give on each row, then
fitted on four folds and counted on the fifth (each fold in turn, pooled): the figure to trust,
since a threshold set on the photos it is judged on flatters itself. ``--write`` stores them as
``ask`` in model files of the recipe (``vision/models/dice.json``, the held-out fold models in
``benchmarks/models``): ``DiceNets.confidence`` maps each face's threshold to ``ASKED_AT``.
``--save`` keeps the readings (JSON lines) and ``--load`` fits from saved readings instead of
reading the photos again: one run per set can then run at once, and be pooled. ``--model``
reads with a candidate recipe's model file (its fold models beside it) instead of the shipped one.
``--sweep`` adds, per row, what one threshold for every face gives at each of the levels named:
the share asked and the dice read wrong and not asked (how a classifier trades questions for
silent mistakes: a sharper one asks less at 0.9 and must be compared at as many mistakes).
"""

from __future__ import annotations

import argparse
import json
import sys
from collections import defaultdict
from dataclasses import asdict, dataclass, replace
from pathlib import Path

import cv2
import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from benchmarks.vision import TRANSFORMS, unseen_frames  # noqa: E402
from vision import load_profile, read  # noqa: E402
from vision.datasets import SETS, photo_fold, top_faces  # noqa: E402
from vision.evaluate import MISSED, judged  # noqa: E402
from vision.net import ASKED_AT, shipped  # noqa: E402
from vision.reader import UNKNOWN  # noqa: E402

FLOOR = 0.5  # no face is read surely under this probability, whatever the photos say
STEP = 0.01  # the grid the thresholds are chosen on
SHIPPED = Path(__file__).resolve().parent / "models" / "shipped.json"


@dataclass(frozen=True)
class Reading:
    """One die of a row: the face read (``MISSED``: a labelled die not found), the
    classifier's probability, whether it is asked about whatever its probability (crowded,
    blurred frame), whether its face is wrong (a die on a labelled die of another face), and
    whether it lies on a labelled die (``False``: a false find)."""

    row: str
    fold: int
    face: str
    probability: float
    forced: bool
    wrong: bool
    labelled: bool = True


def readings(
    sets: list[str], transforms: list[str], limit: int, model: Path = SHIPPED
) -> list[Reading]:
    """Every die found on the rows, read with the probabilities of the classifier alone, each
    photo by the model of ``model``'s recipe that never saw it."""
    profile = replace(load_profile("d6"), threshold=0.0)  # asked only where it must be
    found = []
    for name in sets:
        frames = unseen_frames(name, limit, model)
        for transform in transforms:
            for (stem, image, truths), nets in frames:
                seen, labels = TRANSFORMS[transform](image, truths)
                raw = replace(nets or shipped(), ask={})
                roll, kept, pairs = judged(read(seen, profile, nets=raw), labels,
                                           top_faces(name))
                truth = {i: kept[j].face for i, j in pairs}
                row, fold = f"{name} | {transform}", photo_fold(stem)
                found += [Reading(row, fold, d.face, d.confidence, d.uncertain or d.face == UNKNOWN,
                                  i in truth and truth[i] != d.face, i in truth)
                          for i, d in enumerate(roll.dice)]
                found += [Reading(row, fold, MISSED, 0.0, True, False)
                          for _ in range(len(kept) - len(pairs))]
    return found


def thresholds(found: list[Reading]) -> dict[str, float]:
    """Per face, the lowest threshold on the grid from ``FLOOR`` that lets no die read wrong
    from there to ``ASKED_AT`` go unasked."""
    worst: dict[str, float] = defaultdict(lambda: FLOOR - STEP)
    faces = {r.face for r in found if r.face not in (UNKNOWN, MISSED)}
    for r in found:
        if r.wrong and not r.forced and r.probability < ASKED_AT:
            worst[r.face] = max(worst[r.face], r.probability)
    return {face: round(float(min(ASKED_AT, np.floor(worst[face] / STEP) * STEP + STEP)), 2)
            for face in sorted(faces)}


def asked(r: Reading, ask: dict[str, float]) -> bool:
    """Whether the host is asked about ``r`` with the thresholds ``ask``."""
    return r.forced or r.probability < ask.get(r.face, ASKED_AT)


def table(found: list[Reading], ask_of: dict[int, dict[str, float]], title: str) -> str:
    """Per row: precision, recall, the share of found dice asked about and the labelled dice
    read wrong and not asked (their share and count), and the share read right and not asked,
    at ``ASKED_AT`` → with the thresholds of each fold (``ask_of``)."""
    lines = [f"| set | transform | labelled dice | precision | recall | asked: {ASKED_AT} → "
             f"{title} | wrong, not asked | read right, not asked |", "|---" * 8 + "|"]
    flat = dict.fromkeys(ask_of, {})
    for name, rs in _by_row(found).items():
        seen = [r for r in rs if r.face != MISSED]
        labelled = sum(r.labelled for r in rs)
        figures = []
        for ask in (flat, ask_of):
            sure = [r for r in seen if r.labelled and not asked(r, ask[r.fold])]
            wrong = sum(r.wrong for r in sure)
            figures.append((np.mean([asked(r, ask[r.fold]) for r in seen]), wrong,
                            wrong / labelled, (len(sure) - wrong) / labelled))
        (a0, w0, s0, r0), (a1, w1, s1, r1) = figures
        lines.append(f"| {name} | {labelled} | {np.mean([r.labelled for r in seen]):.3f} | "
                     f"{sum(r.labelled for r in seen) / labelled:.3f} | {a0:.1%} → {a1:.1%} | "
                     f"{s0:.2%} ({w0}) → {s1:.2%} ({w1}) | {r0:.3f} → {r1:.3f} |")
    return "\n".join(lines)


def sweep(found: list[Reading], levels: list[float]) -> str:
    """Per row, the share of found dice asked about and the labelled dice read wrong and not
    asked, with one threshold for every face at each of ``levels``."""
    lines = ["| set | transform | " + " | ".join(f"{t}" for t in levels) + " |",
             "|---" * (2 + len(levels)) + "|"]
    for name, rs in _by_row(found).items():
        seen = [r for r in rs if r.face != MISSED]
        cells = []
        for level in levels:
            ask = dict.fromkeys({r.face for r in seen}, level)
            wrong = sum(r.wrong for r in seen if r.labelled and not asked(r, ask))
            cells.append(f"{np.mean([asked(r, ask) for r in seen]):.1%} / {wrong}")
        lines.append(f"| {name} | " + " | ".join(cells) + " |")
    return "\n".join(lines)


def _by_row(found: list[Reading]) -> dict[str, list[Reading]]:
    """The readings of each row (set and transform), in the order the rows were read."""
    rows: dict[str, list[Reading]] = defaultdict(list)
    for r in found:
        rows[r.row].append(r)
    return rows


def write(paths: list[Path], ask: dict[str, float]) -> None:
    """Store ``ask`` in each model file (its other keys kept as they are)."""
    for path in paths:
        model = json.loads(path.read_text())
        model["ask"] = ask
        path.write_text(json.dumps(model) + "\n")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--sets", nargs="+", choices=list(SETS), default=list(SETS))
    parser.add_argument("--transforms", nargs="+", choices=list(TRANSFORMS),
                        default=list(TRANSFORMS))
    parser.add_argument("--limit", type=int, default=0, help="photos per set (0: all)")
    parser.add_argument("--save", type=Path, help="keep the readings in this file")
    parser.add_argument("--load", nargs="+", type=Path, default=[], metavar="FILE",
                        help="fit from these saved readings instead of reading the photos")
    parser.add_argument("--write", nargs="*", type=Path, default=[], metavar="FILE",
                        help="model files to store the thresholds in")
    parser.add_argument("--model", type=Path, default=SHIPPED,
                        help="a recipe's model file, its fold models beside it (default: the "
                        "shipped recipe's)")
    parser.add_argument("--sweep", nargs="+", type=float, default=[], metavar="T",
                        help="also print each row at these thresholds, one for every face")
    args = parser.parse_args(argv)
    cv2.setNumThreads(1)
    if args.load:
        found = [Reading(**json.loads(line)) for path in args.load
                 for line in path.read_text().splitlines()]
    else:
        found = readings(args.sets, args.transforms, args.limit, args.model)
    if args.save:
        args.save.write_text("".join(json.dumps(asdict(r)) + "\n" for r in found))
    folds = sorted({r.fold for r in found})
    fitted = thresholds(found)
    print(f"thresholds fitted on every fold: {fitted}")
    print(table(found, dict.fromkeys(folds, fitted), "fitted on all"))
    held_out = {k: thresholds([r for r in found if r.fold != k]) for k in folds}
    for k, ask in held_out.items():
        print(f"fitted without fold {k}: {ask}")
    print(table(found, held_out, "fold held out"))
    if args.sweep:
        print(f"one threshold for every face: asked / wrong and not asked\n"
              f"{sweep(found, args.sweep)}")
    write(args.write, fitted)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
