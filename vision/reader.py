"""``read``: from one frame to a :class:`~vision.roll.Roll` for a die profile."""

from __future__ import annotations

import statistics
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path

import numpy as np

from . import quality
from .classify import FaceClassifier
from .colour import die_colour
from .detect import Blob, find_dice
from .features import describe
from .imageio import as_bgr, load_photo
from .net import NOT_A_DIE, DiceNets, Found, shipped
from .profile import PIPS, Profile, load_profile
from .roll import Die, Roll
from .table import load_table, tuned

NO_DICE = "no dice"
TOO_MANY = "more dice than expected"
NOT_TAUGHT = "profile has no taught faces"
UNKNOWN = "?"
BLUR_LIMIT = 0.13  # below this median sharpness (see quality.sharpness) the frame is blurred
CROWDED = 0.3  # a box this much covered by another die's box is a doubtful reading
SAME_DIE = 0.5  # of two boxes covering each other more than this, one is a second find of a die


def read(
    image: np.ndarray,
    profile: str | Profile,
    *,
    data_dir: Path | None = None,
    expected: int | None = None,
    nets: DiceNets | None = None,
    colours: bool = False,
) -> Roll:
    """Find the dice in a BGR ``image`` and read their top faces for ``profile``.

    ``profile`` is a profile or its name (taught faces are then loaded from ``data_dir``).
    The table's examples of the profile in ``data_dir`` (the dice the host confirmed there,
    :mod:`vision.table`) tune the detector and name the faces of dice the reader doubts.
    ``expected`` is how many dice were rolled, if known: more than that adds a note. A die whose
    confidence is below the profile's threshold is marked uncertain; a blurred frame marks every
    die uncertain. The roll is never empty-handed silently: no dice gives the note "no dice".
    ``nets`` replaces the shipped models (the benchmark reads each real photo with the model of
    the fold that never saw it). ``colours`` names each die's colour too (whose die it is, in
    games where each player rolls dice of their own colour).
    """
    if isinstance(profile, str):
        profile = load_profile(profile, data_dir)
    table = load_table(profile.name, data_dir)
    image = as_bgr(image)
    notes = quality.exposure_notes(image)
    if notes:
        return Roll(profile.name, (), tuple(notes))
    nets = tuned(nets or shipped(), table)
    if profile.kind == PIPS:
        found = nets.detect(image)
        dice = _read_pips(nets.classify(image, found), found, nets, profile)
    else:
        if not profile.examples:
            return Roll(profile.name, (), (NOT_TAUGHT,))
        classifier = profile.classifier
        blobs = find_dice(image, nets)
        vectors = describe(image, blobs)
        dice = [
            d
            for b, v in zip(blobs, vectors, strict=True)
            if (d := _read_learned(v, b, profile, classifier,
                                   lambda box=b.box: _no_die(image, box, nets)))
        ]
    dice = table.fitting(image, dice)
    if not dice:
        return Roll(profile.name, (), (NO_DICE,))
    covered = _covered(dice)
    dice = _one_per_die(_doubt_crowded(dice, covered), covered)
    if _blurred(image, dice):
        notes.append(quality.BLURRED)
        dice = [Die(d.face, d.confidence, d.box, True) for d in dice]
    if expected is not None and len(dice) > expected:
        notes.append(TOO_MANY)
    if colours:
        dice = [replace(d, colour=die_colour(image, d.box)) for d in dice]
    dice.sort(key=lambda d: (d.box[1], d.box[0]))
    return Roll(profile.name, tuple(dice), tuple(notes))


def read_photo(
    path: str | Path,
    profile: str | Profile,
    *,
    data_dir: Path | None = None,
    expected: int | None = None,
    nets: DiceNets | None = None,
    colours: bool = False,
) -> Roll:
    """:func:`read` of an image file, the boxes in the file's own pixels. A JPEG larger than
    its dice need is decoded shrunk (``vision.imageio.load_photo``): always a photo over 16 MP,
    and, once the table's examples of ``profile`` in ``data_dir`` know this table's dice, as
    far as the smallest of them keeps ``imageio.DIE_PIXELS`` pixels. Raises ``ImageError`` for
    a file that is no image."""
    if isinstance(profile, str):
        profile = load_profile(profile, data_dir)
    image, scale = load_photo(path, load_table(profile.name, data_dir).smallest())
    roll = read(image, profile, data_dir=data_dir, expected=expected, nets=nets,
                colours=colours)
    return roll.scaled(1 / scale) if scale < 1 else roll


def _doubt_crowded(dice: list[Die], covered: np.ndarray) -> list[Die]:
    """A box largely covered by another die's box is a second look at one die or spans two
    touching dice: its cut-out holds a neighbour's marks, so its reading is not trusted (the
    host is asked). On the real photos this turns a wrong face read at 0.99 into a question
    for 17 more dice in 1,487 (docs/vision-lab.md). ``covered``: ``_covered(dice)``."""
    crowded = covered > CROWDED
    return [Die(d.face, d.confidence, d.box, True) if doubt else d
            for d, doubt in zip(dice, crowded.any(axis=1), strict=True)]


def _one_per_die(dice: list[Die], covered: np.ndarray) -> list[Die]:
    """The dice with each die counted once: a die seen at a slant can be found twice, whole and
    by its top face, and of two boxes covering each other over ``SAME_DIE`` only the surer
    reading stays (still doubted: its box was crowded). On five folds this drops about half of
    the false finds on aws (precision .984 -> .993) and a quarter on roboflow (.886 -> .915),
    for one to three real dice of about 1,800 on each; the tray and the webcam have no such
    pairs (docs/vision-lab.md, "Pipeline"). ``covered``: ``_covered(dice)``, measured once for
    this and ``_doubt_crowded``."""
    same = np.maximum(covered, covered.T) > SAME_DIE
    kept: list[int] = []
    for i in sorted(range(len(dice)), key=lambda k: -dice[k].confidence):
        if not same[i, kept].any():
            kept.append(i)
    return [dice[i] for i in sorted(kept)]


def _covered(dice: list[Die]) -> np.ndarray:
    """The share of each die's box area (row) that each other die's box (column) covers, 0 for
    itself: all pairs at once, as a 12 MP photo can hold 200 finds."""
    x0, y0, x1, y1 = np.array([d.box for d in dice], np.int64).reshape(-1, 4).T
    width = np.minimum(x1[:, None], x1) - np.maximum(x0[:, None], x0)
    height = np.minimum(y1[:, None], y1) - np.maximum(y0[:, None], y0)
    area = ((x1 - x0) * (y1 - y0))[:, None]
    overlap = np.maximum(width, 0) * np.maximum(height, 0)
    share = np.divide(overlap, area, out=np.zeros(overlap.shape), where=area > 0)
    np.fill_diagonal(share, 0.0)
    return share


def _blurred(image: np.ndarray, dice: list[Die], sample: int = 5) -> bool:
    """Motion blur spreads over the whole frame: the median sharpness of a few dice tells
    (Python's median: numpy's costs a tenth of a millisecond on five numbers)."""
    step = max(1, len(dice) // sample)
    return statistics.median(quality.sharpness(image, d.box) for d in dice[::step]) < BLUR_LIMIT


def _read_pips(
    probs: np.ndarray, found: list[Found], nets: DiceNets, profile: Profile
) -> list[Die]:
    """Dice from the pip classifier; what it takes for "not a die" is left out.

    The confidence is the probability of the face read (measured to be well calibrated on
    photos the model never saw, see docs/vision-lab.md), mapped by the model's per-face ask
    thresholds when its file has them (``DiceNets.confidence``).
    """
    dice, classes = [], nets.classes
    for f, p in zip(found, probs, strict=True):
        best = int(np.argmax(p))
        if classes[best] == NOT_A_DIE:
            continue
        face = classes[best] if classes[best] in profile.faces else UNKNOWN
        confidence = nets.confidence(face, float(p[best])) if face != UNKNOWN else 0.0
        dice.append(Die(face, confidence, f.box, confidence < profile.threshold))
    return dice


def _no_die(image: np.ndarray, box: tuple[int, int, int, int], nets: DiceNets) -> float:
    """The pip classifier's probability that the find in ``box`` is no die (it does not depend
    on the profile: it learned the detector's false finds on trays)."""
    return float(nets.classify(image, [Found(box, 1.0)])[0, nets.classes.index(NOT_A_DIE)])


def _read_learned(
    vector: np.ndarray | None,
    blob: Blob,
    profile: Profile,
    classifier: FaceClassifier,
    not_a_die: Callable[[], float],
) -> Die | None:
    """A die from the description of its face (``vector``) and the taught faces; ``None`` when
    its face cannot be described at all, or when it is no die: far from every taught face, and
    taken for no die by the pip classifier (``not_a_die``, asked only of finds already far from
    every taught face), see ``FaceClassifier.guess``.
    """
    guess = classifier.guess(vector, not_a_die) if vector is not None else None
    if guess is None:
        return None
    return Die(guess.face, guess.confidence, blob.box, guess.confidence < profile.threshold)
