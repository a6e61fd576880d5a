"""Real card photos for the card camera's tests: the photos of SET cards that
benchmarks/cards.py measures on (``benchmarks/cards/set/``, Apache 2.0), each card labelled by
where it lies on its board, cut out to teach it and framed as a card shown to the camera."""

from __future__ import annotations

import sys
from functools import cache
from pathlib import Path

import cv2
import numpy as np

ROOT = Path(__file__).resolve().parents[2]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from benchmarks.cards import board_frame, boards, cut_out, labelled, shown  # noqa: E402
from vision.cards import CardSpot  # noqa: E402

TAUGHT_PHOTO, READ_PHOTO = 0, 2  # photos of a board taken on 31 December and 1 January


@cache
def _board(name: str, index: int) -> tuple[np.ndarray, dict[str, CardSpot]]:
    photo = cv2.imread(str(boards()[name][index]))
    return photo, dict(labelled(photo, name))


def board_cards(name: str) -> list[str]:
    """The labels of the 9 cards of a board (``red-2``: red, two shapes)."""
    return list(_board(name, TAUGHT_PHOTO)[1])


def teaching_photo(card: str) -> np.ndarray:
    """The photo an owner would teach ``card`` from: its board's first photo round it."""
    photo, spots = _board(card.rsplit("-", 2)[0], TAUGHT_PHOTO)
    return cut_out(photo, spots[card])


def shown_frame(card: str, index: int = READ_PHOTO) -> np.ndarray:
    """A 640-pixel frame of ``card`` shown to the camera, from another photo of its board."""
    photo, spots = _board(card.rsplit("-", 2)[0], index)
    return shown(photo, card, spots[card])[0]


def whole_board(name: str, index: int = READ_PHOTO) -> tuple[np.ndarray, dict[str, CardSpot]]:
    """A photo of a board as one 640-pixel frame (its nine cards at once), and where each card
    lies in it."""
    photo, spots = _board(name, index)
    frame, placed = board_frame(photo, list(spots.items()))
    return frame, dict(placed)
