"""Teaching the dice from the host page: a photo of the tray, each die found cut out, and the
owner's names for the cut-outs learned, exactly those.

A photo is taken once, from the camera's last frame, and kept in memory under a random id for
:data:`PHOTO_SECONDS` (at most :data:`PHOTOS` at a time): each die the detector found there is
kept as its cut-out (a small JPEG for the page), its reading for the chosen profile and the
feature vector the reader compares. Teaching a photo learns the vectors of the dice the owner
named and nothing else, then forgets the photo, so it cannot be learned twice. A few cut-outs of
each face taught this way are kept in the data directory (``vision/examples/``) for the page to
show; faces taught with ``companion dice teach`` have none.
"""

from __future__ import annotations

import secrets
import threading
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import cv2
import numpy as np

import vision
from companion.engine.files import write_atomic
from vision.profile import (
    LEARNED,
    forget_taught,
    pictures_folder,
    save_taught,
    taught_faces,
)
from vision.teach import named_face, photo_dice

from .preview import jpeg

PHOTO_SECONDS = 600.0
PHOTOS = 4
EXAMPLES = 4  # cut-outs kept per face
CROP = 112  # side of a cut-out, in pixels
QUALITY = 85
MARGIN = 0.15  # of a die's side, added round its cut-out


@dataclass(frozen=True)
class PhotoDie:
    """One die of a photo: its cut-out (JPEG), what the reader read there (None: nothing sure
    enough to name), and the feature vector that teaching it would learn."""

    crop: bytes
    reading: str | None
    vector: list[float]


@dataclass(frozen=True)
class Photo:
    """A photo taken for teaching ``profile``: its dice, clearest first, and when it was taken."""

    profile: str
    dice: tuple[PhotoDie, ...]
    taken: float

    def to_json(self, photo_id: str) -> dict[str, Any]:
        """What the page needs: the id, the profile and each die's reading."""
        return {"photo": photo_id, "profile": self.profile,
                "dice": [{"index": i, "reading": d.reading} for i, d in enumerate(self.dice)]}


def cut_out(frame: np.ndarray, box: tuple[int, int, int, int]) -> np.ndarray:
    """The square around ``box`` (with a margin), cut from ``frame`` and scaled to :data:`CROP`."""
    x0, y0, x1, y1 = box
    side = max(x1 - x0, y1 - y0) * (1 + 2 * MARGIN)
    cx, cy = (x0 + x1) / 2, (y0 + y1) / 2
    h, w = frame.shape[:2]
    left, top = max(0, round(cx - side / 2)), max(0, round(cy - side / 2))
    right, bottom = min(w, round(cx + side / 2)), min(h, round(cy + side / 2))
    return cv2.resize(frame[top:bottom, left:right], (CROP, CROP), interpolation=cv2.INTER_AREA)


class DiceTeacher:
    """The photos being taught and the faces taught, for one data directory."""

    def __init__(self, data_dir: Path, clock: Callable[[], float] = time.monotonic) -> None:
        self.data_dir, self.clock = Path(data_dir), clock
        self._photos: dict[str, Photo] = {}
        self._lock = threading.Lock()
        self._writing = threading.Lock()  # one teaching or forgetting at a time

    def profiles(self) -> list[dict[str, Any]]:
        """Every profile that can be taught (learned, not pips), sorted: its faces (the shipped
        ones, then any the owner named), the examples taught per face and how many cut-outs of
        each face the page can show; ``problem`` (in each language) when its taught file cannot
        be read, so the page says so instead of failing."""
        found = []
        for name in vision.list_profiles():
            shipped = vision.load_profile(name)
            if shipped.kind != LEARNED:
                continue
            try:
                taught, problem = taught_faces(name, self.data_dir), None
            except vision.ProfileError as error:
                taught, problem = {}, error.texts()
            faces = list(shipped.faces) + [f for f in taught if f not in shipped.faces]
            found.append({"profile": name, "faces": faces, "taught": taught,
                          "examples": {face: len(self._examples(name, face)) for face in taught},
                          "problem": problem})
        return found

    def take(self, frame: np.ndarray, profile: str) -> dict[str, Any]:
        """Take ``frame`` as a photo for teaching ``profile``: find its dice, keep each one's
        cut-out, reading and vector in memory; returns :meth:`Photo.to_json`."""
        known = vision.load_profile(profile, self.data_dir)
        dice = tuple(PhotoDie(jpeg(cut_out(frame, box), QUALITY), named_face(known, vector),
                              vector)
                     for box, vector in photo_dice(frame) if vector is not None)
        photo_id, photo = secrets.token_urlsafe(9), Photo(profile, dice, self.clock())
        with self._lock:
            self._drop_old()
            while len(self._photos) >= PHOTOS:
                del self._photos[min(self._photos, key=lambda k: self._photos[k].taken)]
            self._photos[photo_id] = photo
        return photo.to_json(photo_id)

    def photo(self, photo_id: str) -> Photo | None:
        """The photo ``photo_id`` (None: unknown, expired or already taught)."""
        with self._lock:
            self._drop_old()
            return self._photos.get(photo_id)

    def teach(self, photo_id: str, faces: Mapping[int, str]) -> dict[str, int] | None:
        """Learn die ``i`` of the photo as face ``faces[i]``, for every ``i`` named (the others
        are not learned); the photo is then forgotten. Returns how many dice each face learned,
        once on disk (None: the photo is unknown or expired). The caller checks the faces and
        indexes (:meth:`profiles`, :meth:`photo`)."""
        with self._lock:
            self._drop_old()
            photo = self._photos.pop(photo_id, None)
        if photo is None:
            return None
        named = {face: [photo.dice[i] for i, f in sorted(faces.items()) if f == face]
                 for face in dict.fromkeys(faces.values())}
        with self._writing:
            profile = vision.load_profile(photo.profile, self.data_dir)
            save_taught(profile, {face: [d.vector for d in dice] for face, dice in named.items()},
                        self.data_dir)
            for face, dice in named.items():
                self._keep_examples(photo.profile, face, [d.crop for d in dice])
        return {face: len(dice) for face, dice in named.items()}

    def forget(self, profile: str, face: str | None = None) -> int:
        """Forget what was taught for ``face`` of ``profile`` (every face when None: back to the
        shipped defaults), cut-outs included; returns how many examples were dropped."""
        with self._writing:
            return forget_taught(profile, self.data_dir, face)

    def example(self, profile: str, face: str, index: int) -> bytes | None:
        """The ``index``-th cut-out kept of ``face`` (newest first), or None."""
        examples = self._examples(profile, face)
        return examples[index].read_bytes() if 0 <= index < len(examples) else None

    def _examples(self, profile: str, face: str) -> list[Path]:
        """The cut-outs kept of ``face``, newest first."""
        folder = pictures_folder(profile, self.data_dir, face)
        return sorted(folder.glob("*.jpg"), reverse=True) if folder.is_dir() else []

    def _keep_examples(self, profile: str, face: str, crops: list[bytes]) -> None:
        """Keep the newest :data:`EXAMPLES` cut-outs of ``face``, ``crops`` included."""
        folder = pictures_folder(profile, self.data_dir, face)
        stamp = time.time_ns()
        for i, crop in enumerate(crops[:EXAMPLES]):
            write_atomic(folder / f"{stamp}-{i:02d}.jpg", crop)
        for old in self._examples(profile, face)[EXAMPLES:]:
            old.unlink(missing_ok=True)

    def _drop_old(self) -> None:
        """Forget the photos older than :data:`PHOTO_SECONDS` (the lock is held)."""
        now = self.clock()
        for photo_id in [k for k, p in self._photos.items() if now - p.taken > PHOTO_SECONDS]:
            del self._photos[photo_id]
