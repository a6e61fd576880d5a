"""Teaching a learned profile what one face looks like under the owner's camera and light."""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path

import numpy as np

from .detect import find_dice
from .features import describe
from .imageio import as_bgr
from .net import shipped
from .profile import Profile, ProfileError, load_profile, save_taught


def face_vectors(images: Iterable[np.ndarray]) -> list[list[float]]:
    """Feature vectors of every die found in ``images`` (all showing the same face)."""
    vectors = []
    for image in images:
        image = as_bgr(image)
        for vector in describe(image, find_dice(image, shipped())):
            if vector is not None:
                vectors.append(vector.tolist())
    return vectors


def teach(profile: str | Profile, face: str, images: Iterable[np.ndarray], data_dir: Path) -> int:
    """Learn ``face`` of ``profile`` from photos where every die shows that face.

    The examples are added to ``<data_dir>/vision/<profile>.json``; returns how many dice were
    learned. Raises :class:`ProfileError` for a pip profile, an unknown face or photos without dice.
    """
    if isinstance(profile, str):
        profile = load_profile(profile, data_dir)
    vectors = face_vectors(images)
    if not vectors:
        raise ProfileError("teach.no_die")
    save_taught(profile, face, vectors, data_dir)
    return len(vectors)
