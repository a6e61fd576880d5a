"""``read``: from one frame to a :class:`~vision.roll.Roll` for a die profile."""

from __future__ import annotations

from pathlib import Path

import numpy as np

from . import quality
from .classify import REJECT_DISTANCE, FaceClassifier
from .detect import Blob, find_dice
from .features import describe
from .imageio import as_bgr
from .pips import read_pips
from .profile import PIPS, Profile, load_profile
from .roll import Die, Roll

NO_DICE = "no dice"
TOO_MANY = "more dice than expected"
NOT_TAUGHT = "profile has no taught faces"
UNKNOWN = "?"
BLUR_LIMIT = 0.13  # below this median sharpness (see quality.sharpness) the frame is blurred


def read(
    image: np.ndarray,
    profile: str | Profile,
    *,
    data_dir: Path | None = None,
    expected: int | None = None,
) -> Roll:
    """Find the dice in a BGR ``image`` and read their top faces for ``profile``.

    ``profile`` is a profile or its name (taught faces are then loaded from ``data_dir``).
    ``expected`` is how many dice were rolled, if known: more than that adds a note. A die whose
    confidence is below the profile's threshold is marked uncertain; a blurred frame marks every
    die uncertain. The roll is never empty-handed silently: no dice gives the note "no dice".
    """
    if isinstance(profile, str):
        profile = load_profile(profile, data_dir)
    image = as_bgr(image)
    notes = quality.exposure_notes(image)
    if notes:
        return Roll(profile.name, (), tuple(notes))
    detection = find_dice(image)
    if profile.kind == PIPS:
        dice = [d for d in (_read_pips(image, b, profile) for b in detection.blobs) if d]
    else:
        if not profile.examples:
            return Roll(profile.name, (), (NOT_TAUGHT,))
        classifier = FaceClassifier(profile.examples)
        dice = [d for b in detection.blobs if (d := _read_learned(image, b, profile, classifier))]
    if not dice:
        return Roll(profile.name, (), (NO_DICE,))
    blobs = {d.box: b for b in detection.blobs for d in dice if d.box == b.box}
    if float(np.median([quality.sharpness(image, blobs[d.box]) for d in dice])) < BLUR_LIMIT:
        notes.append(quality.BLURRED)
        dice = [Die(d.face, d.confidence, d.box, True) for d in dice]
    if expected is not None and len(dice) > expected:
        notes.append(TOO_MANY)
    dice.sort(key=lambda d: (d.box[1], d.box[0]))
    return Roll(profile.name, tuple(dice), tuple(notes))


def _read_pips(image: np.ndarray, blob: Blob, profile: Profile) -> Die | None:
    """A die from its pips; ``None`` when the blob shows no pip at all (not a die)."""
    pips = read_pips(image, blob)
    if pips.count == 0:
        return None
    face = str(pips.count) if str(pips.count) in profile.faces else UNKNOWN
    confidence = pips.confidence if face != UNKNOWN else 0.0
    return Die(face, confidence, blob.box, confidence < profile.threshold)


def _read_learned(
    image: np.ndarray, blob: Blob, profile: Profile, classifier: FaceClassifier
) -> Die | None:
    """A die from its taught faces; ``None`` when it looks like none of them (not a die)."""
    vector = describe(image, blob)
    guess = classifier.guess(vector) if vector is not None else None
    if guess is None or guess.distance > REJECT_DISTANCE:
        return None
    return Die(guess.face, guess.confidence, blob.box, guess.confidence < profile.threshold)
