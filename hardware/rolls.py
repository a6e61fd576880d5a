"""The host's dice screen, on the box's side: a roll read from the camera's frame (the boxes and
faces the reader found, the doubtful ones marked), the dice the host confirmed or corrected kept
as examples of this table (:mod:`vision.table`), and those examples listed and forgotten.

A roll is read once, from the camera's last frame, and kept in memory under a random id for
:data:`ROLL_SECONDS` (at most :data:`ROLLS` at a time), with the frame, so that what the host
confirms is the very frame and reading they saw; confirming it forgets it (a roll is kept once).
"""

from __future__ import annotations

import secrets
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

import vision
from vision.table import confirm, cut_outs_folder, forget, table_examples

from .preview import jpeg

ROLL_SECONDS = 600.0
ROLLS = 4
QUALITY = 80

Box = tuple[int, int, int, int]


@dataclass(frozen=True)
class KeptRoll:
    """A roll read for the dice screen: the frame, what the reader read, the camera's name."""

    frame: np.ndarray
    roll: vision.Roll
    faces: tuple[str, ...]
    camera: str | None
    taken: float

    def to_json(self, roll_id: str) -> dict[str, Any]:
        """What the page draws: the frame's size, the profile's faces and each die's box, face
        and doubt."""
        h, w = self.frame.shape[:2]
        return {"roll": roll_id, "profile": self.roll.profile, "faces": list(self.faces),
                "width": w, "height": h, "notes": list(self.roll.notes),
                "dice": [{"index": i, "box": [int(v) for v in d.box], "face": d.face,
                          "confidence": round(d.confidence, 3), "uncertain": d.uncertain}
                         for i, d in enumerate(self.roll.dice)]}


class TableRolls:
    """The rolls read for the dice screen and the table's examples, for one data directory."""

    def __init__(self, data_dir: Path, clock: Callable[[], float] = time.monotonic) -> None:
        self.data_dir, self.clock = Path(data_dir), clock
        self._rolls: dict[str, KeptRoll] = {}
        self._lock = threading.Lock()
        self._writing = threading.Lock()  # one confirmation or forgetting at a time

    def read(self, frame: np.ndarray, profile: str, camera: str | None) -> dict[str, Any]:
        """Read ``frame`` for ``profile`` with this table's examples and keep it; returns
        :meth:`KeptRoll.to_json`."""
        known = vision.load_profile(profile, self.data_dir)
        roll = vision.read(frame, known, data_dir=self.data_dir)
        kept = KeptRoll(frame, roll, known.faces, camera, self.clock())
        roll_id = secrets.token_urlsafe(9)
        with self._lock:
            self._drop_old()
            while len(self._rolls) >= ROLLS:
                del self._rolls[min(self._rolls, key=lambda k: self._rolls[k].taken)]
            self._rolls[roll_id] = kept
        return kept.to_json(roll_id)

    def roll(self, roll_id: str) -> KeptRoll | None:
        """The roll ``roll_id`` (None: unknown, expired or already confirmed)."""
        with self._lock:
            self._drop_old()
            return self._rolls.get(roll_id)

    def frame(self, roll_id: str) -> bytes | None:
        """The frame of roll ``roll_id`` as a JPEG, or None."""
        kept = self.roll(roll_id)
        return None if kept is None else jpeg(kept.frame, QUALITY)

    def confirm(self, roll_id: str, dice: list[tuple[Box, str]]) -> dict[str, int] | None:
        """Keep the dice of roll ``roll_id`` as the host gave them (box, face) as examples of
        this table, compared with what the reader read there; the roll is then forgotten.
        Returns how many examples were ``added``, ``corrected`` and ``missed`` (None: no such
        roll). The caller checked the faces and boxes."""
        with self._lock:
            self._drop_old()
            kept = self._rolls.pop(roll_id, None)
        if kept is None:
            return None
        with self._writing:
            done = confirm(kept.frame, kept.roll.profile, dice, self.data_dir, read=kept.roll,
                           camera=kept.camera)
        return {"added": done.added, "corrected": done.corrected, "missed": done.missed}

    def examples(self, profile: str) -> list[dict[str, Any]]:
        """The table's examples of ``profile``, newest first: id, face, what the reader read,
        whether it was a correction, and when it was kept."""
        return [{"id": e.id, "face": e.face, "read": e.read, "corrected": e.corrected,
                 "camera": e.camera, "added": e.added}
                for e in reversed(table_examples(profile, self.data_dir))]

    def cut_out(self, profile: str, example_id: str) -> bytes | None:
        """The cut-out (JPEG) kept of one example, or None."""
        if example_id not in {e.id for e in table_examples(profile, self.data_dir)}:
            return None
        path = cut_outs_folder(profile, self.data_dir) / f"{example_id}.jpg"
        return path.read_bytes() if path.is_file() else None

    def forget(self, profile: str, example_id: str | None) -> int:
        """Forget one example of ``profile`` (every one when None); how many were dropped."""
        with self._writing:
            return forget(profile, self.data_dir, example_id)

    def _drop_old(self) -> None:
        """Forget the rolls older than :data:`ROLL_SECONDS` (the lock is held)."""
        now = self.clock()
        for roll_id in [k for k, r in self._rolls.items() if now - r.taken > ROLL_SECONDS]:
            del self._rolls[roll_id]
