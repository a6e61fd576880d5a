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
from vision.cards import features as card_features
from vision.cards.cells import shadow_edge_cells
from vision.cards.deck import CONFIRM, border_clear
from vision.cards.features import Matches, features, inliers, self_inliers, two_nearest
from vision.cards.find import _overlap
from vision.cards.looks import GRID, SEEN, inside, look
from vision.cards.outline import NO_INK, outline

TAUGHT = ("IMG_20191112_101208", "IMG_20191112_101906", "IMG_20191112_111119")
UNTAUGHT = ("IMG_20191112_101646", "IMG_20191112_111451")  # other tables, other dice


def _shown(name: str, seed: int) -> np.ndarray:
    """A 640 x 480 frame of the art card ``name`` on a table, as the camera would see it."""
    card = art_card(cv2.imread(str(ART / f"{name}.jpg")))
    return laid_on_table(card, np.random.default_rng(seed))[0]


@pytest.fixture(scope="module")
def deck(tmp_path_factory: pytest.TempPathFactory) -> Deck:
    """Three art cards, each taught from one frame."""
    return _taught(tmp_path_factory.mktemp("art"), TAUGHT)


def _taught(folder, names) -> Deck:
    """A deck of the art cards ``names``, each taught from one frame."""
    deck = Deck(folder)
    for name in names:
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


@pytest.mark.parametrize("name", [TAUGHT[0], UNTAUGHT[0]])
def test_corners_are_matched_to_their_two_nearest_with_or_without_numpy_s_bit_count(
        monkeypatch, name):
    taught = features(_straight(_shown(TAUGHT[0], seed=1)))
    seen = features(_straight(_shown(name, seed=2)))
    apart = np.unpackbits(seen.descriptors[:, None] ^ taught.descriptors[None], axis=2).sum(2)
    expected = np.sort(apart, axis=1)[:, :2]
    counted = inliers(seen, taught)
    for counter in ("numpy", "opencv"):  # (numpy before 2.0, the 32-bit Pi's, has no bit count)
        if counter == "opencv":
            monkeypatch.delattr(np, "bitwise_count")
        nearest, first, second = two_nearest(seen, taught)
        assert (first == expected[:, 0]).all() and (second == expected[:, 1]).all()
        assert (apart[np.arange(len(apart)), nearest] == first).all()
        assert inliers(seen, taught) == counted
    assert counted >= 40 if name == TAUGHT[0] else counted <= 5


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


SAME_TABLE = ("Image_43", "Image_36")  # one granite table, other dice on it, as is Image_16:
# the three share most of their corners


@pytest.fixture(scope="module")
def same_table_deck(tmp_path_factory: pytest.TempPathFactory) -> Deck:
    """Two photos of the granite table taught, not a third."""
    return _taught(tmp_path_factory.mktemp("art"), SAME_TABLE)


@pytest.mark.parametrize("seed", [2, 5, 6])
def test_a_card_with_the_same_art_and_other_dice_on_it_is_told_apart(same_table_deck, seed):
    # Image_16 shares over half its corners with Image_43, lined up (it was asked as it):
    # cell by cell, the dice that are not where they were tell them apart
    untaught = read_cards(_shown("Image_16", seed), same_table_deck).cards[0]
    assert (untaught.id, untaught.uncertain) == (None, False)
    taught = read_cards(_shown(SAME_TABLE[0], seed), same_table_deck).cards[0]
    assert taught.id == SAME_TABLE[0]  # its own cells are alike


def test_the_same_art_with_other_dice_half_in_shadow_is_told_apart_but_for_the_shadow_s_edge(
        same_table_deck):
    """Half in shadow, Image_16 was asked as Image_43 in all ten frames, and Image_43 itself
    named surely in none (a shadow keeps fewer corners, and the cells were not compared: its
    edge makes a cell of the card's own picture unlike). Its edge runs between the places where
    the border turns dark; the other cells, smoothed (the shadow's darkness is noisy), tell the
    dice that are not where they were."""
    untaught = [read_cards(_in_shadow("Image_16", seed), same_table_deck).cards[0]
                for seed in range(20, 30)]
    assert all((seen.id, seen.uncertain) == (None, False) for seen in untaught)
    taught = [read_cards(_in_shadow(SAME_TABLE[0], seed), same_table_deck).cards[0]
              for seed in range(20, 30)]
    assert all(seen.id == SAME_TABLE[0] for seen in taught)
    assert sum(not seen.uncertain for seen in taught) >= 8


def test_the_cells_a_shadow_s_edge_crosses_are_those_it_runs_through():
    """A card darkened to 45 % beyond a line: the cells left out are every cell the line runs
    through and none farther than the next cell; evenly lit, there is no edge to leave out."""
    rng = np.random.default_rng(4)
    card = np.full((360, 240, 3), 235, np.uint8)
    card[20:340, 14:226] = rng.integers(40, 200, (320, 212, 1), np.uint8)
    assert shadow_edge_cells(card, 0.75 * 235) is None
    ys, xs = np.mgrid[0:360, 0:240]
    beyond = ys > 0.6 * xs + 120  # the shadow's edge: y = 0.6 x + 120
    shaded = card.copy()
    shaded[beyond] = (shaded[beyond] * 0.45).astype(np.uint8)
    hidden = shadow_edge_cells(shaded, 0.75 * 235)
    inner = inside(shaded)[..., 0]
    dy, dx = (360 - inner.shape[0]) // 2, (240 - inner.shape[1]) // 2
    rows, cols = hidden.shape
    cell_h, cell_w = inner.shape[0] / rows, inner.shape[1] / cols
    for row in range(rows):
        for col in range(cols):
            x = dx + np.array([col, col + 1]) * cell_w
            at = 0.6 * x + 120 - dy  # where the edge is across the cell's width
            crossed = at.min() < (row + 1) * cell_h and at.max() > row * cell_h
            near = at.min() < (row + 2) * cell_h and at.max() > (row - 1) * cell_h
            assert not crossed or hidden[row, col], (row, col)
            assert near or not hidden[row, col], (row, col)


def test_cards_with_the_same_art_told_apart_cell_by_cell_are_not_reported_alike(tmp_path):
    deck = _taught(tmp_path, SAME_TABLE)
    assert deck.teach("Image_16", _shown("Image_16", seed=1)).alike == []


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


@pytest.mark.parametrize(("name", "seed"), [("IMG_20191112_111249", 6), ("Image_116", 6),
                                            ("Image_163", 21), ("Image_163", 36),
                                            ("IMG_20191112_101906", 31)])
def test_a_card_cut_in_two_by_a_shadow_s_edge_is_one_card(name, seed):
    """The edge of a shadow across a card's middle parts its outline in two, each half with a
    card's proportions, held by the whole card found where only colour parts it: taken for two
    cards lying side by side, the whole was dropped and its lit half read (3.7 % of the art
    set's readings half in shadow, each then unknown). Two cards under one light have paper as
    light; the two halves of one card cut by a shadow do not."""
    assert _found_in_shadow(name, seed) > 0.85


def _found_in_shadow(name: str, seed: int) -> float:
    """How much the card found nearest the middle of a frame of the art card ``name`` half in
    shadow overlaps that card (:func:`_overlap`)."""
    rng = np.random.default_rng(seed)
    frame, spot = laid_on_table(art_card(cv2.imread(str(ART / f"{name}.jpg"))), rng)
    shaded, _ = transform("shadow", frame, [(name, spot)], rng)
    return _overlap(find_cards(shaded)[0].corners, spot.corners)


@pytest.mark.parametrize(("name", "seed"), [("Image_0", 20), ("Image_0", 23), ("Image_0", 29),
                                            ("Image_50", 37)])
def test_corners_bunched_in_two_dice_confirm_their_card(name, seed):
    """A photo of two dice on a plain table, half in shadow: the corners it keeps lie on its
    dice, and the homography fitted to two bunches of them flew off away from them (no inlier:
    the card said unknown; 0 in these frames, 20-78 in the others of the same seeds)."""
    taught = features(_straight(_shown(name, seed=1)))
    assert inliers(features(_straight(_in_shadow(name, seed))), taught) >= CONFIRM


WOODEN_TABLE = ("IMG_20191112_111554", "IMG_20191112_111630", "IMG_20191112_111610")  # photos
# of one table with other dice on it: a fine grid, few corners left in a shadow


@pytest.fixture(scope="module")
def wooden_table_deck(tmp_path_factory: pytest.TempPathFactory) -> Deck:
    """Two photos of the wooden table taught, not the third."""
    return _taught(tmp_path_factory.mktemp("wooden"), WOODEN_TABLE[:2])


@pytest.mark.parametrize(("name", "seed"), [(WOODEN_TABLE[0], 30), (WOODEN_TABLE[0], 31),
                                            (WOODEN_TABLE[0], 38), (WOODEN_TABLE[1], 29)])
def test_a_card_half_in_shadow_keeping_few_corners_is_named_by_its_cells(
        wooden_table_deck, name, seed):
    """Half in shadow, these frames keep 13-19 of their picture's corners lined up, under
    CONFIRM: the card was said unknown though its look lay nearest its own picture by far (art
    half in shadow: 14 of 438 taught readings). Its cells, but for the shadow's edge, are its
    picture's: it is that card."""
    frame = _in_shadow(name, seed)
    taught = features(_straight(_shown(name, seed=1)))
    assert inliers(features(_straight(frame)), taught) < CONFIRM
    assert read_cards(frame, wooden_table_deck).cards[0].id == name


@pytest.mark.parametrize("seed", range(20, 30))
def test_another_photo_of_that_table_half_in_shadow_is_unknown(wooden_table_deck, seed):
    seen = read_cards(_in_shadow(WOODEN_TABLE[2], seed), wooden_table_deck).cards[0]
    assert (seen.id, seen.uncertain) == (None, False)


@pytest.mark.parametrize("seed", [19, 84, 103, 121])
def test_a_card_with_a_corner_just_out_of_the_frame_is_named(deck, seed):
    """A card held at the spot with one corner a few pixels out of the frame was not found at
    all (every card the art set missed on plain frames, 0.9 %): its outline runs along the
    frame's edge. It is found with that corner at the edge, and named."""
    for name in TAUGHT:
        frame, spot = laid_on_table(art_card(cv2.imread(str(ART / f"{name}.jpg"))),
                                    np.random.default_rng(seed))
        assert not all(0 <= x < 640 and 0 <= y < 480 for x, y in spot.corners)
        assert read_cards(frame, deck).cards[0].id == name


@pytest.mark.parametrize("name", TAUGHT)
@pytest.mark.parametrize("seed", [9, 10])
def test_a_card_with_a_corner_well_out_of_the_frame_is_read_as_one_held(deck, name, seed):
    """A corner 40 pixels out of the frame: the corner is where the two sides beside the cut
    meet (not where the outline meets the frame's edge), and what is out of view is left out
    of the comparison as what a thumb covers: the card is named. Such a card is never taught
    from."""
    frame, spot = laid_on_table(art_card(cv2.imread(str(ART / f"{name}.jpg"))),
                                np.random.default_rng(seed))
    top = int(spot.corners[:, 1].min())
    cropped = np.ascontiguousarray(frame[top + 40:])
    found = find_cards(cropped, one_corner_out=True)[0].corners
    true = spot.corners - (0, top + 40)
    assert min(np.abs(np.roll(found, k, axis=0) - true).max() for k in range(4)) < 16
    assert all(_overlap(other.corners, true.astype(np.float32)) < 0.5
               for other in find_cards(cropped))  # (not found to be taught from)
    assert read_cards(cropped, deck).cards[0].id == name


@pytest.mark.parametrize("name", ["IMG_20191112_111119", "Image_101"])
@pytest.mark.parametrize("seed", [62, 84, 103])
def test_a_card_half_in_shadow_with_a_corner_out_of_the_frame_is_found_whole(name, seed):
    """Half in shadow, only the split nearer the table's grey finds such a card whole (Otsu's
    split finds its lit part, or nothing): it is looked for at the frame's edge too."""
    rng = np.random.default_rng(seed)
    frame, spot = laid_on_table(art_card(cv2.imread(str(ART / f"{name}.jpg"))), rng)
    shaded, _ = transform("shadow", frame, [(name, spot)], rng)
    found = [_overlap(seen.corners, spot.corners)
             for seen in find_cards(shaded, one_corner_out=True)]
    assert max(found, default=0.0) > 0.85


def test_a_card_seen_at_a_slant_that_fills_no_rectangle_is_found(deck):
    """Tilted, a card's four clean corners make a trapezoid that fills 0.818 of the tightest
    rectangle round it: it was taken for no card (the rectangle's fill under 0.82; 1.9 % of the
    art set's tilted frames). Its own four corners are judged instead."""
    rng = np.random.default_rng(1)
    frame, spot = laid_on_table(art_card(cv2.imread(str(ART / f"{TAUGHT[0]}.jpg"))), rng)
    tilted, centres = transform("tilted", frame, [(TAUGHT[0], spot)], rng)
    (x, y), = (centre for _, centre in centres)
    seen = read_cards(tilted, deck).cards[0]
    assert seen.box[0] <= x <= seen.box[2] and seen.box[1] <= y <= seen.box[3]
    assert seen.id == TAUGHT[0]


def test_a_taught_card_half_in_shadow_is_named(deck):
    rng = np.random.default_rng(9)
    frame, spot = laid_on_table(art_card(cv2.imread(str(ART / f"{TAUGHT[0]}.jpg"))), rng)
    shaded, _ = transform("shadow", frame, [(TAUGHT[0], spot)], rng)
    assert read_cards(shaded, deck).cards[0].id == TAUGHT[0]


LOOKALIKES = ("Image_29", "Image_145", "Image_87")  # dice photos from one table: they share
ANOTHER_FROM_THAT_TABLE = "Image_130"  # a good part of their corners with this one


@pytest.fixture(scope="module")
def lookalike_deck(tmp_path_factory: pytest.TempPathFactory) -> Deck:
    """Three art cards of one table, each taught from one frame."""
    return _taught(tmp_path_factory.mktemp("lookalikes"), LOOKALIKES)


def test_an_untaught_card_seen_whole_sharing_part_of_a_taught_card_s_corners_is_unknown(
        lookalike_deck):
    """Its corners confirm a taught card (at least CONFIRM inliers: it used to be asked), but
    far fewer than that card's own picture keeps: seen whole and evenly lit, it is said unknown,
    while the taught card is still named surely."""
    frame = _shown(ANOTHER_FROM_THAT_TABLE, seed=3)
    own = features(_straight(frame))
    assert max(inliers(own, c.features) for c in lookalike_deck.corners) >= CONFIRM
    seen = read_cards(frame, lookalike_deck).cards[0]
    assert (seen.id, seen.uncertain) == (None, False)
    taught = read_cards(_shown(LOOKALIKES[0], seed=3), lookalike_deck).cards[0]
    assert (taught.id, taught.uncertain) == (LOOKALIKES[0], False)


@pytest.mark.parametrize(("condition", "clear"), [("plain", True), ("shadow", False),
                                                   ("covered", False)])
def test_only_a_card_whole_and_evenly_lit_shows_its_border_clear(condition, clear):
    """Half in shadow or a fifth under a thumb, a taught card keeps too few of its corners for
    their count to tell it from a card not taught: it must be asked, not said unknown."""
    rng = np.random.default_rng(12)
    frame, spot = laid_on_table(art_card(cv2.imread(str(ART / f"{TAUGHT[1]}.jpg"))), rng)
    seen, _ = transform(condition, frame, [(TAUGHT[1], spot)], rng)
    assert border_clear(_straight(seen)) is clear


PHOTOS = ("IMG_20191112_101646", "IMG_20191112_101952", "Image_69", "Image_163")  # a smooth
# table and a few dice: too few corners to be checked, so each is judged as a plain card
PHOTO_UNTAUGHT = "IMG_20191112_111451"  # another such photo


@pytest.fixture(scope="module")
def photo_deck(tmp_path_factory: pytest.TempPathFactory) -> Deck:
    """Four photos with too few corners of their own, each taught from one frame."""
    return _taught(tmp_path_factory.mktemp("photos"), PHOTOS)


def _in_shadow(name: str, seed: int) -> np.ndarray:
    """A frame of the art card ``name`` half in shadow (as benchmarks/cards.py darkens it)."""
    rng = np.random.default_rng(seed)
    frame, spot = laid_on_table(art_card(cv2.imread(str(ART / f"{name}.jpg"))), rng)
    return transform("shadow", frame, [(name, spot)], rng)[0]


def test_a_photo_printed_on_a_card_has_no_ink_to_compare_but_shapes_on_paper_have():
    """A photo's dark and coloured parts are no ink: they have no one colour or filling (their
    colour where the card is lit is another half of the photo than in the teaching frame)."""
    assert outline(_straight(_shown(PHOTOS[0], seed=1))).ink == NO_INK
    assert outline(_straight(teaching_photo("red-1-solid-oval"))).ink.fill > 0.7


def test_photos_with_few_corners_are_named_half_in_shadow(photo_deck):
    """Named in 26 of these 40 frames before the colour of the photo's "ink" where lit, or its
    "filling", stopped telling it from its own picture; then in 39, 36 of them surely, by their
    outlines, of which the shadow's edge draws more than the photo does (a photo of an orange
    table and one of a wooden table, 4 of the art set's readings half in shadow, were said
    unknown so). A photo in a shadow is compared cell by cell, the shadow's edge left out."""
    read = [(name, read_cards(_in_shadow(name, seed), photo_deck).cards[0])
            for name in PHOTOS for seed in range(20, 30)]
    assert all(seen.id == name for name, seen in read)
    assert sum(not seen.uncertain for _name, seen in read) >= 38


@pytest.mark.parametrize("seed", range(20, 30))
def test_a_photo_not_taught_is_never_named_surely(photo_deck, seed):
    for frame in (_shown(PHOTO_UNTAUGHT, seed), _in_shadow(PHOTO_UNTAUGHT, seed)):
        seen = read_cards(frame, photo_deck).cards[0]
        assert seen.id is None or seen.uncertain


TURNED = ("Image_138", "Image_98", "Image_16", "IMG_20191112_111700")  # cards that keep under
# SHARE of their picture's corners when the frame is turned (resampled, then shrunk back)


@pytest.fixture(scope="module")
def turned_deck(tmp_path_factory: pytest.TempPathFactory) -> Deck:
    """Four art cards, each taught from one frame."""
    return _taught(tmp_path_factory.mktemp("turned"), TURNED)


def test_a_card_turned_in_the_frame_whose_cells_are_its_picture_s_is_named_surely(turned_deck):
    """Seen whole and evenly lit, a card keeping under SHARE of its picture's corners was asked,
    and under WHOLE_SHARE said unknown (another photo of one table shares part of them); cell by
    cell it is its picture, and is named surely. (Of these 40 frames, 8 were still said unknown
    and 3 asked after 2c2c972: a corner cell showed the table where the card's corners were
    found a pixel off, and its picture was not alike there.)"""
    read = []
    for name in TURNED:
        for seed in range(30, 40):
            rng = np.random.default_rng(seed)
            frame, spot = laid_on_table(art_card(cv2.imread(str(ART / f"{name}.jpg"))), rng)
            turned, _ = transform("rotated", frame, [(name, spot)], rng)
            read.append((name, read_cards(turned, turned_deck).cards[0]))
    assert [(seen.id, seen.uncertain) for _, seen in read] == [(name, False) for name, _ in read]
    assert min(seen.confidence for _, seen in read) > 0.6  # (a sure reading said 0.5, "at the
    # limit", when its cells named it)


def _held(name: str, seed: int) -> tuple[np.ndarray, np.ndarray]:
    """A frame of the art card ``name`` with a thumb over a fifth of it (as
    benchmarks/cards.py covers it), and where the card's corners lie."""
    rng = np.random.default_rng(seed)
    frame, spot = laid_on_table(art_card(cv2.imread(str(ART / f"{name}.jpg"))), rng)
    return transform("covered", frame, [(name, spot)], rng)[0], spot.corners


@pytest.fixture(scope="module")
def plain_table_deck(tmp_path_factory: pytest.TempPathFactory) -> Deck:
    """Two photos of plain tables taught."""
    return _taught(tmp_path_factory.mktemp("plain"), ("IMG_20191112_111119", WOODEN_TABLE[0]))


@pytest.mark.parametrize("seed", [30, 35, 36])
def test_a_card_held_by_a_thumb_keeping_few_corners_is_asked_by_its_cells(
        plain_table_deck, seed):
    """Under a thumb, a photo of a plain table keeps 14-19 of its picture's corners: it was
    said unknown though the cells the thumb leaves are its picture's (0.92-0.95). It is asked
    as that card (what the thumb hides may differ: never named surely so)."""
    frame, _ = _held("IMG_20191112_111119", seed)
    taught = features(_straight(_shown("IMG_20191112_111119", seed=1)))
    assert inliers(features(_straight(frame)), taught) < CONFIRM
    seen = read_cards(frame, plain_table_deck).cards
    assert [(c.id, c.uncertain) for c in seen] == [("IMG_20191112_111119", True)]


@pytest.mark.parametrize("seed", range(20, 30))
def test_another_photo_of_a_plain_table_held_by_a_thumb_is_never_named_surely(
        plain_table_deck, seed):
    seen = read_cards(_held("IMG_20191112_111203", seed)[0], plain_table_deck).cards[0]
    assert seen.id is None or seen.uncertain


WOODEN = ("IMG_20191112_101753", "IMG_20191112_101952", "IMG_20191112_111330")  # photos of an
# orange table: a coloured photo reaching the card's thin white border


@pytest.mark.parametrize("name", (*WOODEN, *TAUGHT))
def test_a_card_with_a_corner_under_a_thumb_is_found_where_its_corners_lie(name):
    """The thumb cuts a corner off the card's outline: the card's corners are where its sides
    beside the cut meet, not the corners of the tightest rectangle round what shows (up to a
    tenth of the card's width off, and no card at all when that rectangle was too square: 13
    of the art set's 219 frames)."""
    for seed in range(40, 46):
        assert _corner_off(*_held(name, seed)) <= 0.03, f"{name}, seed {seed}"


@pytest.mark.parametrize(("name", "seed"), [("IMG_20191112_101646", 136), ("Image_43", 208),
                                            ("Image_43", 270)])
def test_a_thumb_joined_to_a_card_s_outline_is_cut_off_it(name, seed):
    """A thumb as bright as the card joined its outline: the hull of both had five corners,
    two of them the thumb's, and the corner mended between the hull's sides across the gap
    between thumb and card lay out of the frame. That larger outline hid the card's own,
    found without the thumb, and the card was read with a corner out of view and said unknown
    (4 of the 10 taught readings of the art set 20 % covered not named). A card's sides
    beside a cut corner are drawn along its outline; the hull's sides across that gap are
    not."""
    assert _corner_off(*_held(name, seed)) <= 0.03


def _corner_off(frame: np.ndarray, corners: np.ndarray) -> float:
    """How far from ``corners`` the card found round their centre in ``frame`` has its
    corners, at the most, in the card's widths (infinite: no card found there)."""
    found = [spot for spot in find_cards(frame)
             if cv2.pointPolygonTest(spot.corners.reshape(-1, 1, 2),
                                     tuple(map(float, corners.mean(axis=0))), False) > 0]
    if not found:
        return float("inf")
    width = float(np.linalg.norm(corners[1] - corners[0]))
    return float(np.linalg.norm(found[0].corners[:, None] - corners[None], axis=2).min(axis=0)
                 .max()) / width


@pytest.mark.parametrize("name", (*WOODEN[:2], "Image_101"))
def test_the_thumb_and_only_the_thumb_is_left_out_of_the_look(name):
    """The orange tables: the thumb is no more coloured than the photo round it, joined to it,
    and nothing was left out (the look compared thumb and all, and the card's own picture lay
    farther than others). A photo of dice on black (Image_101): its dark pixels' saturation
    is noise, and dark patches at the card's edge were left out instead of the thumb. Where the
    thumb lies: the frame with it against the frame without. (Not WOODEN[2]: a beige piece of
    wood in it, the thumb's colour and joined to it, is left out with the thumb.)"""
    for seed in range(40, 44):
        rng = np.random.default_rng(seed)
        frame, spot = laid_on_table(art_card(cv2.imread(str(ART / f"{name}.jpg"))), rng)
        held = transform("covered", frame, [(name, spot)], rng)[0]
        thumb = (np.abs(held.astype(np.int16) - frame).max(axis=2) > 40).astype(np.float32)
        thumb = straighten(cv2.merge([thumb] * 3), find_cards(held)[0])[..., 0]
        truth = cv2.resize(inside(thumb), GRID, interpolation=cv2.INTER_AREA) > 0.5
        covered = look(_straight(held))[..., SEEN] == 0
        near = cv2.dilate(truth.astype(np.uint8), np.ones((5, 5), np.uint8)).astype(bool)
        assert (truth & covered).sum() >= 0.9 * truth.sum(), f"{name}, seed {seed}: thumb shown"
        assert (covered & ~near).sum() <= 0.02 * covered.size, f"{name}, seed {seed}: not thumb"
        assert look(_straight(frame))[..., SEEN].all(), f"{name}, seed {seed}: nothing over it"


@pytest.fixture(scope="module")
def wooden_deck(tmp_path_factory: pytest.TempPathFactory) -> Deck:
    """The photos of the orange table and three others, each taught from one frame."""
    return _taught(tmp_path_factory.mktemp("wooden"), (*WOODEN, *TAUGHT))


def test_a_card_whose_photo_reaches_its_border_is_named_under_a_thumb(wooden_deck):
    """Said unknown in most of these frames before: the card was not found, or its look, the
    thumb in it, lay nearer other cards than its own picture, whose corners were never
    checked."""
    read = [(name, read_cards(_held(name, seed)[0], wooden_deck).cards[0])
            for name in WOODEN for seed in range(40, 50)]
    assert sum(seen.id == name for name, seen in read) >= 27
    assert all(seen.id in (name, None) or seen.uncertain for name, seen in read)


@pytest.mark.parametrize(("deck_of", "untaught"), [
    (SAME_TABLE, "Image_16"), (("Image_61", "Image_152", "Image_105"), "Image_72"),
    (LOOKALIKES, ANOTHER_FROM_THAT_TABLE)])
def test_a_card_held_by_a_thumb_sharing_a_taught_card_s_table_is_unknown(
        tmp_path, deck_of, untaught):
    """Another photo of a taught card's table, held by a thumb: their corners line up (the
    table's), so the card was asked as the taught one; cell by cell, where the thumb is not,
    it is not that card (its dice lie elsewhere). The taught cards are still named."""
    deck = _taught(tmp_path, deck_of)
    read = [read_cards(_held(untaught, seed)[0], deck).cards[0] for seed in range(40, 50)]
    assert sum(seen.id is None for seen in read) >= 9
    assert all(seen.id is None or seen.uncertain for seen in read)
    own = [read_cards(_held(name, seed)[0], deck).cards[0].id == name
           for name in deck_of for seed in range(40, 44)]
    assert sum(own) >= len(own) - 1


BROWN = ("Image_134", "Image_12", "Image_8")  # photos of a light wooden table, nearly a thumb's
# colour


@pytest.fixture(scope="module")
def brown_deck(tmp_path_factory: pytest.TempPathFactory) -> Deck:
    """The three photos of a light wooden table taught, and three other photos."""
    return _taught(tmp_path_factory.mktemp("brown"), (*BROWN, *TAUGHT))


@pytest.mark.parametrize(("name", "seed"), [(BROWN[0], 349), (BROWN[0], 351), (BROWN[1], 349)])
def test_a_thumb_nearly_the_colour_of_the_card_s_art_is_found_and_left_out(brown_deck, name,
                                                                            seed):
    """A thumb is found by its colour over the card's edge and the surface of that colour
    joined to it; over a light wooden table of nearly its colour, that surface spread over the
    table's photo, more than a thumb can cover, and nothing was taken for covered: the thumb
    was compared as part of the card, which was said unknown (one of the art set's 20 %
    covered readings, and these frames). Where the first reach spreads over the art, the
    thumb's colour is taken more strictly: the table is lighter than the thumb."""
    frame, _ = _held(name, seed)
    covered = 1.0 - float(look(_straight(frame))[..., SEEN].mean())
    assert 0.1 <= covered <= 0.35
    assert [(c.id, c.uncertain) for c in read_cards(frame, brown_deck).cards] == [(name, False)]


OTHER_NEAR = ("Image_58", "Image_145", "Image_29", "Image_87", "Image_130", "Image_94")  # photos
# nearer by look than the two below, held, to themselves


@pytest.fixture(scope="module")
def far_held_deck(tmp_path_factory: pytest.TempPathFactory) -> Deck:
    """An orange and a wooden table's photos, and six photos a thumb makes them look like."""
    return _taught(tmp_path_factory.mktemp("far-held"),
                   ("IMG_20191112_101952", "IMG_20191112_111451", *OTHER_NEAR))


@pytest.mark.parametrize(("name", "seed"), [("IMG_20191112_101952", 21),
                                            ("IMG_20191112_101952", 22),
                                            ("IMG_20191112_111451", 33),
                                            ("IMG_20191112_111451", 37)])
def test_a_photo_held_by_a_thumb_farther_by_look_than_known_is_named_by_its_corners(
        far_held_deck, name, seed):
    """Held by a thumb, a photo of a plain table lies farther by look from its own picture than
    a card not taught lies from any (0.23-0.29 against 0.17: the look of a plain surface is
    mostly its light, and the thumb's blurred edge moves it), and it was said unknown without
    its corners being looked at, though 32-40 of them line up with its picture (5 of the art
    set's 20 % covered readings not named). Held, a card with corners of its own goes on to
    its corners and its cells, which name it."""
    frame, _ = _held(name, seed)
    assert [c.id for c in read_cards(frame, far_held_deck).cards] == [name]


@pytest.mark.parametrize("name", ["IMG_20191112_101753", "IMG_20191112_111203"])
def test_another_photo_held_by_a_thumb_is_never_named_surely_by_its_corners(far_held_deck,
                                                                            name):
    """Other photos of those tables, held, going on to their corners however far by look."""
    for seed in range(20, 30):
        seen = read_cards(_held(name, seed)[0], far_held_deck).cards
        assert all(c.id is None or c.uncertain for c in seen), f"seed {seed}"


@pytest.mark.parametrize(("name", "seed"), [("IMG_20191112_101715", 6), ("IMG_20191112_102109", 31),
                                            ("IMG_20191112_111750", 13)])
def test_a_card_cut_by_a_shadow_whose_lit_half_shows_its_art_alone_is_one_card(name, seed):
    """Where a card's art meets its thin border, the edges cut the lit half's outline down to
    its art, and the shadowed half's outline is its border alone: the brightest of the lit
    outline was the art, of the shadowed one its border, about as light, and the whole card
    was dropped for two cards side by side (5 of the art set's readings half in shadow, each
    then unknown, one of them not found). The light is compared over the two parts of the
    whole card, border and all."""
    assert _found_in_shadow(name, seed) > 0.85


@pytest.mark.parametrize("seed", [35, 49, 100])
def test_a_dark_photo_half_in_shadow_whose_border_alone_shows_is_found(seed):
    """A dark photo in a thin white border, half in shadow: only the border lies above the
    table's grey, broken where it is thinnest, and the outline of a broken ring covers little
    of its hull, as a pale patch of table joined to a card does; the card was not found (one of
    the art set's readings half in shadow). A thin outline running along all four sides of its
    hull is the card's border."""
    assert _found_in_shadow("IMG_20191112_111119", seed) > 0.85


def test_a_card_whose_matches_cannot_change_the_reading_is_not_fitted(tmp_path, monkeypatch):
    """Cards of one table share corners: fitting each candidate's matches was most of a
    reading's time. A card whose matches cannot change the reading, however many of them fit,
    is not fitted: the same readings, confidence included, with fewer fits."""
    taught = (*TAUGHT, *SAME_TABLE, *WOODEN_TABLE[:2], *LOOKALIKES)
    deck = _taught(tmp_path, taught)
    frames = []
    for k, name in enumerate((*taught, *UNTAUGHT, "Image_16", WOODEN_TABLE[2],
                              ANOTHER_FROM_THAT_TABLE)):
        card = art_card(cv2.imread(str(ART / f"{name}.jpg")))
        for condition in ("plain", "shadow", "covered"):
            rng = np.random.default_rng(40 + k)
            frame, spot = laid_on_table(card, rng)
            frames.append(transform(condition, frame, [(name, spot)], rng)[0])
    fits = []
    fit = card_features._lined_up

    def counted(*args):
        fits.append(1)
        return fit(*args)

    monkeypatch.setattr(card_features, "_lined_up", counted)
    read = [read_cards(frame, deck).cards for frame in frames]
    skipping = len(fits)
    monkeypatch.setattr(Matches, "most", property(lambda m: 10**6 if m.ways else 0))
    assert [read_cards(frame, deck).cards for frame in frames] == read  # every card fitted
    assert skipping < 0.9 * (len(fits) - skipping)  # (85 of 111 when written)
