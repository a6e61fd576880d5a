"""The camera adapter: settled rolls fill the dice template of the event the game expects.

The watcher reads frames all the time (so it notices a camera that disappears, and sees the tray
change while the game waits for something else) but only reads dice while the game waits for
them, with the die profile and count it names. One roll is one event (one per player where each
rolls dice of their own colour, as Attack on Titan's heroes throw theirs together): a single
``vision.SettledRollDetector`` lives as long as the watcher, so a tray that has not changed since
the last roll is never read again, however often the game asks (and the dice lying on the tray
when the companion starts count as already read). A roll the reader is unsure of, or with the
wrong number of dice, is not guessed: it becomes a warning asking the host to give the dice on the
phone; so does a die bumped after the roll (most dice still where they were), which is not a new
roll. The ``roll`` button reads the current frame at once. When the host answers a roll the
camera asked about from the phone, the answer is paired with the dice read (the sure ones keep
their faces, the one doubtful die takes the face left); when that pairing is unambiguous, every
die of the roll is kept as an example of this table (:mod:`vision.table`), as the dice screen's
confirmation does.
"""

from __future__ import annotations

import logging
import threading
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

import vision
from companion.engine import Event, Expectation, Message, Template
from vision.roll import Box
from vision.table import confirm

from .cameras import Camera, CameraError, EndOfStream
from .inputs import Emit, Worker
from .status import Status

log = logging.getLogger(__name__)

Reader = Callable[[np.ndarray, str, int | None], vision.Roll]
Subscribe = Callable[[Callable[[Any], None]], Callable[[], None]]


@dataclass(frozen=True)
class Asked:
    """A roll the camera asked the host about: its frame, what was read, the event it fills."""

    frame: np.ndarray
    roll: vision.Roll
    template: Template


def paired(roll: vision.Roll, faces: list[str]) -> list[tuple[Box, str]] | None:
    """The dice of ``roll`` with the faces the host gave (``faces``, in any order): each die
    read surely keeps its face while the answer has it, and the one die left takes the face
    left; None when that is not known (another number of dice, or two dice left: which shows
    which face cannot be told)."""
    if len(faces) != len(roll.dice):
        return None
    left, dice, unsure = Counter(faces), [], []
    for die in roll.dice:
        if not die.uncertain and left[die.face] > 0:
            left[die.face] -= 1
            dice.append((die.box, die.face))
        else:
            unsure.append(die)
    if len(unsure) > 1:
        return None
    return dice + [(die.box, face) for die, face in zip(unsure, left.elements(), strict=True)]


def dice_record(roll: vision.Roll, expectation: Expectation,
                bumped: bool = False) -> list[dict[str, Any]] | Message:
    """The events the game expects for a roll (its dice template filled with the faces read;
    where each player rolls dice of their own colour, one event per colour seen), or the
    warning that asks the host instead (also for a ``bumped`` roll: the dice of the last roll
    knocked, not rolled again)."""
    templates = expectation.rolled()
    if not templates:
        return Message("camera.not_now", {})
    faces = roll.faces
    if bumped:
        return Message("camera.bumped", {"faces": faces})
    if templates[0].blank.colour is not None:
        return _by_colour(roll, templates)
    count = templates[0].blank.count
    if count is not None and len(faces) != count:
        return Message("camera.count", {"seen": len(faces), "count": count})
    if not roll.certain:
        return Message("camera.unsure", {"faces": faces})
    return [{**templates[0].fill(faces), "source": "camera"}]


def _by_colour(roll: vision.Roll, templates: list[Template]) -> list[dict[str, Any]] | Message:
    """One event per player whose colour is on the tray (dice of other colours are someone
    else's, rolled before: left out); nothing unless every die of a wanted colour is read
    surely, no die's colour is in doubt and each player's count is right."""
    wanted = {t.blank.colour: t for t in templates}
    if any(d.colour is None for d in roll.dice):
        return Message("camera.unsure", {"faces": roll.faces})
    groups = {c: sorted(d.face for d in roll.dice if d.colour == c) for c in wanted}
    groups = {c: faces for c, faces in groups.items() if faces}
    if not groups:
        return Message("camera.no_colour", {"colours": list(wanted)})
    for colour, faces in groups.items():
        count = wanted[colour].blank.count
        if count is not None and len(faces) != count:
            return Message("camera.colour_count", {"colour": colour, "seen": len(faces),
                                                   "count": count})
    used = [d for d in roll.dice if d.colour in groups]
    if roll.notes or any(d.uncertain for d in used):
        return Message("camera.unsure", {"faces": sorted(d.face for d in used)})
    return [{**wanted[c].fill(faces), "source": "camera"} for c, faces in groups.items()]


class DiceWatcher(Worker):
    """Watches ``camera`` on a thread of its own; ``expects`` is the session's ``expects``."""

    def __init__(self, camera: Camera, expects: Callable[[], Expectation],
                 status: Status | None = None, data_dir: Path | None = None,
                 still_seconds: float = 0.6, retry: float = 3.0,
                 reader: Reader | None = None, subscribe: Subscribe | None = None) -> None:
        super().__init__()
        self.camera, self.expects, self.data_dir = camera, expects, data_dir
        self._subscribe, self._unsubscribe = subscribe, None
        self._asked: Asked | None = None  # the roll the host was asked about, until answered
        self.status = status if status is not None else Status()
        self.still_seconds, self.retry = still_seconds, retry
        self.reader: Reader = reader or (lambda frame, profile, count: vision.read(
            frame, profile, data_dir=data_dir, expected=count, colours=True))
        self._now = threading.Event()
        self._wanted: tuple[str, int | None] = ("d6", None)  # profile and count last asked for

    def start(self, emit: Emit) -> None:
        """Start watching (and listening to the host's answers, given ``subscribe``)."""
        if self._subscribe is not None and self._unsubscribe is None:
            self._unsubscribe = self._subscribe(lambda update: self.answered(update.event))
        self._launch(self._run, emit, name=f"dice {self.camera.name}")

    def stop(self) -> None:
        """Stop watching and listening."""
        if self._unsubscribe is not None:
            self._unsubscribe()
            self._unsubscribe = None
        super().stop()

    def answered(self, event: Event) -> None:
        """An accepted event: when it is the host's answer from the phone to the roll the
        camera asked about (its template's event, with the faces), the roll's dice paired with
        the answer are kept as examples of this table (nothing when the pairing is not known)."""
        asked = self._asked
        if asked is None or event.source != "web" or event.type != asked.template.type:
            return
        if any(event.fields.get(k) != v for k, v in asked.template.fields.items()):
            return
        self._asked = None
        faces = event.fields.get(asked.template.blank.field)
        dice = paired(asked.roll, [str(f) for f in faces]) if isinstance(faces, list) else None
        if dice is None or self.data_dir is None:
            return
        try:
            confirm(asked.frame, asked.roll.profile, dice, self.data_dir, read=asked.roll,
                    camera=self.camera.name)
        except (vision.VisionError, OSError) as exc:  # the answer stands; the example is lost
            log.warning("the answered roll could not be kept as examples: %s", exc)

    def read_now(self) -> None:
        """Read the next frame without waiting for the tray to settle (the ``roll`` button)."""
        self._now.set()

    def _look(self, frame: np.ndarray, stamp: float, detector: vision.SettledRollDetector,
              expectation: Expectation) -> list[dict[str, Any]] | Message | None:
        """What this frame gives: a record when a new roll settled (or the button was pressed),
        else ``None``; the detector sees every frame, asked or not."""
        templates = expectation.rolled()
        asked = bool(templates) and templates[0].blank.profile is not None
        if asked:  # players' own colours: other dice may lie on the tray, no count to expect
            blank = templates[0].blank
            self._wanted = (blank.profile, blank.count if blank.colour is None else None)
        if asked and self._now.is_set():
            self._now.clear()
            roll, bumped = detector.take(frame), False
        else:
            settled = detector.feed(frame, stamp, asked=asked)
            if settled is None:
                return None
            roll, bumped = settled.roll, settled.bumped
        record = dice_record(roll, expectation, bumped)
        unsure = isinstance(record, Message) and record.key == "camera.unsure"
        self._asked = (Asked(frame, roll, templates[0])  # a new roll: only its answer counts
                       if unsure and len(templates) == 1 and templates[0].blank.colour is None
                       else None)
        return record

    def _run(self, emit: Emit) -> None:
        opened = False
        detector = vision.SettledRollDetector(
            lambda f: self.reader(f, *self._wanted), self.still_seconds, start_counted=True)
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
            try:
                record = self._look(frame, stamp, detector, self.expects())
            except Exception as exc:  # noqa: BLE001 - a reader bug must not stop the camera
                self.status.problem("dice-reader", Message(
                    "problem.reader_failed", {"detail": f"{type(exc).__name__}: {exc}"}))
                continue
            if record is not None:
                self.status.resolved("dice-reader")
                for one in [record] if isinstance(record, Message) else record:
                    emit(one)
        if opened:
            self.camera.close()
