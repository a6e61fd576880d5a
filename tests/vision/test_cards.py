"""The card camera's reader on real photos: a card taught from one photo is named in a photo
taken another day, turned or seen from an angle; a card not taught is said unknown; two taught
cards that look alike are reported when taught and asked, never guessed, when read."""

from __future__ import annotations

import json

import cv2
import numpy as np
import pytest
from card_photos import READ_PHOTO, board_cards, shown_frame, teaching_photo, whole_board

from benchmarks.cards import boards, transform
from companion.cardphotos import picture_files
from companion.cli import main
from vision import VisionError
from vision.cards import Deck, find_cards, read_cards, straighten
from vision.cards.deck import SAME_OUTLINE, border_clear
from vision.cards.outline import (
    FILL_DOUBT,
    NO_INK,
    Ink,
    agreement,
    outline,
    same_colour,
    same_filling,
)

TAUGHT_BOARDS = ("red-2", "green-1")


@pytest.fixture(scope="module")
def deck(tmp_path_factory: pytest.TempPathFactory) -> Deck:
    """The 18 cards of two boards, each taught from one photo."""
    return _deck_of(tmp_path_factory.mktemp("cards"), TAUGHT_BOARDS)


def _deck_of(folder, boards: tuple[str, ...], but: tuple[str, ...] = ()) -> Deck:
    """A deck of the cards of ``boards``, each taught from one photo, but for ``but``."""
    deck = Deck(folder)
    for board in boards:
        for card in board_cards(board):
            if card not in but:
                deck.teach(card, teaching_photo(card))
    return deck


@pytest.mark.parametrize("card", ["red-2-solid-oval", "red-2-striped-squiggle",
                                  "green-1-solid-diamond", "green-1-striped-diamond"])
def test_a_card_taught_from_one_photo_is_named_in_a_photo_of_another_day(deck, card):
    frame = shown_frame(card)
    read = read_cards(frame, deck)
    seen = read.cards[0]  # the card at the spot: nearest the frame's centre
    assert (seen.id, seen.uncertain) == (card, False)
    x0, y0, x1, y1 = seen.box
    assert x0 < frame.shape[1] / 2 < x1 and y0 < frame.shape[0] / 2 < y1
    assert 0.5 < seen.confidence <= 1.0


@pytest.mark.parametrize("condition", ["rotated", "tilted"])
def test_a_card_turned_or_seen_from_an_angle_is_still_named(deck, condition):
    card = "green-1-striped-diamond"
    frame = shown_frame(card)
    spots = find_cards(frame)
    turned, centres = transform(condition, frame, [(card, spots[0])], np.random.default_rng(4))
    (x, y) = centres[0][1]
    seen = [c for c in read_cards(turned, deck).cards
            if c.box[0] <= x <= c.box[2] and c.box[1] <= y <= c.box[3]]
    assert [(c.id, c.uncertain) for c in seen] == [(card, False)]


@pytest.mark.parametrize("card", ["purple-3-solid-oval", "purple-3-solid-squiggle"])
def test_a_card_not_taught_is_said_unknown_not_guessed(deck, card):
    seen = read_cards(shown_frame(card), deck).cards[0]
    assert (seen.id, seen.uncertain) == (None, False)


@pytest.fixture(scope="module")
def green_deck_but_one(tmp_path_factory: pytest.TempPathFactory) -> Deck:
    """The green-1 board taught but for its striped diamond."""
    return _deck_of(tmp_path_factory.mktemp("cards"), ("green-1",),
                    but=("green-1-striped-diamond",))


@pytest.mark.parametrize("index", [1, 2, 3])
def test_a_card_not_taught_is_unknown_though_its_twin_of_another_shape_is_taught(
        green_deck_but_one, index):
    # the striped green diamond, untaught, lies by look as near the taught striped green
    # squiggle as a card to itself: only the outlines of their shapes tell them apart
    seen = read_cards(shown_frame("green-1-striped-diamond", index), green_deck_but_one).cards[0]
    assert (seen.id, seen.uncertain) == (None, False)


@pytest.mark.parametrize("seed", [1, 2])
def test_a_card_not_taught_half_in_shadow_is_unknown_too(green_deck_but_one, seed):
    # a shadow's edge across the card is not taken for the edge of a shape (with some other
    # shadows its stripes fade, and it is asked as the empty diamond: asked, never named)
    seen = _in_shadow("green-1-striped-diamond", green_deck_but_one, seed)
    assert [(c.id, c.uncertain) for c in seen] == [(None, False)]


def _in_shadow(card: str, deck: Deck, seed: int, index: int = READ_PHOTO) -> list:
    """The cards read where ``card`` lies, its ``index``-th photo half in shadow."""
    frame = shown_frame(card, index)
    shaded, centres = transform("shadow", frame, [(card, find_cards(frame)[0])],
                                np.random.default_rng(seed))
    (x, y) = centres[0][1]
    return [c for c in read_cards(shaded, deck).cards
            if c.box[0] <= x <= c.box[2] and c.box[1] <= y <= c.box[3]]


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_the_benchmark_s_cast_shadow_darkens_the_table_beyond_its_line_the_other_shadow_not(
        seed):
    """The benchmark's two shadows (benchmarks/cards.py): ``shadow`` darkens half of the card
    alone; ``cast``, as a shadow cast from above does, the table beyond the same line too."""
    frame = shown_frame("green-1-striped-diamond", READ_PHOTO)
    spot = find_cards(frame)[0]
    outside = np.ones(frame.shape[:2], bool)
    cv2.fillConvexPoly(outside.view(np.uint8), spot.corners.astype(np.int32), 0)
    outside = cv2.erode(outside.astype(np.uint8), np.ones((9, 9), np.uint8)).astype(bool)
    grey = cv2.cvtColor(frame, cv2.COLOR_BGR2GRAY).astype(float)
    for condition, table_darkened in (("shadow", False), ("cast", True)):
        shaded = transform(condition, frame, [("card", spot)], np.random.default_rng(seed))[0]
        light = cv2.cvtColor(shaded, cv2.COLOR_BGR2GRAY).astype(float)[outside]
        darker = (light < 0.7 * grey[outside]) & (grey[outside] > 20)  # (the darkest table:
        # noise)
        assert (darker.mean() > 0.2) == table_darkened, condition


@pytest.fixture(scope="module")
def green_twins_deck(tmp_path_factory: pytest.TempPathFactory) -> Deck:
    """The green-1 and green-2 boards taught: each hatched card beside its empty twin."""
    return _deck_of(tmp_path_factory.mktemp("cards"), ("green-1", "green-2"))


@pytest.mark.parametrize(("card", "index", "seed"), [("green-1-striped-diamond", 2, 2),
                                                     ("green-1-striped-diamond", 3, 5),
                                                     ("green-2-striped-diamond", 2, 5),
                                                     ("green-2-striped-diamond", 3, 2)])
def test_a_hatched_card_whose_outline_a_shadow_broke_is_named_by_its_filling(
        green_twins_deck, card, index, seed):
    """Half in shadow, a hatched card's outline breaks where the shadow fades its rim: the paper
    round its shapes came in through the gaps, 4 to 44 pixels of their insides were left (of
    about 2,000-4,000), and those read empty (under 0.07). Printed as its empty twin, the card
    was asked with it. Where its outline closes less than a fifth of its shapes' hulls, their
    filling is taken inside the hulls: hatched, and the card is named surely."""
    assert [(c.id, c.uncertain) for c in _in_shadow(card, green_twins_deck, seed, index)] == [
        (card, False)]


@pytest.mark.parametrize(("index", "seed"), [(2, 5), (3, 2), (3, 11)])
def test_a_hatched_card_not_taught_whose_outline_a_shadow_broke_is_unknown(tmp_path, index, seed):
    """The same card untaught, its empty twin taught: its broken outline's few pixels of
    insides read empty, and it was asked as the empty twin (15 readings of the benchmark's table
    of cards untaught among their twins, half in shadow). Filled inside its shapes' hulls, it is
    no card taught."""
    card = "green-2-striped-diamond"
    seen = _in_shadow(card, _deck_of(tmp_path, ("green-2",), but=(card,)), seed, index)
    assert [(c.id, c.uncertain) for c in seen] == [(None, False)]


def test_a_pale_hatching_taught_from_a_blurred_photo_has_its_filling_told():
    """SET's green-1 hatched squiggle was taught from a blurred photo: its pale rim is ink in
    places only (219 pixels), closed nothing, and its filling could not be told, so the untaught
    empty squiggle beside it was asked as it (25 readings of the benchmark's table of cards
    untaught among their twins, half in shadow and a fifth covered). Where the ink alone
    closes no inside, the outline drawn whole closes it: hatched."""
    shapes = outline(straighten(*_taught_spot("green-1-striped-squiggle")))
    assert shapes.ink.fill is not None and shapes.ink.fill > FILL_DOUBT[1]


def _taught_spot(card: str) -> tuple[np.ndarray, object]:
    """The teaching photo of ``card`` and where the card lies in it."""
    photo = teaching_photo(card)
    return photo, find_cards(photo)[0]


@pytest.fixture(scope="module")
def green_deck_but_the_empty_squiggle(tmp_path_factory: pytest.TempPathFactory) -> Deck:
    """The green-1 board taught but for its empty squiggle."""
    return _deck_of(tmp_path_factory.mktemp("cards"), ("green-1",),
                    but=("green-1-empty-squiggle",))


@pytest.mark.parametrize(("condition", "seed"), [("shadow", 2), ("shadow", 3), ("shadow", 4),
                                                 ("covered", 2), ("covered", 3)])
def test_an_empty_card_not_taught_is_unknown_beside_its_hatched_twin_taught_blurred(
        green_deck_but_the_empty_squiggle, condition, seed):
    card = "green-1-empty-squiggle"
    frame = shown_frame(card)
    seen_frame, centres = transform(condition, frame, [(card, find_cards(frame)[0])],
                                    np.random.default_rng(seed))
    (x, y) = centres[0][1]
    seen = [c for c in read_cards(seen_frame, green_deck_but_the_empty_squiggle).cards
            if c.box[0] <= x <= c.box[2] and c.box[1] <= y <= c.box[3]]
    assert [(c.id, c.uncertain) for c in seen] == [(None, False)]


@pytest.mark.parametrize(("card", "index", "seed"), [("green-1-empty-diamond", 2, 7),
                                                     ("green-1-empty-diamond", 3, 6),
                                                     ("green-2-empty-oval", 2, 3),
                                                     ("green-2-empty-oval", 3, 4)])
def test_an_empty_card_half_in_shadow_whose_lit_part_shows_its_filling_is_named_surely(
        green_twins_deck, card, index, seed):
    """Half in shadow, an empty card was always asked (162 of the SET half in shadow row's 162
    taught empty readings): a shadow fades a hatching, so an empty filling was told only on a
    card evenly lit, and its hatched twin might be the card. The filling is now judged on the
    part of the shapes the shadow leaves lit, where a hatching would show."""
    assert [(c.id, c.uncertain) for c in _in_shadow(card, green_twins_deck, seed, index)] == [
        (card, False)]


def test_an_empty_card_not_taught_whose_lit_part_reads_hatched_is_not_named_surely(tmp_path):
    """Half in shadow, an untaught empty purple diamond's insides read empty (0.04) but their
    lit part 0.15 filled, as hatched: judged there alone, it was named surely as the taught
    hatched twin (the one untaught card named surely in the benchmark's table of cards untaught
    among their twins). The lit part now only confirms an empty filling."""
    card = "purple-2-empty-diamond"
    seen = _in_shadow(card, _deck_of(tmp_path, ("purple-2",), but=(card,)), 10, 3)
    assert seen and all(c.id is None or c.uncertain for c in seen)


def test_a_card_not_taught_whose_ink_a_shadow_greyed_is_not_named_surely_as_its_twin(tmp_path):
    """Half in shadow, an untaught purple hatched diamond's ink is too grey to have a hue (5.4
    units of chroma, under 6): it may be any ink, its outline and filling were the taught green
    twin's, and it was named surely as that. A colour not compared names nothing surely."""
    card = "purple-1-striped-diamond"
    deck = _deck_of(tmp_path, ("green-1", "purple-1"), but=(card,))
    seen = _in_shadow(card, deck, 5, 3)
    assert seen and all(c.id is None or c.uncertain for c in seen)


def test_a_card_not_taught_whose_ink_a_shadow_dimmed_to_5_units_is_told_by_its_hue(tmp_path):
    """Half in shadow, an untaught purple hatched oval's ink held 5.1 units of chroma: under the
    6 that had a hue, it might have been any ink, and it was asked as the taught green oval
    (9 of the 16 readings the twins table asked half in shadow were such cards; drawn again
    with 5 units, 2, whose ink holds under 1 unit). Measured on SET's cards half in shadow,
    inks of 5 to 6 units lie within 8 degrees of their own hue, the inks 50 apart: from 5 units
    its hue is compared, and it is no card taught."""
    card = "purple-1-striped-oval"
    seen = _in_shadow(card, _deck_of(tmp_path, ("green-1", "purple-1"), but=(card,)), 5, 3)
    assert [(c.id, c.uncertain) for c in seen] == [(None, False)]


@pytest.fixture(scope="module")
def red_deck(tmp_path_factory: pytest.TempPathFactory) -> Deck:
    """The red-1 board taught (its solid oval from a blurred photo)."""
    return _deck_of(tmp_path_factory.mktemp("cards"), ("red-1",))


@pytest.mark.parametrize(("index", "seed"), [(2, 1), (2, 6), (2, 7), (3, 8)])
def test_a_card_most_in_shadow_is_named_by_its_print_though_its_look_moved_farther(
        red_deck, index, seed):
    # a shadow across most of the card took its look 0.25-0.29 from its (blurred) picture,
    # past the reach of the print (0.22): it was said unknown, though its outline, ink and
    # filling are its own
    assert [c.id for c in _in_shadow("red-1-solid-oval", red_deck, seed, index)] == [
        "red-1-solid-oval"]


@pytest.fixture(scope="module")
def purple_deck(tmp_path_factory: pytest.TempPathFactory) -> Deck:
    """The purple-1 board taught."""
    return _deck_of(tmp_path_factory.mktemp("cards"), ("purple-1",))


@pytest.mark.parametrize("index", [1, 2, 3])
@pytest.mark.parametrize("card", ["purple-1-striped-oval", "purple-1-striped-diamond"])
def test_a_small_hatched_card_nearer_its_empty_twin_by_look_is_named_by_its_filling(
        purple_deck, card, index):
    # nine cards to a 640-pixel frame: a hatched card's look lay nearer the empty one's, whose
    # print is alike but filled otherwise, and it was said unknown though its own card, a
    # little farther, is printed and filled alike
    frame, cards = whole_board("purple-1", index)
    (x, y) = cards[card].corners.mean(axis=0)
    seen = [c for c in read_cards(frame, purple_deck).cards
            if c.box[0] <= x <= c.box[2] and c.box[1] <= y <= c.box[3]]
    assert [c.id for c in seen] == [card]


def _on_its_board(folder, card: str, index: int) -> tuple[float, list]:
    """``card`` in the ``index``-th photo of its board, nine cards to a frame: how well its
    outline agrees with its teaching picture's, and the ids read where it lies (its board
    taught)."""
    frame, cards = whole_board(card.rsplit("-", 2)[0], index)
    seen = outline(straighten(frame, cards[card]))
    taught = outline(_straight_centre(teaching_photo(card)))
    (x, y) = cards[card].corners.mean(axis=0)
    read = [c.id for c in read_cards(frame, _deck_of(folder, (card.rsplit("-", 2)[0],))).cards
            if c.box[0] <= x <= c.box[2] and c.box[1] <= y <= c.box[3]]
    return agreement(seen, taught), read


@pytest.mark.parametrize(("card", "index"), [("red-3-solid-oval", 1), ("red-3-solid-oval", 2),
                                           ("red-3-solid-oval", 3), ("purple-3-solid-oval", 3)])
def test_a_small_card_s_wide_solid_shapes_are_ink_whole(tmp_path, card, index):
    """Nine cards to a frame, the ink of three solid ovals is paler and greyer than in the
    teaching photo: only their ends were ink (the paper is taken over 25 pixels, and an oval is
    wider: inside it, it was its own paper), their outline agreed 0.19-0.23 with their own,
    and they were said unknown (8 of the 9-a-frame row's 14 taught readings not named). Darker
    than the paper round it over a wider window and of another colour than the paper (a shadow
    is not), the inside is ink."""
    agreeing, read = _on_its_board(tmp_path, card, index)
    assert agreeing >= SAME_OUTLINE
    assert read == [card]


@pytest.mark.parametrize(("card", "index"), [("green-1-striped-squiggle", 2),
                                             ("green-1-striped-squiggle", 3),
                                             ("green-3-striped-oval", 2)])
def test_a_small_card_s_faint_thin_outline_is_drawn_whole(tmp_path, card, index):
    """Nine cards to a frame, the thin green outline of a hatched shape is blurred to 0.73-0.76
    of the paper's light at its darkest, above the 0.75 under which a pixel is ink: bits of it
    were drawn, its outline agreed 0.19-0.47 with its own, and the card was said unknown (6 of
    the 8 taught readings the 9-a-frame row did not name). The outline is drawn where the card
    is darker than halfway from its paper to its darkest."""
    agreeing, read = _on_its_board(tmp_path, card, index)
    assert agreeing >= SAME_OUTLINE
    assert read == [card]


@pytest.mark.parametrize("index", [2, 3])
def test_a_card_whose_outline_tells_it_from_the_cards_as_near_is_named_surely(deck, index):
    # by look the solid green oval lies about as near the solid green squiggle and diamond
    # (asked, before the outlines); only their shapes tell them apart
    seen = read_cards(shown_frame("green-1-solid-oval", index), deck).cards[0]
    assert (seen.id, seen.uncertain) == ("green-1-solid-oval", False)


@pytest.mark.parametrize("card, board, twin", [
    ("purple-3-striped-oval", "green-3", "green-3-striped-oval"),  # another ink
    ("purple-3-empty-oval", "green-3", "green-3-empty-oval"),
    ("green-2-striped-diamond", "green-2", "green-2-empty-diamond"),  # another filling
])
def test_a_card_not_taught_is_unknown_though_its_twin_of_another_ink_or_filling_is(
        tmp_path, card, board, twin):
    # before the ink's colour and filling were compared, each was named surely as its twin
    # in every photo (by look they lie as near as a card to itself)
    deck = _deck_of(tmp_path, tuple({card.rsplit("-", 2)[0], board}), but=(card,))
    assert twin in deck.ids
    for index in (1, 2, 3):
        seen = read_cards(shown_frame(card, index), deck).cards[0]
        assert (seen.id, seen.uncertain) == (None, False)


@pytest.fixture(scope="module")
def red_and_purple_deck(tmp_path_factory: pytest.TempPathFactory) -> Deck:
    """The cards of the red-2 and purple-2 boards, taught."""
    return _deck_of(tmp_path_factory.mktemp("cards"), ("red-2", "purple-2"))


@pytest.mark.parametrize("index", [1, 2, 3])
def test_a_card_whose_ink_tells_it_from_its_twin_of_another_colour_is_named_surely(
        red_and_purple_deck, index):
    # the red empty squiggle lies by look about as near the purple one as to itself (asked in
    # every photo before): their outlines are one, their inks 50 degrees of hue apart at least
    seen = read_cards(shown_frame("red-2-empty-squiggle", index), red_and_purple_deck).cards[0]
    assert (seen.id, seen.uncertain) == ("red-2-empty-squiggle", False)


@pytest.fixture(scope="module")
def red_one_deck(tmp_path_factory: pytest.TempPathFactory) -> Deck:
    """The cards of the red-1 board, taught from a blurred photo."""
    return _deck_of(tmp_path_factory.mktemp("cards"), ("red-1",))


@pytest.mark.parametrize("card, index", [("red-1-empty-diamond", 2), ("red-1-empty-diamond", 3),
                                         ("red-1-solid-squiggle", 2)])
def test_a_card_taught_from_a_blurred_photo_is_still_named(red_one_deck, card, index):
    # red-1's teaching photo is blurred: its empty diamond lies farther by look from it than
    # any card may lie from a taught one (unknown before); its print, the same as taught, names
    # it; the solid squiggle, far by look and unlike any other card's print, surely
    seen = read_cards(shown_frame(card, index), red_one_deck).cards[0]
    assert seen.id == card
    assert seen.uncertain == (card == "red-1-empty-diamond")


@pytest.mark.parametrize("card", ["red-2-solid-oval", "red-2-empty-diamond"])
def test_a_card_printed_in_grey_is_named_surely_by_its_look_and_outline(tmp_path, card):
    # a grey ink has no colour to tell a filling by (all asked before): the look alone decides
    # when no other card is about as near
    def grey(image):
        return cv2.cvtColor(cv2.cvtColor(image, cv2.COLOR_BGR2GRAY), cv2.COLOR_GRAY2BGR)

    deck = Deck(tmp_path)
    for other in board_cards("red-2"):
        deck.teach(other, grey(teaching_photo(other)))
    seen = read_cards(grey(shown_frame(card)), deck).cards[0]
    assert (seen.id, seen.uncertain) == (card, False)


def test_two_cards_alike_are_reported_when_taught_and_asked_when_read(tmp_path):
    deck = Deck(tmp_path)
    photo = teaching_photo("red-2-solid-oval")  # two copies of one card: same art
    assert deck.teach("flamethrower-1", photo).alike == []
    assert deck.teach("flamethrower-2", photo).alike == ["flamethrower-1"]
    seen = read_cards(shown_frame("red-2-solid-oval"), deck).cards[0]
    assert seen.uncertain
    assert {seen.id, *seen.alike} == {"flamethrower-1", "flamethrower-2"}


def test_cards_near_by_look_but_printed_otherwise_are_not_reported_alike(tmp_path):
    # the solid purple squiggle lies by look within the "alike" distance of the solid purple
    # oval and diamond (both reported before): their outlines tell them apart when read
    deck = Deck(tmp_path)
    for card in ("purple-1-solid-oval", "purple-1-solid-diamond"):
        deck.teach(card, teaching_photo(card))
    assert deck.teach("purple-1-solid-squiggle",
                      teaching_photo("purple-1-solid-squiggle")).alike == []
    seen = read_cards(shown_frame("purple-1-solid-squiggle"), deck).cards[0]
    assert (seen.id, seen.uncertain) == ("purple-1-solid-squiggle", False)


def test_a_card_taught_again_keeps_its_first_picture(tmp_path):
    deck = Deck(tmp_path)
    deck.teach("incube", teaching_photo("green-1-solid-oval"))
    deck.teach("incube", teaching_photo("green-1-solid-oval"))
    assert sorted(p.name for p in tmp_path.iterdir()) == ["incube.png", "incube@2.png"]
    assert Deck(tmp_path).ids == ["incube", "incube"]


def test_bad_teaching_says_what_is_wrong_and_writes_nothing(tmp_path):
    deck = Deck(tmp_path / "cards")
    with pytest.raises(VisionError) as error:
        deck.teach("not a card/id", teaching_photo("green-1-solid-oval"))
    assert error.value.key == "cards.bad_id"
    with pytest.raises(VisionError) as error:
        deck.teach("incube", np.full((480, 640, 3), 120, np.uint8))
    assert error.value.key == "cards.none_in_photo"
    assert "carte" in error.value.text("fr")
    assert not (tmp_path / "cards").exists()


def test_the_command_teaches_a_card_and_prints_what_the_camera_would_report(tmp_path, capsys):
    teach, shown = tmp_path / "teach.jpg", tmp_path / "shown.jpg"
    cv2.imwrite(str(teach), teaching_photo("red-2-solid-oval"))
    cv2.imwrite(str(shown), shown_frame("red-2-solid-oval"))
    data = ["--data-dir", str(tmp_path / "data"), "--lang", "en"]
    assert main(["cards", "photo", "red-2-solid-oval", str(teach), *data]) == 0
    assert "taught red-2-solid-oval" in capsys.readouterr().out
    assert main(["cards", "read", str(shown), "--json", *data]) == 0
    report = json.loads(capsys.readouterr().out)
    assert set(report) == {"cards", "ms"}
    card = report["cards"][0]
    assert set(card) == {"id", "confidence", "uncertain", "box"} and len(card["box"]) == 4
    assert (card["id"], card["uncertain"]) == ("red-2-solid-oval", False)
    assert list(picture_files(tmp_path / "data")) == ["red-2-solid-oval"]
    assert main(["cards", "read", str(tmp_path / "missing.jpg"), *data]) == 2
    assert "missing.jpg" in capsys.readouterr().err


def _lay(table: np.ndarray, card: np.ndarray, centre: tuple[int, int], angle: float) -> None:
    """Lay the straightened ``card`` on ``table``, turned by ``angle`` degrees."""
    picture = cv2.resize(card, (150, 225))
    turn = cv2.getRotationMatrix2D((75, 112.5), angle, 1.0)
    turn[:, 2] += (centre[0] - 75, centre[1] - 112.5)
    size = table.shape[1::-1]
    under = cv2.warpAffine(np.full((225, 150), 255, np.uint8), turn, size) > 0
    table[under] = cv2.warpAffine(picture, turn, size)[under]


def test_a_card_lying_on_other_cards_is_named_and_those_under_it_are_not(deck):
    table = np.full((480, 640, 3), 45, np.uint8)
    for card, centre, angle in (("red-2-solid-oval", (260, 230), 35),
                                ("green-1-solid-oval", (380, 260), -20)):
        photo = teaching_photo(card)
        _lay(table, straighten(photo, find_cards(photo)[0]), centre, angle)
    frame = shown_frame("green-1-striped-diamond")
    _lay(table, straighten(frame, find_cards(frame)[0]), (320, 240), 10)
    seen = read_cards(table, deck).cards
    assert [(c.id, c.uncertain) for c in seen] == [("green-1-striped-diamond", False)]


@pytest.mark.parametrize("card", ["red-2-solid-oval", "green-1-striped-diamond"])
def test_a_card_held_by_a_thumb_over_a_corner_is_still_named(deck, card):
    seen = _held_by_a_thumb(card, deck, seed=3)
    assert [c.id for c in seen] == [card]  # named, maybe asked: what is covered is not seen


def _held_by_a_thumb(card: str, deck: Deck, seed: int) -> list:
    """The cards read where ``card`` lies, shown with a thumb over a fifth of it."""
    frame = shown_frame(card)
    covered, centres = transform("covered", frame, [(card, find_cards(frame)[0])],
                                 np.random.default_rng(seed))
    (x, y) = centres[0][1]
    return [c for c in read_cards(covered, deck).cards
            if c.box[0] <= x <= c.box[2] and c.box[1] <= y <= c.box[3]]


@pytest.mark.parametrize("seed", [1, 2, 3, 4, 5])
def test_a_card_not_taught_held_by_a_thumb_is_unknown_though_its_twin_is_taught(
        green_deck_but_one, seed):
    # the thumb is left out of its print: the rest of its hatching tells it from the taught
    # empty diamond (asked as another card before)
    seen = _held_by_a_thumb("green-1-striped-diamond", green_deck_but_one, seed)
    assert [(c.id, c.uncertain) for c in seen] == [(None, False)]


def test_a_card_not_taught_held_by_a_thumb_is_never_named_surely_as_another_shape(tmp_path):
    # the thumb hides the ends of the purple ovals, where an oval and a squiggle differ most:
    # a taught squiggle's outline may still reach the bar, so a card held is named surely
    # only with most of its outline matching (named surely twice in eight before that)
    deck = _deck_of(tmp_path, ("purple-3",), but=("purple-3-empty-oval",))
    seen = [_held_by_a_thumb("purple-3-empty-oval", deck, seed) for seed in range(1, 9)]
    assert all(len(cards) == 1 and (cards[0].id is None or cards[0].uncertain)
               for cards in seen)
    assert sum(cards[0].id is None for cards in seen) >= 5  # said unknown (asked before)


def test_a_red_card_not_taught_held_by_a_thumb_is_unknown_though_its_other_shape_is_taught(
        tmp_path):
    """Where a thumb leaves them, the outlines of a red oval and a red squiggle of one filling
    agree 0.50-0.56 (their ends, which tell them apart, are under it): over the bar of two cards
    seen whole (0.47), a card not taught was asked as the other (8 of the 10 untaught readings
    the SET a fifth covered row did not say unknown), and a taught oval was asked as the
    squiggle. Held, two outlines must agree 0.57 to be printed alike (a card's own, 0.62 at the
    1st percentile)."""
    for card in ("red-1-striped-oval", "red-1-striped-squiggle"):
        deck = _deck_of(tmp_path / card, ("red-1",), but=(card,))
        seen = [_held_by_a_thumb(card, deck, seed) for seed in range(1, 9)]
        assert all([(c.id, c.uncertain) for c in cards] == [(None, False)] for cards in seen)
    deck = _deck_of(tmp_path / "all", ("red-1",))
    seen = [_held_by_a_thumb("red-1-striped-oval", deck, seed) for seed in range(1, 9)]
    assert all([c.id for c in cards] == ["red-1-striped-oval"] for cards in seen)


@pytest.mark.parametrize("card", ["purple-3-solid-oval", "green-3-solid-oval"])
def test_a_solid_card_held_by_a_thumb_keeps_its_ink(tmp_path, card):
    """A skin-coloured thumb is more coloured than the paper: taken with the paper, it raised
    the paper's saturation over which a pixel is coloured ink, and the insides of three solid
    ovals read as paper, their outline agreeing 0.26-0.39 with their own (said unknown in 8 of
    8 frames; 8 of the 19 taught readings the SET covered row did not name). The paper is
    taken where the thumb is not."""
    deck = _deck_of(tmp_path, (card.rsplit("-", 2)[0],))
    seen = [_held_by_a_thumb(card, deck, seed) for seed in range(1, 7)]
    assert sum([(c.id, c.uncertain) for c in cards] == [(card, False)] for cards in seen) >= 5


@pytest.mark.parametrize("seed", [1, 6])
def test_a_thumb_across_an_empty_shape_is_not_its_filling(tmp_path, seed):
    """A thumb over part of an empty diamond opens its outline: the paper reached its inside
    past the thumb, the shape's hull was taken as its inside instead, thumb and all, and a
    skin-coloured thumb over a red shape read as a filling (0.4-1.0: solid), so the card was
    said unknown (5 of the SET covered row's taught readings). The thumb is a wall the paper
    does not pass and no shape's inside."""
    card = "red-1-empty-diamond"
    frame = shown_frame(card)
    covered, _ = transform("covered", frame, [(card, find_cards(frame)[0])],
                           np.random.default_rng(seed))
    assert outline(_straight_centre(covered)).ink.fill < FILL_DOUBT[0]
    assert [c.id for c in _held_by_a_thumb(card, _deck_of(tmp_path, ("red-1",)), seed)] == [card]


@pytest.mark.parametrize("card", ["green-1-empty-diamond", "green-2-empty-diamond"])
def test_a_thumb_over_the_card_s_edge_leaves_its_paper_and_its_ink(card):
    """The paper's colour is taken along the card's edge, where a thumb over a corner lies on
    a quarter of it: with the thumb, the paper's colour moved toward skin, under a quarter of
    the card was its paper, and the card was taken for a photo with no ink (21 of 24 frames),
    judged by its outline alone (untaught empty diamonds asked as their hatched or purple
    twins). What is coloured on the edge is left out of the paper."""
    frame = shown_frame(card)
    taught = outline(_straight_centre(teaching_photo(card))).ink
    for seed in range(1, 7):
        covered, _ = transform("covered", frame, [(card, find_cards(frame)[0])],
                               np.random.default_rng(seed))
        ink = outline(_straight_centre(covered)).ink
        assert ink != NO_INK and same_colour(ink, taught), f"seed {seed}"


@pytest.mark.parametrize("seed", [2, 3, 4, 5])
def test_a_card_held_by_a_thumb_is_named_surely_when_its_print_tells_it_from_the_others(
        red_and_purple_deck, seed):
    # by look the red hatched diamond, a fifth covered, lies about as near other cards: what
    # is covered could tell them apart (asked before); what is left of its print does
    seen = _held_by_a_thumb("red-2-striped-diamond", red_and_purple_deck, seed)
    assert [(c.id, c.uncertain) for c in seen] == [("red-2-striped-diamond", False)]


@pytest.mark.parametrize("photo", boards()["green-2"], ids=lambda path: path.stem)
def test_cards_lying_close_together_are_found_one_by_one(photo):
    """Nine cards a few millimetres apart: the split nearer the table's grey (for cards in
    shadow) joins four of them into one card-shaped outline, which holds cards side by side."""
    assert len(find_cards(cv2.imread(str(photo)))) == 9


@pytest.mark.parametrize("card", ["green-2-empty-squiggle", "purple-1-empty-diamond"])
def test_a_thumb_brighter_than_the_paper_does_not_make_the_card_look_shadowed(tmp_path, card):
    """The paper's light was taken from the brightest of the border ring, thumb and all: under
    a lamp the thumb is brighter than the grey paper, the paper read as shadowed, and an empty
    card whose filling a shadow could have faded was asked (a fifth of the covered SET
    readings). Evenly lit where the thumb is not, it is named surely."""
    deck = _deck_of(tmp_path, (card.rsplit("-", 2)[0],))
    frame = shown_frame(card)
    named = 0
    for seed in range(1, 7):
        covered, _ = transform("covered", frame, [(card, find_cards(frame)[0])],
                               np.random.default_rng(seed))
        assert border_clear(_straight_centre(covered), held_ok=True), f"seed {seed}"
        named += [(c.id, c.uncertain) for c in _held_by_a_thumb(card, deck, seed)] == [
            (card, False)]
    assert named >= 5


def _straight_centre(frame: np.ndarray) -> np.ndarray:
    """The card nearest the middle of ``frame``, straightened."""
    return straighten(frame, find_cards(frame)[0])


def test_two_empty_fillings_are_alike_however_little_each_holds():
    """Fillings under FILL_DOUBT are empty: a purple empty oval held by a thumb read 0.001, its
    taught picture between 0.06 and 0.07, and "filled otherwise" (0.06 apart, over 2.5 times)
    said the card unknown though its outline agreed wholly (one of the SET a fifth covered
    row's taught readings)."""
    purple = 300.0, 14.0
    assert same_filling(Ink(*purple, 0.001), Ink(*purple, 0.065))
    assert not same_filling(Ink(*purple, 0.001), Ink(*purple, 0.2))  # empty, hatched
    assert same_filling(Ink(*purple, 0.03), Ink(*purple, FILL_DOUBT[0])) is None
