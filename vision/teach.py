"""Teaching a learned profile what one face looks like under the owner's camera and light.

The owner says how many dice each photo shows: the detector's clearest finds up to that number
are learned and anything else it finds (a shadow, a token, the tray's corner) is not, so a
stray detection never becomes an example of the face. A photo where fewer dice were found than
the owner said is reported, never silently passed over.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from .detect import die_pixels
from .features import describe
from .imageio import as_bgr
from .net import shipped
from .profile import Profile, ProfileError, load_profile, save_taught


@dataclass(frozen=True)
class Taught:
    """What a teaching learned: ``learned`` dice in all; per photo, the dice ``found`` there
    and how many of them were ``kept`` (at most the number the owner gave)."""

    learned: int
    found: tuple[int, ...]
    kept: tuple[int, ...]


def photo_dice(image: np.ndarray) -> list[tuple[tuple[int, int, int, int], list[float] | None]]:
    """Every die the detector finds in one photo, clearest first: its box and its feature
    vector (``None`` for a die whose face cannot be described), so a caller can learn exactly
    the dice the owner named (the host page's dice teaching)."""
    image = as_bgr(image)
    found = sorted(shipped().detect(image), key=lambda f: -f.score)
    blobs = [die_pixels(image, f.box) for f in found]
    vectors = iter(describe(image, [b for b in blobs if b is not None]))
    dice = []
    for f, blob in zip(found, blobs, strict=True):
        vector = None if blob is None else next(vectors)
        dice.append((f.box if blob is None else blob.box,
                     None if vector is None else vector.tolist()))
    return dice


def named_face(profile: Profile, vector: list[float]) -> str | None:
    """The face the reader names for a die of ``profile`` described by ``vector`` (a vector of
    :func:`photo_dice`), or ``None`` when it would ask (unsure, far from every taught face,
    nothing taught): what the host page shows beside each die of a photo, without reading the
    photo twice."""
    if not profile.examples:
        return None
    guess = profile.classifier.guess(np.asarray(vector, np.float32))
    return guess.face if guess is not None and guess.confidence >= profile.threshold else None


def photo_vectors(image: np.ndarray, count: int | None = None) -> tuple[list[list[float]], int]:
    """Feature vectors of the ``count`` clearest dice in one photo (every die when ``None``),
    and how many dice the detector found there."""
    dice = photo_dice(image)
    return [v for _, v in dice[:count] if v is not None], len(dice)


def face_vectors(images: Iterable[np.ndarray]) -> list[list[float]]:
    """Feature vectors of every die found in ``images`` (all showing the same face)."""
    return [v for image in images for v in photo_vectors(image)[0]]


def teach(profile: str | Profile, face: str, images: Iterable[np.ndarray], data_dir: Path,
          count: int | None = None) -> Taught:
    """Learn ``face`` of ``profile`` from photos where every die shows that face.

    ``count`` is how many dice each photo shows: only the detector's ``count`` clearest finds of
    a photo are learned. The examples are added to ``<data_dir>/vision/<profile>.json``.
    Raises :class:`ProfileError` for a pip profile, an unknown face, a count below one or
    photos without dice (then nothing is learned).
    """
    if isinstance(profile, str):
        profile = load_profile(profile, data_dir)
    if count is not None and count < 1:
        raise ProfileError("teach.bad_count", count=count)
    vectors, found, kept = [], [], []
    for image in images:
        mine, seen = photo_vectors(image, count)
        vectors += mine
        found.append(seen)
        kept.append(len(mine))
    if not vectors:
        raise ProfileError("teach.no_die")
    save_taught(profile, {face: vectors}, data_dir)
    return Taught(len(vectors), tuple(found), tuple(kept))
