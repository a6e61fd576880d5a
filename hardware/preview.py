"""The host page's camera view: what the camera sees, with a box round each die found, so the
owner can aim the camera at the tray; while the game waits for a card, the card spot and the
cards seen there, named.

The view is the last frame the dice watcher read, scaled to a phone's width, as a JPEG. When the
game waits for dice, the boxes carry the faces read for the awaited profile (green when sure,
orange when not); otherwise they are the dice found as pip dice. A frame is drawn once however
many hosts look at it (the web asks through :meth:`hardware.box.HardwareBox.preview`).
"""

from __future__ import annotations

import threading
from pathlib import Path

import cv2
import numpy as np

import vision
from companion.engine import Expectation
from vision.cards import read_cards

from .cards import deck_of, draw_cards
from .frames import FrameTap

WIDTH = 640
QUALITY = 75
#: The profile whose detector finds dice when the game awaits none (its faces are not shown).
ANY_DICE = "d6"
SURE, UNSURE = (60, 200, 60), (0, 150, 255)  # BGR

_drawn: dict[str, tuple[float, bytes]] = {}  # by camera name: the stamp drawn and its JPEG
_lock = threading.Lock()


def annotate(frame: np.ndarray, roll: vision.Roll, faces: bool) -> np.ndarray:
    """``frame`` scaled to :data:`WIDTH` with a box round each die of ``roll`` (and its face)."""
    image, scale = scaled(frame)
    for die in roll.dice:
        x0, y0, x1, y1 = (round(v * scale) for v in die.box)
        colour = UNSURE if die.uncertain else SURE
        cv2.rectangle(image, (x0, y0), (x1, y1), colour, 2)
        if faces:
            cv2.putText(image, die.face, (x0, max(12, y0 - 4)), cv2.FONT_HERSHEY_SIMPLEX, 0.5,
                        colour, 1, cv2.LINE_AA)
    return image


def render(frame: np.ndarray, expectation: Expectation, data_dir: Path) -> bytes:
    """The camera view of ``frame`` as JPEG bytes, for what the game expects now (the cards
    seen, when it waits for a card)."""
    if expectation.template("card") is not None:
        return jpeg(card_view(frame, data_dir), QUALITY)
    awaited = expectation.kind == "dice" and expectation.profile is not None
    profile = expectation.profile if awaited else ANY_DICE
    roll = vision.read(frame, profile, data_dir=data_dir,
                       expected=expectation.count if awaited else None)
    return jpeg(annotate(frame, roll, awaited), QUALITY)


def card_view(frame: np.ndarray, data_dir: Path) -> np.ndarray:
    """``frame`` scaled to :data:`WIDTH` with the card spot and the cards the camera sees."""
    image, scale = scaled(frame)
    return draw_cards(image, read_cards(frame, deck_of(data_dir)).cards, scale)


def scaled(frame: np.ndarray) -> tuple[np.ndarray, float]:
    """A copy of ``frame`` at most :data:`WIDTH` wide to draw on, and its scale."""
    scale = min(1.0, WIDTH / frame.shape[1])
    image = cv2.resize(frame, None, fx=scale, fy=scale, interpolation=cv2.INTER_AREA) \
        if scale < 1.0 else frame.copy()
    return image, scale


def jpeg(image: np.ndarray, quality: int) -> bytes:
    """``image`` as JPEG bytes, for the host page (the camera view, the dice cut-outs)."""
    ok, data = cv2.imencode(".jpg", image, [cv2.IMWRITE_JPEG_QUALITY, quality])
    if not ok:
        raise ValueError("OpenCV could not encode an image for the page")
    return data.tobytes()


def camera_view(tap: FrameTap, expectation: Expectation, data_dir: Path) -> bytes | None:
    """The JPEG of ``tap``'s last frame with its dice boxes, or None before any frame."""
    last = tap.last()
    if last is None:
        return None
    stamp, frame = last
    with _lock:
        drawn = _drawn.get(tap.name)
        if drawn is None or drawn[0] != stamp:
            drawn = (stamp, render(frame, expectation, data_dir))
            _drawn[tap.name] = drawn
    return drawn[1]
