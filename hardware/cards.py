"""The card camera: a card shown to the camera fills the card blank of the event the game
expects, exactly as a tag swipe does (a template that takes several cards, Attack on Titan's
face-up then face-down Action card, is filled by the cards shown one after the other).

The watcher looks at the frames the dice watcher reads (the camera's :class:`FrameTap`: a Pi
camera opens once) a few times a second, and sends what it sees only while the game waits for
a card. A card is reported when the same reading holds for :data:`SETTLE` looks in a row; it is
one event however long it stays in view, and shown again within ``window`` seconds it is the
same showing (as a tag held on a reader is one swipe, and a tray not rolled again is not read
again). A card not taught, or one the reader is unsure of, is never guessed: it becomes a
warning that asks the host, as an unknown tag does.
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import cv2
import numpy as np

from companion.cardphotos import decode, encode, picture_files, pictures_folder
from companion.engine import Expectation, Message, Template
from vision import VisionError, decode_photo
from vision.cards import CardSeen, Deck, find_cards, read_cards, straighten

from .frames import FrameTap
from .inputs import Emit, Worker
from .status import Status

log = logging.getLogger(__name__)

SETTLE = 2  # looks in a row that must agree before a card is reported
LOOK_SECONDS = 0.2  # between two looks at the camera's last frame
WINDOW = 10.0  # seconds during which the same card shown again is the same showing




def deck_of(data_dir: Path) -> Deck:
    """The taught cards of ``data_dir``, loaded once and brought up to date at each call (the
    card watcher, the camera view and the doctor share them)."""
    folder = pictures_folder(data_dir)
    with _decks_lock:
        deck = _decks.get(folder)
        if deck is None:
            deck = _decks[folder] = Deck(folder)
    deck.reload()
    return deck


_decks: dict[Path, Deck] = {}
_decks_lock = threading.Lock()


def card_picture(photo: bytes, name: str, card_id: str, data_dir: Path) -> dict[str, Any]:
    """The card nearest the centre of ``photo`` (a file's bytes, called ``name``) straightened,
    to teach it as ``card_id``: ``jpeg`` (the picture, as it is journaled) and ``alike`` (the
    taught cards it looks like, which the camera may not tell from it); or ``problem``, in
    every language (a file that is no image, a photo with no card in it)."""
    try:
        frame = decode_photo(photo, name)[0]
    except VisionError as error:
        return {"problem": error.texts()}
    return frame_card_picture(frame, card_id, data_dir)


def frame_card_picture(frame: np.ndarray, card_id: str, data_dir: Path) -> dict[str, Any]:
    """The card nearest the centre of ``frame`` (decoded pixels: a photo or the camera's last
    frame), as :func:`card_picture` gives it."""
    spots = find_cards(frame)
    if not spots:
        return {"problem": VisionError("cards.none_in_photo").texts()}
    jpeg = encode(straighten(frame, spots[0]))
    seen = deck_of(data_dir).name(decode(jpeg), spots[0].box)
    return {"jpeg": jpeg, "alike": sorted({i for i in (seen.id, *seen.alike)
                                           if i not in (None, card_id)})}


def card_record(seen: CardSeen, template: Template) -> dict[str, Any] | Message:
    """The event a card shown makes (the card ``template`` the game expects, filled as a swipe
    fills it), or the warning that asks the host instead."""
    if seen.id is None:
        return Message("cards.unknown", {})
    if seen.uncertain:
        return Message("cards.unsure", {"cards": ", ".join((seen.id, *seen.alike))})
    return {**template.fill(seen.id), "source": "camera"}


@dataclass
class Showing:
    """Tells when a card is shown: :meth:`feed` gets each look's main card (None: no card in
    view) and returns it once, when it has held for ``settle`` looks and is not the card
    reported last within ``window`` seconds."""

    settle: int = SETTLE
    window: float = WINDOW
    _candidate: tuple[str | None, bool] | None = None
    _count: int = 0
    _last: tuple[tuple[str | None, bool], float] | None = None

    def feed(self, seen: CardSeen | None, now: float) -> CardSeen | None:
        """The card to report for this look, or None."""
        key = None if seen is None else (seen.id, seen.uncertain)
        self._count = self._count + 1 if key == self._candidate else 1
        self._candidate = key
        if seen is None or self._count != self.settle:
            if seen is not None and self._last is not None and self._last[0] == key:
                self._last = (key, now)  # still in view: the showing goes on
            return None
        if self._last is not None and self._last[0] == key and now - self._last[1] < self.window:
            self._last = (key, now)
            return None
        self._last = (key, now)
        return seen


class CardWatcher(Worker):
    """Reads the cards shown to ``camera`` (the frame tap the dice watcher feeds) while the game
    waits for one; ``expects`` is the session's ``expects``, ``data_dir`` holds the taught
    cards (see :func:`pictures_folder`)."""

    def __init__(self, camera: FrameTap, expects: Callable[[], Expectation], data_dir: Path,
                 status: Status | None = None, look_seconds: float = LOOK_SECONDS,
                 clock: Callable[[], float] = time.monotonic) -> None:
        super().__init__()
        self.camera, self.expects, self.look_seconds, self.clock = \
            camera, expects, look_seconds, clock
        self.data_dir = Path(data_dir)
        self.status = status if status is not None else Status()
        self.showing = Showing()
        self.seen: list[CardSeen] = []  # what the last look saw (the host page's camera view)
        self.held: tuple[Template, list[str]] | None = None  # cards shown for a template's extras

    def start(self, emit: Emit) -> None:
        """Start looking."""
        self._launch(self._run, emit, name=f"cards {self.camera.name}")

    def look(self, emit: Emit) -> None:
        """Look at the camera's last frame once. A card shown while the game waits for none
        counts as shown (not sent when the game asks later: it may be the last card drawn,
        still lying there); with no card taught, the camera reads no cards."""
        last = self.camera.last()
        deck = deck_of(self.data_dir)
        if last is None or not deck.taught()[0]:
            return
        self.seen = read_cards(last[1], deck).cards
        shown = self.showing.feed(self.seen[0] if self.seen else None, self.clock())
        template = self.expects().template("card")
        if shown is None or template is None:
            return
        record = card_record(shown, template)
        if isinstance(record, dict) and template.blank.extra:
            record = self.gather(template, shown.id)
        if record is not None:
            emit(record)

    def gather(self, template: Template, card: str) -> dict[str, Any] | None:
        """A template that takes several cards (its blank's ``extra`` fields: Attack on Titan's
        face-down Action card after its face-up one): each other card shown fills the next
        field, in order, and the event goes once every field is filled."""
        held = self.held[1] if self.held is not None and self.held[0] == template else []
        if card not in held:
            held = [*held, card]
        if len(held) <= len(template.blank.extra):
            self.held = (template, held)
            return None
        self.held = None
        first, *rest = held
        return {**template.fill(first, **dict(zip(template.blank.extra, rest, strict=True))),
                "source": "camera"}

    def _run(self, emit: Emit) -> None:
        while not self._stop.wait(self.look_seconds):
            try:
                self.look(emit)
            except Exception as exc:  # noqa: BLE001 - a reader bug must not stop the camera
                self.status.problem("card-reader", Message(
                    "problem.reader_failed", {"detail": f"{type(exc).__name__}: {exc}"}))


# -- what the host page's camera view and the doctor show -------------------------------------

SURE, UNSURE, UNKNOWN, SPOT = (60, 200, 60), (0, 150, 255), (160, 160, 160), (255, 255, 255)


def draw_cards(image: np.ndarray, cards: list[CardSeen], scale: float) -> np.ndarray:
    """``image`` (a frame scaled by ``scale``) with the card spot (a cross at its centre, where
    a card is shown) and a box round each card seen, named (green when sure, orange when not,
    grey with a question mark when not taught)."""
    height, width = image.shape[:2]
    cv2.drawMarker(image, (width // 2, height // 2), SPOT, cv2.MARKER_CROSS, 24, 1)
    for card in cards:
        x0, y0, x1, y1 = (round(v * scale) for v in card.box)
        colour = UNKNOWN if card.id is None else UNSURE if card.uncertain else SURE
        cv2.rectangle(image, (x0, y0), (x1, y1), colour, 2)
        cv2.putText(image, card.id or "?", (x0, max(12, y0 - 4)), cv2.FONT_HERSHEY_SIMPLEX,
                    0.5, colour, 1, cv2.LINE_AA)
    return image


@dataclass(frozen=True)
class SelfTest:
    """The doctor's test of the taught cards: how many, those not named as themselves when
    shown on a table (each taught picture, on a dark canvas), and the slowest reading (ms)."""

    taught: int
    misread: list[str]
    ms: float


def self_test(data_dir: Path) -> SelfTest:
    """Show each taught card's first picture (``<id>.png``, else the first of its others) to
    the reader (see :class:`SelfTest`)."""
    deck = deck_of(data_dir)
    ids, _ = deck.taught()
    files = picture_files(data_dir)
    misread, slowest = list(deck.damaged), 0.0
    for card_id in dict.fromkeys(ids):
        paths = files.get(card_id)
        picture = cv2.imread(str(paths[0])) if paths else None
        if picture is None:
            misread.append(card_id)
            continue
        canvas = np.full((480, 640, 3), 40, np.uint8)
        card = cv2.resize(picture, (200, 300), interpolation=cv2.INTER_AREA)
        canvas[90:390, 220:420] = card
        read = read_cards(canvas, deck)
        slowest = max(slowest, read.ms)
        first = read.cards[0] if read.cards else None
        if first is None or card_id not in (first.id, *first.alike):
            misread.append(card_id)
    return SelfTest(len({*ids, *deck.damaged}), misread, slowest)
