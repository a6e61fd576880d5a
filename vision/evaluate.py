"""Scoring a reader against labelled frames: one-to-one matching and the figures of the benchmark.

Shared by ``benchmarks/vision.py`` and the accuracy tests so both count the same way.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from .roll import Box, Roll


@dataclass(frozen=True)
class Truth:
    """A labelled die: its face id and its box in pixels."""

    face: str
    box: Box


@dataclass(frozen=True)
class Sample:
    """A labelled frame: where it is (or ``None`` for a render) and its dice."""

    name: str
    truths: tuple[Truth, ...]


def load_yolo_labels(path: Path, width: int, height: int) -> tuple[Truth, ...]:
    """Read ``c xc yc w h`` lines (normalised, face = c + 1) as pixel boxes."""
    truths = []
    for line in path.read_text().split("\n"):
        if not line.strip():
            continue
        c, xc, yc, w, h = line.split()
        xc, w = float(xc) * width, float(w) * width
        yc, h = float(yc) * height, float(h) * height
        box = (round(xc - w / 2), round(yc - h / 2), round(xc + w / 2), round(yc + h / 2))
        truths.append(Truth(str(int(c) + 1), box))
    return tuple(truths)


def iou(a: Box, b: Box) -> float:
    """Intersection over union of two boxes."""
    ix = max(0, min(a[2], b[2]) - max(a[0], b[0]))
    iy = max(0, min(a[3], b[3]) - max(a[1], b[1]))
    inter = ix * iy
    union = (a[2] - a[0]) * (a[3] - a[1]) + (b[2] - b[0]) * (b[3] - b[1]) - inter
    return inter / union if union > 0 else 0.0


def _centre_inside(inner: Box, outer: Box) -> bool:
    cx, cy = (inner[0] + inner[2]) / 2, (inner[1] + inner[3]) / 2
    return outer[0] <= cx <= outer[2] and outer[1] <= cy <= outer[3]


def match(
    found: Sequence[Box], truths: Sequence[Box], top_faces: bool = False
) -> list[tuple[int, int]]:
    """Pair found boxes with labelled boxes one to one, best overlap first.

    A pair is allowed when IoU >= 0.5 or the found centre lies inside the labelled box. Where
    the labels frame the top face only (``top_faces``: a set photographed at a slant, whose
    boxes leave out the die's sides), a pair is also allowed when the labelled centre lies
    inside the found box: a find around the whole die holds its top face, but its own centre
    lies lower, on the die's side. Returns ``(found index, truth index)`` pairs.
    """
    candidates = []
    for i, f in enumerate(found):
        for j, t in enumerate(truths):
            overlap = iou(f, t)
            if overlap >= 0.5 or _centre_inside(f, t) or (top_faces and _centre_inside(t, f)):
                candidates.append((overlap, i, j))
    candidates.sort(reverse=True)
    used_f, used_t, pairs = set(), set(), []
    for _, i, j in candidates:
        if i not in used_f and j not in used_t:
            used_f.add(i)
            used_t.add(j)
            pairs.append((i, j))
    return pairs


MISSED = "missed"
UNCLEAR = "unclear"  # a die its labeller could not read: neither counted right nor wrong
FALSE = "false"  # a find that matches no labelled die
WRONG = "wrong"  # a labelled die found and read as another face


def judged(
    roll: Roll, truths: Sequence[Truth], top_faces: bool = False
) -> tuple[Roll, list[Truth], list[tuple[int, int]]]:
    """A frame as the benchmark judges it: the roll and the labelled dice without the dice
    labelled :data:`UNCLEAR` and the finds lying on them (they count neither way), and the
    pairs :func:`match` makes of the rest."""
    unclear = [t.box for t in truths if t.face == UNCLEAR]
    if unclear:
        there = {i for i, _ in match([d.box for d in roll.dice], unclear, top_faces)}
        roll = Roll(roll.profile, tuple(d for i, d in enumerate(roll.dice) if i not in there),
                    roll.notes)
    truths = [t for t in truths if t.face != UNCLEAR]
    return roll, truths, match([d.box for d in roll.dice], [t.box for t in truths], top_faces)


@dataclass(frozen=True)
class Mistake:
    """One way a reading went wrong on a labelled frame, to be looked at (``benchmarks/vision.py
    --mistakes``): ``kind`` is :data:`MISSED`, :data:`FALSE` or :data:`WRONG`; ``box`` the
    labelled box, or the find's for a false find; ``truth`` and ``read`` the faces (``""``
    where there is none); ``asked`` whether the reader marked the die uncertain."""

    kind: str
    box: Box
    truth: str
    read: str
    confidence: float
    asked: bool

    @property
    def costly(self) -> bool:
        """A face read wrong, or a die seen where there is none, without asking the host."""
        return self.kind != MISSED and not self.asked


def mistakes(roll: Roll, truths: Sequence[Truth], top_faces: bool = False) -> list[Mistake]:
    """What a reading of one labelled frame got wrong, counted as :class:`Score` counts it:
    labelled dice missed, finds matching no labelled die, dice read as another face."""
    roll, truths, pairs = judged(roll, truths, top_faces)
    by_truth = {j: roll.dice[i] for i, j in pairs}
    found = {i for i, _ in pairs}
    out = []
    for j, truth in enumerate(truths):
        die = by_truth.get(j)
        if die is None:
            out.append(Mistake(MISSED, truth.box, truth.face, "", 0.0, False))
        elif die.face != truth.face:
            out.append(Mistake(WRONG, truth.box, truth.face, die.face, die.confidence,
                               die.uncertain))
    out += [Mistake(FALSE, d.box, "", d.face, d.confidence, d.uncertain)
            for i, d in enumerate(roll.dice) if i not in found]
    return out


@dataclass
class Score:
    """Running totals over frames; ``add`` one frame at a time, then read the ratios.
    ``top_faces``: the labels frame the top face only (see :func:`match`)."""

    top_faces: bool = False
    found: int = 0
    labelled: int = 0
    matched: int = 0
    correct: int = 0
    certain_wrong: int = 0
    uncertain: int = 0
    frames: int = 0
    exact_frames: int = 0
    confusion: Counter = field(default_factory=Counter)

    def add(self, roll: Roll, truths: Sequence[Truth]) -> list[tuple[str, str]]:
        """Score one frame; returns its ``(truth face, read face or "missed")`` pairs.

        Dice labelled :data:`UNCLEAR` are left out, and so are the dice read where they lie.
        """
        roll, truths, pairs = judged(roll, truths, self.top_faces)
        by_truth = {j: roll.dice[i] for i, j in pairs}
        outcomes = []
        for j, truth in enumerate(truths):
            die = by_truth.get(j)
            read = die.face if die else MISSED
            outcomes.append((truth.face, read))
            if die and die.face != truth.face and not die.uncertain:
                self.certain_wrong += 1
        self.uncertain += sum(d.uncertain for d in roll.dice)
        self.found += len(roll.dice)
        self.labelled += len(truths)
        self.matched += len(pairs)
        self.correct += sum(t == r for t, r in outcomes)
        self.frames += 1
        self.exact_frames += all(t == r for t, r in outcomes) and len(roll.dice) == len(truths)
        self.confusion.update(outcomes)
        return outcomes

    @property
    def precision(self) -> float:
        """Share of found dice that match a labelled die."""
        return self.matched / self.found if self.found else 1.0

    @property
    def recall(self) -> float:
        """Share of labelled dice that were found."""
        return self.matched / self.labelled if self.labelled else 1.0

    @property
    def uncertain_share(self) -> float:
        """Share of found dice marked uncertain (the host is asked about those)."""
        return self.uncertain / self.found if self.found else 0.0

    @property
    def face_accuracy(self) -> float:
        """Share of labelled dice read with the right face (a missed die counts as wrong)."""
        return self.correct / self.labelled if self.labelled else 1.0

    @property
    def exact_roll_accuracy(self) -> float:
        """Share of frames where every die was found and read right, with nothing extra."""
        return self.exact_frames / self.frames if self.frames else 1.0

    def confusion_table(self, faces: Iterable[str]) -> str:
        """The confusion counts as text: one row per true face, one column per read face."""
        faces = list(faces)
        seen = {r for _, r in self.confusion} - set(faces) - {MISSED}
        cols = faces + sorted(seen) + [MISSED]
        width = max(7, *(len(c) + 1 for c in cols))
        lines = ["truth\\read".ljust(12) + "".join(c.rjust(width) for c in cols)]
        for t in faces:
            row = "".join(str(self.confusion[(t, r)]).rjust(width) for r in cols)
            lines.append(t.ljust(12) + row)
        return "\n".join(lines)
