"""Cards taught from photos are the owner's (issue 43, item 1): a picture is journaled with the
teaching that took it, written where the card camera reads it, kept when the teaching is undone
and when the companion restarts (also after a power cut between the journal and the file), and
carried in the box file to another data directory, where the camera knows the card; a damaged
picture in a box file is refused and the file imports nothing.

The photos are real photos of SET cards (benchmarks/cards/set/), taught under ids of Last
Bastion's cards: any card identity may be taught from a photo.
"""

import base64
import copy
import json

import cv2
import hwtools  # noqa: F401  (first: the repository before tests/ on sys.path)
import numpy as np
import pytest
from card_photos import board_cards, shown_frame, teaching_photo
from demos import demo

from companion.boxfile import export_box, import_box
from companion.cardphotos import (
    NOT_JPEG,
    decode,
    export_pictures,
    pictures_folder,
    sync_pictures,
    taught_picture,
)
from companion.engine import DefinitionStore, Session, find_game
from hardware.cards import card_picture, deck_of
from hardware.doctor import check_cards
from vision.cards import read_cards
from web.definitions import BOX_LIMIT

GAME = "last-bastion"
SHOWN, OTHER = "green-1-striped-diamond", "red-2-solid-oval"
CARD, OTHER_CARD = "incube", "boucher"


def photo_bytes(card: str) -> bytes:
    """A photo of ``card`` as a phone would send it (a JPEG file's bytes)."""
    return cv2.imencode(".jpg", teaching_photo(card))[1].tobytes()


def named(data_dir, card: str = SHOWN) -> str | None:
    """The card the camera names in a frame of ``card`` (another photo than the taught one)."""
    seen = read_cards(shown_frame(card), deck_of(data_dir)).cards
    return seen[0].id if seen and not seen[0].uncertain else None


def teach_event(card: str) -> dict:
    return {"type": "teach", "kind": "card", "id": card, "definition": {"complete": True}}


def teach(session: Session, card: str, photo: str, write: bool = True) -> dict:
    """Teach ``card`` on ``session`` from a photo of ``photo``, as the teach form does."""
    picture = card_picture(photo_bytes(photo), "card.jpg", card, session.data_dir)
    session.submit(teach_event(card), source="web",
                   taught=[taught_picture(card, picture["jpeg"])])
    if write:
        assert sync_pictures(session)
    return picture


@pytest.fixture
def playing(data_dir):
    session = Session(data_dir)
    session.submit(demo(GAME)[0])
    yield session
    session.close()


def test_a_taught_picture_is_journaled_with_its_teaching_and_known_after_a_restart(
        data_dir, playing):
    teach(playing, CARD, SHOWN)
    teach(playing, OTHER_CARD, OTHER)
    rows = [e for e in playing.journal_entries() if e.event.type == "teach"]
    assert len(rows) == 2
    playing.close()
    deck_of(data_dir).reload()
    reopened = Session(data_dir)
    assert named(data_dir) == CARD
    assert named(data_dir, OTHER) == OTHER_CARD
    assert DefinitionStore(data_dir, GAME).load()["card"][CARD] == {"complete": True}
    reopened.close()


def test_the_doctor_shows_the_cards_taught_from_the_page_to_the_reader(data_dir, playing):
    teach(playing, CARD, SHOWN)
    teach(playing, OTHER_CARD, OTHER)
    check = check_cards(data_dir)
    assert check.ok is True and check.detail.startswith("2 cards taught"), check.detail


def test_a_picture_journaled_before_a_power_cut_is_written_when_the_companion_starts(
        data_dir, playing):
    teach(playing, CARD, SHOWN, write=False)  # killed between the journal and the file
    assert not list(pictures_folder(data_dir).glob("*.png"))
    playing.close()
    reopened = Session(data_dir)
    assert sync_pictures(reopened)  # companion run does it as it starts
    assert named(data_dir) == CARD
    files = sorted(pictures_folder(data_dir).glob("*.png"))
    assert sync_pictures(reopened) and sorted(pictures_folder(data_dir).glob("*.png")) == files
    reopened.close()


def test_undoing_the_teaching_keeps_the_picture(data_dir, playing):
    teach(playing, CARD, SHOWN)
    playing.submit({"type": "undo"})
    assert [e.event.type for e in playing.journal_entries()][-2:] == ["teach", "undo"]
    assert named(data_dir) == CARD
    playing.close()
    reopened = Session(data_dir)
    assert sync_pictures(reopened) and named(data_dir) == CARD
    reopened.close()


def test_a_photo_with_no_card_or_no_image_teaches_nothing(data_dir):
    table = cv2.imencode(".jpg", np.full((480, 640, 3), 90, np.uint8))[1].tobytes()
    assert set(card_picture(table, "table.jpg", CARD, data_dir)["problem"]) >= {"en", "fr", "es"}
    refused = card_picture(b"not a photo", "notes.txt", CARD, data_dir)["problem"]
    assert "notes.txt" in refused["en"] and "notes.txt" in refused["fr"]
    assert not pictures_folder(data_dir).exists()


def test_the_box_file_carries_the_pictures_to_another_companion(data_dir, playing, tmp_path):
    teach(playing, CARD, SHOWN)
    teach(playing, OTHER_CARD, OTHER)
    box = json.loads(json.dumps(export_box(data_dir, find_game(GAME))))
    assert set(box["pictures"]) == {CARD, OTHER_CARD}
    fresh = tmp_path / "fresh"
    report = import_box(fresh, box)
    assert report.written, report.to_json()
    assert {(e.kind, e.outcome) for e in report.entries if e.kind == "picture"} == \
        {("picture", "added")}
    assert named(fresh) == CARD and named(fresh, OTHER) == OTHER_CARD
    again = import_box(fresh, box)  # imported twice: nothing new
    assert {e.outcome for e in again.entries if e.kind == "picture"} == {"unchanged"}
    back = import_box(data_dir, box)  # and into the companion it came from
    assert {e.outcome for e in back.entries if e.kind == "picture"} == {"unchanged"}


def huge(picture: str) -> bytes:
    """A picture whose header says it is 60000 pixels a side (gigabytes, decoded)."""
    jpeg = bytearray(base64.b64decode(picture))
    at = jpeg.find(b"\xff\xc0")
    jpeg[at + 5:at + 9] = (60000).to_bytes(2, "big") * 2
    return bytes(jpeg)


def damaged(box: dict, change) -> dict:
    bad = copy.deepcopy(box)
    change(bad["pictures"])
    return bad


@pytest.mark.parametrize("change, detail", [
    (lambda p: p[CARD].__setitem__(0, "%%% not base64"), "base64"),
    (lambda p: p[CARD].__setitem__(0, p[CARD][0][:len(p[CARD][0]) // 8 * 4]), NOT_JPEG),
    (lambda p: p[CARD].__setitem__(0, base64.b64encode(b"GIF89a...").decode()), NOT_JPEG),
    (lambda p: p[CARD].__setitem__(0, base64.b64encode(huge(p[CARD][0])).decode()), NOT_JPEG),
    (lambda p: p.__setitem__(CARD, "one picture"), "a list of base64 JPEG pictures"),
])
def test_a_damaged_picture_is_refused_and_the_file_imports_nothing(
        data_dir, playing, tmp_path, change, detail):
    teach(playing, CARD, SHOWN)
    box = export_box(data_dir, find_game(GAME))
    box["definitions"].setdefault("card", {})["boucher"] = {"complete": True}
    fresh = tmp_path / "fresh"
    report = import_box(fresh, damaged(box, change))
    assert not report.written
    refused = [e for e in report.entries if e.outcome == "refused"]
    assert [(e.kind, e.reason.key, e.reason.params["detail"]) for e in refused] == \
        [("picture", "box.bad_picture", detail)]
    assert not fresh.exists() or not any(fresh.rglob("*.png")) and \
        DefinitionStore(fresh, GAME).load() == {}


def test_a_picture_of_a_card_the_game_does_not_know_is_refused(data_dir, playing, tmp_path):
    teach(playing, CARD, SHOWN)
    box = export_box(data_dir, find_game(GAME))
    box["pictures"]["not-a-card"] = box["pictures"][CARD]
    report = import_box(tmp_path / "fresh", box)
    assert not report.written
    assert [(e.id, e.reason.key) for e in report.entries if e.outcome == "refused"] == \
        [("not-a-card", "box.unknown_card")]


def test_a_box_of_two_hundred_cards_taught_from_photos_fits_the_import_limit(tmp_path):
    """Bytes per card: each card of three SET boards taught from its photo, exported."""
    data = tmp_path / "box"
    cards = [c for board in ("green-1", "red-2", "purple-3") for c in board_cards(board)]
    folder = pictures_folder(data)
    folder.mkdir(parents=True)
    for index, card in enumerate(cards):
        picture = card_picture(photo_bytes(card), "card.jpg", f"c{index}", data)["jpeg"]
        cv2.imwrite(str(folder / f"c{index}.png"), decode(picture))
    exported = export_pictures(data, {f"c{i}" for i in range(len(cards))})
    per_card = max(len(json.dumps(items)) for items in exported.values())
    assert per_card * 200 < BOX_LIMIT * 0.75, per_card
