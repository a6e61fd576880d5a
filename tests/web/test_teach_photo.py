"""Teaching a card with its photo from the host page (issue 43, item 1): the teach form sends the
`teach` event with the photo; the card of the photo is taught to the card camera, its picture
journaled with the event; a file that is no image, or a photo with no card, is refused in words
and nothing is taught; a box file over the import limit is refused and changes nothing."""

from __future__ import annotations

import io
import json
import sys
from pathlib import Path

import cv2
import numpy as np
import pytest
from cameras import Still
from webtools import login, setup_event

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "helpers"))
from card_photos import teaching_photo  # noqa: E402

from companion import config as settings  # noqa: E402
from companion.cardphotos import pictures_folder  # noqa: E402
from companion.engine import DefinitionStore  # noqa: E402
from hardware.box import HardwareBox  # noqa: E402
from hardware.frames import FrameTap  # noqa: E402
from hardware.table import Table  # noqa: E402
from web.definitions import BOX_LIMIT  # noqa: E402

SHOWN = "green-1-striped-diamond"
TEACH = {"type": "teach", "kind": "card", "id": "incube", "definition": {"complete": True}}


@pytest.fixture
def host(app, session, tmp_path):
    """A host of a Last Bastion game, on a page whose box reads card photos."""
    conf = tmp_path / "box.toml"
    conf.write_text('[general]\npin_factory = "mock"\n[speech]\nbackend = "silent"\n')
    ctx = app.extensions["companion"]
    ctx.box = HardwareBox(session, settings.load([conf]))
    host = login(app)
    assert host.send(setup_event()).status_code == 200
    return host


def send_photo(host, photo: bytes | None, name: str = "card.jpg", event: dict = TEACH,
               lang: str = "en"):
    """POST the teach form with its photo, as the page does (multipart; None: the table's
    camera takes it)."""
    picture = {"camera": "1"} if photo is None else {"photo": (io.BytesIO(photo), name)}
    response = host.client.post("/api/definitions/photo", data={
        "event": json.dumps(event), **picture},
        headers={"X-CSRF-Token": host.csrf, "X-Companion-Lang": lang},
        content_type="multipart/form-data")
    host.csrf = response.headers.get("X-CSRF-Token", host.csrf)
    return response


def teaches(session) -> int:
    return sum(e.event.type == "teach" for e in session.journal_entries())


def test_a_card_taught_with_its_photo_is_journaled_and_known_to_the_camera(host, session):
    photo = cv2.imencode(".jpg", teaching_photo(SHOWN))[1].tobytes()
    response = send_photo(host, photo)
    assert response.status_code == 200, response.json
    assert response.json["alike"] == [] and response.json["version"] == session.version
    assert teaches(session) == 1
    assert [p.stem.split("@")[0] for p in pictures_folder(session.data_dir).glob("*.png")] == \
        ["incube"]
    assert DefinitionStore(session.data_dir, "last-bastion").load()["card"]["incube"] == \
        {"complete": True}


@pytest.mark.parametrize("photo, name, lang, words", [
    (b"a shopping list", "list.txt", "en", "list.txt: not an image"),
    (b"a shopping list", "list.txt", "fr", "list.txt : pas une image"),
    (None, "table.jpg", "en", "no card found in the photo"),
])
def test_a_photo_that_cannot_teach_is_refused_in_words_and_nothing_is_taught(
        host, session, photo, name, lang, words):
    if photo is None:
        photo = cv2.imencode(".jpg", np.full((480, 640, 3), 90, np.uint8))[1].tobytes()
    version = session.version
    response = send_photo(host, photo, name, lang=lang)
    assert response.status_code == 422
    assert response.json["error"] == "teach.photo_refused" and words in response.json["message"]
    assert session.version == version and teaches(session) == 0
    assert not pictures_folder(session.data_dir).exists()


def showing(app, session, frame):
    """The host page's box: a running table whose camera sees ``frame``."""
    table = Table(session)
    table.camera = FrameTap(Still(frame))
    app.extensions["companion"].box = HardwareBox(session, settings.load([]), table)
    return table


def test_a_card_under_the_table_camera_is_taught_from_its_frame(app, host, session):
    table = showing(app, session, teaching_photo(SHOWN))
    try:
        assert send_photo(host, None).status_code == 409  # the camera has given no frame yet
        assert teaches(session) == 0
        table.camera.read()
        response = send_photo(host, None)
        assert response.status_code == 200, response.json
    finally:
        table.stop()
    assert teaches(session) == 1
    assert [p.stem.split("@")[0] for p in pictures_folder(session.data_dir).glob("*.png")] == \
        ["incube"]


def test_without_a_camera_the_table_camera_teaches_nothing_in_either_language(host, session):
    version = session.version
    for lang, words in (("en", "No camera frame"), ("fr", "Aucune image de la caméra")):
        response = send_photo(host, None, lang=lang)
        assert response.status_code == 409 and response.json["error"] == "dice.no_camera"
        assert words in response.json["message"]
    assert session.version == version and teaches(session) == 0


def test_without_a_card_reader_the_photo_is_refused(app, session):
    host = login(app)
    host.send(setup_event())
    response = send_photo(host, b"\xff\xd8 any")
    assert response.status_code == 422 and "No card reader runs here" in response.json["message"]
    assert teaches(session) == 0


def test_only_a_teach_event_goes_with_a_photo_and_only_from_the_host(app, host, session):
    response = send_photo(host, b"\xff\xd8", event={"type": "undo"})
    assert response.status_code == 400 and response.json["params"]["field"] == "event"
    viewer = app.test_client().post("/api/definitions/photo", data={"event": json.dumps(TEACH)})
    assert viewer.status_code == 403
    assert teaches(session) == 0


def test_a_box_file_over_the_limit_is_refused_and_changes_nothing(host, session):
    box = {"format": "table-companion/box", "version": 1, "game": "last-bastion",
           "definitions": {}, "pictures": {"incube": ["A" * BOX_LIMIT]}}
    response = host.post("/api/definitions/import", {"box": box})
    assert response.status_code == 413 and response.json["error"] == "request.too_large"
    assert not pictures_folder(session.data_dir).exists()
    assert DefinitionStore(session.data_dir, "last-bastion").load() == {}
