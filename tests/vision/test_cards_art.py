"""The card camera's second judge, on cards with art of their own (real photographs printed on
rendered cards, ``benchmarks/cards/art/``): a taught card is confirmed by its corners lined up as
on its picture; a card not taught, whose corners line up with no taught card's, is said unknown
however near its look; the same art taught under two ids is reported alike and asked; a plain
SET card, whose few smooth edges cannot confirm anything, is left to its look."""

from __future__ import annotations

import cv2
import numpy as np
import pytest
from card_photos import teaching_photo

from benchmarks.cards import ART, art_card, laid_on_table, transform
from vision.cards import Deck, find_cards, read_cards, straighten
from vision.cards.deck import CONFIRM
from vision.cards.features import features, inliers, self_inliers
from vision.cards.find import _overlap

TAUGHT = ("IMG_20191112_101208", "IMG_20191112_101906", "IMG_20191112_111119")
UNTAUGHT = ("IMG_20191112_101646", "IMG_20191112_111451")  # other tables, other dice


def _shown(name: str, seed: int) -> np.ndarray:
    """A 640 x 480 frame of the art card ``name`` on a table, as the camera would see it."""
    card = art_card(cv2.imread(str(ART / f"{name}.jpg")))
    return laid_on_table(card, np.random.default_rng(seed))[0]


@pytest.fixture(scope="module")
def deck(tmp_path_factory: pytest.TempPathFactory) -> Deck:
    """Three art cards, each taught from one frame."""
    deck = Deck(tmp_path_factory.mktemp("art"))
    for name in TAUGHT:
        deck.teach(name, _shown(name, seed=1))
    return deck


def _straight(frame: np.ndarray) -> np.ndarray:
    return straighten(frame, find_cards(frame)[0])


def test_corners_confirm_a_card_seen_again_and_not_another():
    taught = features(_straight(_shown(TAUGHT[0], seed=1)))
    again = features(_straight(_shown(TAUGHT[0], seed=2)))
    other = features(_straight(_shown(UNTAUGHT[0], seed=2)))
    assert inliers(again, taught) >= 40
    assert inliers(other, taught) <= 5


@pytest.mark.parametrize("name", TAUGHT)
def test_a_taught_art_card_is_named_surely(deck, name):
    seen = read_cards(_shown(name, seed=3), deck).cards[0]
    assert (seen.id, seen.uncertain) == (name, False)


@pytest.mark.parametrize("name", UNTAUGHT)
def test_an_untaught_art_card_is_said_unknown(deck, name):
    seen = read_cards(_shown(name, seed=3), deck).cards[0]
    assert (seen.id, seen.uncertain) == (None, False)


def test_the_same_art_under_two_ids_is_reported_alike_and_asked(tmp_path):
    deck = Deck(tmp_path)
    assert deck.teach("guard-1", _shown(TAUGHT[1], seed=1)).alike == []
    assert deck.teach("guard-2", _shown(TAUGHT[1], seed=4)).alike == ["guard-1"]
    seen = read_cards(_shown(TAUGHT[1], seed=5), deck).cards[0]
    assert seen.uncertain
    assert {seen.id, *seen.alike} == {"guard-1", "guard-2"}


def test_a_plain_card_is_left_to_its_look():
    picture = _straight(teaching_photo("red-1-solid-oval"))
    assert self_inliers(picture, features(picture)) < CONFIRM


@pytest.mark.parametrize("name", (*TAUGHT, *UNTAUGHT))
def test_a_card_half_in_shadow_is_found_whole(name):
    """Half the card darkened to 45 % (as benchmarks/cards.py does): its dark art in the shadow
    is as dark as the table, yet the whole card is found, not its lit half."""
    rng = np.random.default_rng(8)
    card = art_card(cv2.imread(str(ART / f"{name}.jpg")))
    frame, spot = laid_on_table(card, rng)
    shaded, _ = transform("shadow", frame, [(name, spot)], rng)
    found = [_overlap(seen.corners, spot.corners) for seen in find_cards(shaded)]
    assert max(found, default=0.0) > 0.85


def test_a_taught_card_half_in_shadow_is_named(deck):
    rng = np.random.default_rng(9)
    frame, spot = laid_on_table(art_card(cv2.imread(str(ART / f"{TAUGHT[0]}.jpg"))), rng)
    shaded, _ = transform("shadow", frame, [(TAUGHT[0], spot)], rng)
    assert read_cards(shaded, deck).cards[0].id == TAUGHT[0]
