"""The camera adapter: settled rolls fill the dice template of the event the game expects.

The watcher reads frames all the time (so it notices a camera that disappears) but only looks
for dice while the game waits for them, with the die profile and count it names. The roll is
read once, when the tray has been still (``vision.SettledRollDetector``); a roll the reader is
unsure of, or with the wrong number of dice, is not guessed: it becomes a warning asking the host
to give the dice on the phone. The ``roll`` button reads the current frame at once.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np

import vision
from companion.engine import Expectation, Message

from .cameras import Camera, CameraError, EndOfStream
from .inputs import Emit, Worker
from .status import Status

log = logging.getLogger(__name__)

Reader = Callable[[np.ndarray, str, int | None], vision.Roll]


def dice_record(roll: vision.Roll, expectation: Expectation) -> dict[str, Any] | Message:
    """The event the game expects for a roll (its dice template filled with the faces read),
    or the warning that asks the host instead."""
    template = expectation.template("dice")
    if template is None:
        return Message("camera.not_now", {})
    faces, count = roll.faces, template.blank.count
    if count is not None and len(faces) != count:
        return Message("camera.count", {"seen": len(faces), "count": count})
    if not roll.certain:
        return Message("camera.unsure", {"faces": faces})
    return {**template.fill(faces), "source": "camera"}


class DiceWatcher(Worker):
    """Watches ``camera`` on a thread of its own; ``expects`` is the session's ``expects``."""

    def __init__(self, camera: Camera, expects: Callable[[], Expectation],
                 status: Status | None = None, data_dir: Path | None = None,
                 still_seconds: float = 0.6, retry: float = 3.0,
                 reader: Reader | None = None) -> None:
        super().__init__()
        self.camera, self.expects = camera, expects
        self.status = status if status is not None else Status()
        self.still_seconds, self.retry = still_seconds, retry
        self.reader: Reader = reader or (lambda frame, profile, count: vision.read(
            frame, profile, data_dir=data_dir, expected=count))
        self._now = threading.Event()

    def start(self, emit: Emit) -> None:
        """Start watching."""
        self._launch(self._run, emit, name=f"dice {self.camera.name}")

    def read_now(self) -> None:
        """Read the next frame without waiting for the tray to settle (the ``roll`` button)."""
        self._now.set()

    def _look(self, frame: np.ndarray, stamp: float, detector: vision.SettledRollDetector,
              wanted: tuple[str, int | None], expectation: Expectation,
              ) -> dict[str, Any] | Message | None:
        if self._now.is_set():
            self._now.clear()
            return dice_record(self.reader(frame, *wanted), expectation)
        settled = detector.feed(frame, stamp)
        return None if settled is None else dice_record(settled.roll, expectation)

    def _run(self, emit: Emit) -> None:
        opened = False
        detector: vision.SettledRollDetector | None = None
        wanted: tuple[str, int | None] | None = None
        while not self._stop.is_set():
            try:
                if not opened:
                    self.camera.open()
                    opened = True
                stamp, frame = self.camera.read()
            except EndOfStream:
                log.info("%s: end of the replay", self.camera.name)
                break
            except CameraError as exc:
                self.status.problem(self.camera.name,
                                    Message("problem.no_frames", {"detail": str(exc)}))
                if opened:
                    self.camera.close()
                    opened = False
                self._stop.wait(self.retry)
                continue
            self.status.resolved(self.camera.name)  # a frame: the camera works (again)
            expectation = self.expects()
            template = expectation.template("dice")
            if template is None or template.blank.profile is None:
                detector = None
                continue
            if detector is None or wanted != (template.blank.profile, template.blank.count):
                wanted = (template.blank.profile, template.blank.count)
                detector = vision.SettledRollDetector(
                    lambda f, w=wanted: self.reader(f, *w), self.still_seconds)
            try:
                record = self._look(frame, stamp, detector, wanted, expectation)
            except Exception as exc:  # noqa: BLE001 - a reader bug must not stop the camera
                self.status.problem("dice-reader", Message(
                    "problem.reader_failed", {"detail": f"{type(exc).__name__}: {exc}"}))
                continue
            if record is not None:
                self.status.resolved("dice-reader")
                emit(record)
        if opened:
            self.camera.close()
