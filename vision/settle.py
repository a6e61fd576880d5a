"""Reporting each roll once, on a stream: wait until the dice are still and no hand is in view.

The detector is fed frame by frame. It compares each frame with the previous one on a small grey
copy: while anything moves, or a hand (a large skin-coloured area) is in view, nothing is read.
Once the frame has been still for ``still_seconds`` it is read once, and only if the tray changed
since the last reported roll; the roll is reported if it differs from that roll (same faces in the
same places is the same roll, whatever the light flicker). Asking again without anyone rolling
reports nothing. A die bumped later makes the frame move, then settle again: the new layout is
reported with ``bumped`` set when most of its dice are still where the previous roll left them.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass

import cv2
import numpy as np

from .roll import Roll

SMALL = 160
MOVED = 0.3  # a die whose centre moved less than this share of its side has not moved


@dataclass(frozen=True)
class SettledRoll:
    """A roll reported by the detector; ``bumped`` when some dice of the last roll stayed put."""

    roll: Roll
    timestamp: float
    bumped: bool


def hand_in_view(frame: np.ndarray, min_share: float = 0.02, max_share: float = 0.4) -> bool:
    """True when a skin-coloured area larger than ``min_share`` of the frame is in view.

    A die is far smaller than that, so a skin-toned die does not count as a hand. An area over
    ``max_share`` of the frame is a skin-toned tray (wood, cardboard), not a hand: without this a
    tan tray would hold every roll back forever (a hand over such a tray still shows as motion).
    """
    small = cv2.resize(frame, (SMALL, SMALL), interpolation=cv2.INTER_AREA)
    ycrcb = cv2.cvtColor(small, cv2.COLOR_BGR2YCrCb)
    skin = cv2.inRange(ycrcb, (40, 138, 80), (245, 175, 125))
    skin = cv2.morphologyEx(skin, cv2.MORPH_OPEN, np.ones((3, 3), np.uint8))
    areas = cv2.connectedComponentsWithStats(skin)[2][1:, cv2.CC_STAT_AREA] / (SMALL * SMALL)
    return bool(np.any((areas > min_share) & (areas <= max_share)))


class SettledRollDetector:
    """Feed frames with :meth:`feed`; it returns a :class:`SettledRoll` once per roll.

    ``reader`` turns a frame into a roll (usually ``lambda f: vision.read(f, profile)``).
    ``still_seconds`` is how long the frame must stay still; ``motion`` is the share of pixels
    (on a 160x160 copy) whose grey level changed by more than 20 since the previous frame above
    which the frame counts as moving: 0.002 is about a fifth of one die of 40 px at 640 px.

    One roll, one event: a settled tray is read only if it differs (by the same ``motion``
    measure) from the tray as it was at the last reported roll, and reported only if its dice
    differ from that roll (a die left, arrived, turned or moved by more than
    ``MOVED`` of its side). With ``start_counted``, a tray that was still from the first frame
    until the first settle is taken as already counted (the companion restarting beside the
    last roll must not count it again); otherwise it is read. The detector keeps this memory
    whatever the caller asks in between: pass ``asked=False`` while nobody wants dice (frames
    are then watched, never read).
    """

    def __init__(
        self,
        reader: Callable[[np.ndarray], Roll],
        still_seconds: float = 0.6,
        motion: float = 0.002,
        start_counted: bool = False,
    ):
        self.reader = reader
        self.start_counted = start_counted
        self.still_seconds = still_seconds
        self.motion = motion
        self._previous: np.ndarray | None = None
        self._still_since: float | None = None
        self._read_this_stillness = False
        self._moved_ever = False
        self._counted: np.ndarray | None = None  # the tray as it was at the last counted roll
        self._last: Roll | None = None

    def feed(
        self, frame: np.ndarray, timestamp: float | None = None, asked: bool = True
    ) -> SettledRoll | None:
        """Take the next frame; return a roll when a new one has just settled, else ``None``."""
        now = time.monotonic() if timestamp is None else timestamp
        grey = _small_grey(frame)
        moving = (
            self._previous is None
            or self._changed(grey, self._previous)
            or hand_in_view(frame)
        )
        if self._previous is not None and moving:
            self._moved_ever = True
        self._previous = grey
        if moving:
            self._still_since, self._read_this_stillness = None, False
            return None
        if self._still_since is None:
            self._still_since = now
        if self._read_this_stillness or now - self._still_since < self.still_seconds:
            return None
        if self.start_counted and not self._moved_ever and self._counted is None:
            self._counted = grey  # dice lying there before anyone rolled: already counted
        if not asked:
            return None
        self._read_this_stillness = True
        if self._counted is not None and not self._changed(grey, self._counted):
            return None
        roll = self.reader(frame)
        if not roll.dice:
            return None
        self._counted = grey
        if self._last is not None and _same(roll, self._last):
            return None
        bumped = self._last is not None and 2 * _overlap(roll, self._last) > len(roll.dice)
        self._last = roll
        return SettledRoll(roll, now, bumped)

    def take(self, frame: np.ndarray) -> Roll:
        """Read ``frame`` at once, settled or not (the roll button), and remember it as the last
        roll: the same tray settling afterwards is not reported again."""
        roll = self.reader(frame)
        if roll.dice:
            self._counted, self._last = _small_grey(frame), roll
            self._read_this_stillness = True
        return roll

    def _changed(self, grey: np.ndarray, other: np.ndarray) -> bool:
        return float(np.mean(np.abs(grey - other) > 20)) > self.motion


def _small_grey(frame: np.ndarray) -> np.ndarray:
    """The ``SMALL`` x ``SMALL`` grey copy frames are compared on."""
    small = cv2.resize(frame, (SMALL, SMALL), interpolation=cv2.INTER_AREA)
    return cv2.cvtColor(small, cv2.COLOR_BGR2GRAY).astype(np.float32)


def _overlap(a: Roll, b: Roll) -> int:
    """How many dice of ``a`` sit, with the same face, where a die of ``b`` was (within
    ``MOVED`` of the die's side)."""
    count = 0
    for d in a.dice:
        size = max(d.box[2] - d.box[0], d.box[3] - d.box[1])
        if any(
            e.face == d.face
            and np.hypot(e.centre[0] - d.centre[0], e.centre[1] - d.centre[1]) < MOVED * size
            for e in b.dice
        ):
            count += 1
    return count


def _same(a: Roll, b: Roll) -> bool:
    """Same number of dice, each with the same face at the same place."""
    return len(a.dice) == len(b.dice) == _overlap(a, b)
