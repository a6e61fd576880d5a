"""A card taught from a photo on the command line is journaled (issue 43, item 1: "stored with
the card's definition in the data directory, journaled, in the box export"), as the teach form's
photo is: the picture is committed in the journal first, then written where the card camera
reads it, so a picture whose file could not be written is written by the next writer. It is
the box's knowledge, no step of a game: an undo takes back the game's last step and keeps it
(docs/cards.md, docs/journal.md)."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import cv2
import pytest
from card_photos import shown_frame, teaching_photo

from companion import cardphotos
from companion.cardphotos import picture_files, sync_pictures
from companion.cli import main
from companion.engine import RuleError, Session
from companion.engine.journal import Journal
from companion.engine.session import PICTURES

CARD = "incube"  # a Last Bastion card, so that the game's box file carries its picture
LOOK = "red-2-solid-oval"  # the SET card photographed for it
CORPUS_GAME = Path(__file__).resolve().parents[1] / "compat" / "format-2" / "last-bastion-demo"


@pytest.fixture
def photos(tmp_path: Path) -> tuple[Path, Path]:
    """The photo the card is taught from, and a frame of it shown to the camera."""
    teach, shown = tmp_path / "teach.jpg", tmp_path / "shown.jpg"
    cv2.imwrite(str(teach), teaching_photo(LOOK))
    cv2.imwrite(str(shown), shown_frame(LOOK))
    return teach, shown


def journaled_pictures(data: Path) -> list[str]:
    """The cards whose pictures the journal holds, oldest first."""
    journal = Journal(data / "journal.sqlite3", readonly=True)
    try:
        return [item for _seq, _game, kind, item, _body in journal.learned_since("everything")
                if kind == PICTURES]
    finally:
        journal.close()


def read_ids(shown: Path, data: list[str], capsys: pytest.CaptureFixture) -> list[str | None]:
    capsys.readouterr()
    assert main(["cards", "read", str(shown), "--json", *data]) == 0
    return [card["id"] for card in json.loads(capsys.readouterr().out)["cards"]]


def test_a_card_photo_taught_from_the_terminal_is_journaled_before_its_file_is_written(
        tmp_path, photos, capsys, monkeypatch):
    teach, shown = photos
    data = tmp_path / "data"
    args = ["--data-dir", str(data), "--lang", "en"]

    def full_disk(path: Path, pixels: object) -> None:
        raise OSError(28, "No space left on device", str(path))

    with monkeypatch.context() as patch:  # the picture's file cannot be written now
        patch.setattr(cardphotos, "_write_png", full_disk)
        assert main(["cards", "photo", CARD, str(teach), *args]) == 0
    assert f"taught {CARD}" in capsys.readouterr().out
    assert journaled_pictures(data) == [CARD]
    assert picture_files(data) == {}
    assert read_ids(shown, args, capsys) == [None]
    session = Session(data)  # the next writer (``companion run`` as it starts) writes it
    try:
        assert sync_pictures(session)
    finally:
        session.close()
    assert list(picture_files(data)) == [CARD]
    assert read_ids(shown, args, capsys) == [CARD]
    box = tmp_path / "box.json"
    assert main(["cards", "export", str(box), "--game", "last-bastion", *args]) == 0
    assert list(json.loads(box.read_text("utf-8"))["pictures"]) == [CARD]


def test_an_undo_takes_back_the_games_last_step_and_keeps_a_card_photo_taught_after_it(
        tmp_path, photos, capsys):
    teach, shown = photos
    data = tmp_path / "data"
    shutil.copytree(CORPUS_GAME, data)
    session = Session(data)
    try:
        steps, before = len(session.history()), session.history()[-2].state
    finally:
        session.close()
    args = ["--data-dir", str(data), "--lang", "en"]
    assert main(["cards", "photo", CARD, str(teach), *args]) == 0
    session = Session(data)
    try:
        assert len(session.history()) == steps  # the photo is no step of the game
        session.submit({"type": "undo"})
        assert session.state == before
    finally:
        session.close()
    assert journaled_pictures(data) == [CARD]
    assert read_ids(shown, args, capsys) == [CARD]


def test_a_bad_card_id_or_a_photo_with_no_card_journals_nothing(tmp_path, photos, capsys):
    teach, _shown = photos
    blank = tmp_path / "blank.jpg"
    cv2.imwrite(str(blank), teaching_photo(LOOK) * 0 + 120)
    data = tmp_path / "data"
    args = ["--data-dir", str(data), "--lang", "en"]
    assert main(["cards", "photo", "no good", str(teach), *args]) == 2
    assert "no good" in capsys.readouterr().err
    assert main(["cards", "photo", CARD, str(blank), *args]) == 2
    assert "card" in capsys.readouterr().err
    assert not (data / "journal.sqlite3").exists() or journaled_pictures(data) == []
    assert picture_files(data) == {}


@pytest.mark.parametrize(("event", "key"), [
    ({"type": "card_photo"}, "event.missing_field"),
    ({"type": "card_photo", "id": "incube", "side": "front"}, "event.unknown_field"),
    ({"type": "teach", "id": "incube"}, "event.unknown_type"),
])
def test_an_event_of_the_box_that_is_not_one_is_refused_and_changes_nothing(
        session, event, key):
    with pytest.raises(RuleError) as error:
        session.submit_box(event, [(PICTURES, "incube", {"jpeg": ""})])
    assert error.value.key == key
    assert session.version == 0 and session.pictures_since("none") == []
