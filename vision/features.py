"""Describing a die's top face for faces learned from photos (colour and symbol dice).

The description must not change when the die turns, so it uses colours (of the body and of the
marks), how much of the face the marks cover, the marks sampled on rings around their own centre
and reduced, ring by ring, to the magnitudes of their angular Fourier terms (a turn of the die
only shifts each ring, which leaves those magnitudes unchanged, while a bar, a triangle, a cross
and a ring differ there even when they cover the same area), how many separate marks there are,
and three rotation-invariant moments of their shape. To that hand-made part is appended the face
embedder's description (``vision.net.embed``, a small network trained on many profiles' faces):
on the synthetic dice it tells apart faces the hand-made part confuses, and the hand-made part
keeps dice the network never saw readable (see ``benchmarks/train_vision.py --faces-without``).
"""

from __future__ import annotations

import hashlib
from functools import cache

import cv2
import numpy as np

from .detect import Blob
from .marks import cut, mark_mask
from .net import EMBED, embed, read_model_file

RINGS = 5  # radial rings of the polar sampling, out to half a die side
ANGLES = 32  # samples around each ring
ORDERS = 5  # angular Fourier orders kept per ring (0 = coverage of the ring)
HAND_FEATURES = 6 + 1 + RINGS * ORDERS + 1 + 3
FEATURES = HAND_FEATURES + EMBED
EMBED_WEIGHT = 10.0  # feature units per unit of the (unit-length) embedding
# Divisors that bring each feature to about one unit per clearly visible difference.
SCALES = np.array(
    [12, 6, 6, 12, 6, 6, 0.05] + [0.15] * (RINGS * ORDERS) + [1.0] + [0.6, 1.5, 1.5], np.float32
)


@cache
def version() -> str:
    """What a feature vector means in this version: its length, the embedder that made its
    last ``EMBED`` numbers (a digest of ``models/faces.json``) and the cut-outs it was shown
    (``wide``: turned ones and wider mirrored ones, since issue 16). Vectors of another version
    are not comparable with today's (a retrained embedder keeps the length but not the meaning),
    so taught faces are stored with it and refused when it differs."""
    digest = hashlib.sha256(read_model_file("faces.json")["embedder"].encode()).hexdigest()
    return f"{FEATURES}-{digest[:12]}-wide"


def describe(
    image: np.ndarray, blobs: list[Blob], hands: list[np.ndarray | None] | None = None
) -> list[np.ndarray | None]:
    """The feature vector of the face on top of each of ``blobs``, already scaled (``None`` for
    a face that cannot be read): the hand-made description, then the embedding. ``hands``:
    their hand-made parts (:func:`hand_made`) when already known; only the faces that can be
    read are then shown to the embedder."""
    if hands is None:
        hands = hand_made(image, blobs)
    read = [b.box for b, hand in zip(blobs, hands, strict=True) if hand is not None]
    embeddings = iter(embed(image, read) * EMBED_WEIGHT)
    return [None if hand is None else np.concatenate([hand, next(embeddings)]) for hand in hands]


def hand_made(image: np.ndarray, blobs: list[Blob]) -> list[np.ndarray | None]:
    """The hand-made part of each face's description (its first ``HAND_FEATURES`` numbers,
    ``None`` for a face that cannot be read): half the cost of the whole, and the distance
    between two faces' hand-made parts is never more than between their descriptions, so a
    face far from others by its hand-made part alone is far from them (``vision.table``)."""
    return [_hand(image, blob) for blob in blobs]


def _hand(image: np.ndarray, blob: Blob) -> np.ndarray | None:
    """The hand-made part of a face's description; ``None`` if the die is too small."""
    crop = cut(image, blob)
    if crop is None:
        return None
    marks = mark_mask(crop)
    lab = crop.lab.astype(np.float32)
    body = _median(lab[crop.inner & ~marks], crop.body)
    ink = _median(lab[marks], body)
    cover = float(marks.sum()) / float(crop.inner.sum())
    raw = np.concatenate([body, ink, [cover], _shape(marks, crop.side)]).astype(np.float32)
    raw[[1, 2, 4, 5]] -= 128.0
    return (raw / SCALES).astype(np.float32)


def _median(pixels: np.ndarray, fallback: np.ndarray) -> np.ndarray:
    return np.median(pixels, axis=0) if len(pixels) >= 3 else np.asarray(fallback, np.float32)


def _shape(marks: np.ndarray, side: float) -> np.ndarray:
    """Polar Fourier magnitudes of the marks around their centre, mark count, Hu moments 1-3."""
    my, mx = np.nonzero(marks)
    if len(mx) < 3:
        return np.zeros(RINGS * ORDERS + 1 + 3, np.float32)
    soft = cv2.GaussianBlur(marks.astype(np.float32), (0, 0), max(0.5, side / 40))
    radii = (np.arange(RINGS) + 0.5) / RINGS * 0.5 * side
    angles = np.arange(ANGLES) * 2 * np.pi / ANGLES
    xs = (mx.mean() + radii[:, None] * np.cos(angles)).astype(np.float32)
    ys = (my.mean() + radii[:, None] * np.sin(angles)).astype(np.float32)
    polar = cv2.remap(soft, xs, ys, cv2.INTER_LINEAR, borderMode=cv2.BORDER_CONSTANT)
    fourier = np.abs(np.fft.rfft(polar, axis=1))[:, :ORDERS] / ANGLES
    count = cv2.connectedComponents(marks.astype(np.uint8))[0] - 1
    hu = cv2.HuMoments(cv2.moments(marks.astype(np.uint8), binaryImage=True))[:3, 0]
    hu = np.clip(-np.sign(hu) * np.log10(np.abs(hu) + 1e-12), 0, 8)
    return np.concatenate([fourier.ravel(), [min(count, 8)], hu]).astype(np.float32)
