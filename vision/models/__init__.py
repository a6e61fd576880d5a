"""Trained model files (JSON with ONNX bytes) and how the real photos are split into folds.

``dice.json`` is used by :func:`vision.read` (trained without fold 0 of every set, which the
tests read); the benchmark's ``benchmarks/models/fold<k>.json`` is a model of a named recipe
trained without the photos of fold k, used only to measure on photos it never saw (not shipped
in the package).
``faces.json`` is the face embedder of the learned (colour and symbol) profiles.
"""

from __future__ import annotations

import zlib

FOLDS = 5


def fold_of(name: str) -> int:
    """The fold a labelled photo belongs to, from a checksum of its name (stable, by image)."""
    return zlib.crc32(name.encode()) % FOLDS
