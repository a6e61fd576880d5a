"""Trained model files (JSON with ONNX bytes) and how the real photos are split into folds.

``dice.json`` is trained on all the data and used by :func:`vision.read`; the benchmark's
``benchmarks/models/fold<k>.json`` is trained without the photos of fold k and is used only to
measure on photos it never saw (not shipped in the package).
``faces.json`` is the face embedder of the learned (colour and symbol) profiles.
"""

from __future__ import annotations

import zlib

FOLDS = 5


def fold_of(name: str) -> int:
    """The fold a labelled photo belongs to, from a checksum of its name (stable, by image)."""
    return zlib.crc32(name.encode()) % FOLDS
