"""Teaching the dice from the host page (issue 16, item 5): a photo taken once on the server from
the camera's frame, each die found shown cut out, and exactly the dice the owner named learned;
the faces taught listed with their cut-outs, removed one by one or reset; every bad request
refused in French and English with nothing learned.

The camera's frame is a real labelled photo (byler-d6-train): three dice on a tray whose two
screw holes the detector also finds, the stray finds an owner must be able to leave out.
"""

from __future__ import annotations

import json

import cv2
import numpy as np
import pytest
from cameras import Still
from webtools import login, refused_in_french_and_english, setup_event

from companion import config as settings
from hardware.box import HardwareBox
from hardware.frames import FrameTap
from hardware.table import Table
from hardware.teaching import CROP, PHOTO_SECONDS
from vision.datasets import shared_dice
from vision.profile import taught_path
from vision.teach import photo_dice

DATA = shared_dice() / "byler-d6-train"
PHOTO = "IMG_20191209_100602"
COMBAT = "last-bastion/combat"


def labelled_dice() -> tuple[np.ndarray, list[tuple[float, float, float, float]]]:
    """The photo and its labelled dice's boxes, in pixels."""
    frame = cv2.imread(str(DATA / "images" / f"{PHOTO}.jpg"))
    h, w = frame.shape[:2]
    boxes = []
    for line in (DATA / "labels" / f"{PHOTO}.txt").read_text().split("\n"):
        if line.strip():
            _, cx, cy, bw, bh = map(float, line.split())
            boxes.append(((cx - bw / 2) * w, (cy - bh / 2) * h, (cx + bw / 2) * w,
                          (cy + bh / 2) * h))
    return frame, boxes


def is_labelled(box, labels) -> bool:
    """Whether the centre of a detected ``box`` lies in a labelled die."""
    cx, cy = (box[0] + box[2]) / 2, (box[1] + box[3]) / 2
    return any(x0 <= cx <= x1 and y0 <= cy <= y1 for x0, y0, x1, y1 in labels)


@pytest.fixture
def camera_box(app, session):
    """A running table whose camera has given the labelled photo; the app's box is its box."""
    frame, _ = labelled_dice()
    table = Table(session)
    table.camera = FrameTap(Still(frame))
    table.camera.read()
    box = HardwareBox(session, settings.load([]), table)
    app.extensions["companion"].box = box
    yield box
    table.stop()


@pytest.fixture
def no_camera_box(app, session):
    """The box of ``companion run --simulate`` without sensors: teaching lists, no photo."""
    box = HardwareBox(session, settings.load([]))
    app.extensions["companion"].box = box
    return box


def taught_file(session) -> dict:
    path = taught_path(COMBAT, session.data_dir)
    return json.loads(path.read_text())["examples"] if path.exists() else {}


def test_the_owner_names_the_dice_of_a_photo_and_exactly_those_are_learned(app, session,
                                                                             camera_box):
    host = login(app)
    listed = host.client.get("/api/dice").json
    assert listed["awaited"] is None  # no game waits for dice
    names = [p["profile"] for p in listed["profiles"]]
    assert COMBAT in names and "d6" not in names  # pip dice need no teaching
    combat = next(p for p in listed["profiles"] if p["profile"] == COMBAT)
    assert combat["faces"] == ["red", "green", "blue", "yellow", "black", "white"]
    assert combat["taught"] == {}

    reply = host.post("/api/dice/photo", {"profile": COMBAT})
    assert reply.status_code == 200, reply.json
    photo = reply.json
    frame, labels = labelled_dice()
    found = [(box, vector) for box, vector in photo_dice(frame) if vector is not None]
    assert [d["index"] for d in photo["dice"]] == list(range(len(found)))
    real = [i for i, (box, _) in enumerate(found) if is_labelled(box, labels)]
    assert len(real) == 3 and len(found) == 5  # the three dice, and the tray's two screw holes

    for i in range(len(found)):
        crop = host.client.get(f"/api/dice/photo/{photo['photo']}/{i}.jpg")
        assert crop.status_code == 200 and crop.mimetype == "image/jpeg"
        image = cv2.imdecode(np.frombuffer(crop.data, np.uint8), cv2.IMREAD_COLOR)
        assert image.shape == (CROP, CROP, 3)
    # the owner names the three dice (black, blue and red, top to bottom) and leaves the
    # holes out
    named = [{"die": i, "face": face} for i, face in zip(real, ("black", "blue", "red"),
                                                         strict=True)]

    reply = host.post("/api/dice/teach", {"photo": photo["photo"], "dice": named})
    assert reply.status_code == 200, reply.json
    assert reply.json["learned"] == {"black": 1, "blue": 1, "red": 1}
    assert reply.json["taught"] == {"black": 1, "blue": 1, "red": 1}
    on_disk = taught_file(session)  # on disk when the answer says so
    for n in named:
        assert on_disk[n["face"]] == [[round(v, 4) for v in found[n["die"]][1]]]
    assert sum(len(v) for v in on_disk.values()) == 3  # the screw holes were not learned

    again = host.post("/api/dice/teach", {"photo": photo["photo"], "dice": named})
    assert again.status_code == 404 and again.json["error"] == "dice.no_photo"
    assert sum(len(v) for v in taught_file(session).values()) == 3  # not learned twice
    assert host.client.get(f"/api/dice/photo/{photo['photo']}/0.jpg").status_code == 404

    # the next photo of the same tray reads each die as the face it was taught
    readings = host.post("/api/dice/photo", {"profile": COMBAT}).json["dice"]
    assert {readings[n["die"]]["reading"] for n in named} == {"black", "blue", "red"}

    combat = next(p for p in host.client.get("/api/dice").json["profiles"]
                  if p["profile"] == COMBAT)
    assert combat["taught"] == {"black": 1, "blue": 1, "red": 1}
    assert combat["examples"] == {"black": 1, "blue": 1, "red": 1}
    example = host.client.get("/api/dice/example.jpg",
                              query_string={"profile": COMBAT, "face": "red", "n": 0})
    assert example.status_code == 200 and example.mimetype == "image/jpeg"

    removed = host.post("/api/dice/forget", {"profile": COMBAT, "face": "red"})
    assert removed.status_code == 200 and removed.json["forgot"] == 1
    assert removed.json["taught"] == {"black": 1, "blue": 1}
    assert set(taught_file(session)) == {"black", "blue"}
    assert host.client.get("/api/dice/example.jpg", query_string={
        "profile": COMBAT, "face": "red"}).status_code == 404
    reset = host.post("/api/dice/forget", {"profile": COMBAT})
    assert reset.status_code == 200 and reset.json == {"profile": COMBAT, "forgot": 2,
                                                       "taught": {}}
    assert not taught_path(COMBAT, session.data_dir).exists()
    assert not list((session.data_dir / "vision").rglob("*.jpg"))  # cut-outs gone too


def test_a_viewer_can_neither_see_nor_teach(app, viewer, camera_box):
    host = login(app)
    photo = host.post("/api/dice/photo", {"profile": COMBAT}).json["photo"]
    assert viewer.get("/api/dice").status_code == 403
    assert viewer.get(f"/api/dice/photo/{photo}/0.jpg").status_code == 403
    assert viewer.get("/api/dice/example.jpg?profile=x&face=y").status_code == 403
    for url, body in (("/api/dice/photo", {"profile": COMBAT}),
                      ("/api/dice/teach", {"photo": photo, "dice": [{"die": 0, "face": "red"}]}),
                      ("/api/dice/forget", {"profile": COMBAT})):
        reply = viewer.post(url, json=body)
        assert reply.status_code == 403 and reply.json["error"] == "host.required"
    assert host.client.get(f"/api/dice/photo/{photo}/0.jpg").status_code == 200  # still there


@pytest.mark.parametrize(("body", "status", "key"), [
    ({"dice": [{"die": 0, "face": "red"}]}, 400, "request.missing_field"),
    ({"photo": "P", "dice": []}, 400, "dice.none_named"),
    ({"photo": "P", "dice": {"0": "red"}}, 400, "dice.none_named"),
    ({"photo": "P", "dice": [{"die": "0", "face": "red"}]}, 400, "request.bad_field"),
    ({"photo": "P", "dice": [{"die": True, "face": "red"}]}, 400, "request.bad_field"),
    ({"photo": "P", "dice": [{"die": 0}]}, 400, "request.bad_field"),
    ({"photo": "P", "dice": [{"die": 0, "face": "red"}, {"die": 0, "face": "blue"}]}, 400,
     "dice.named_twice"),
    ({"photo": "P", "dice": [{"die": 0, "face": "red"}, {"die": 5, "face": "red"}]}, 422,
     "dice.no_die"),
    ({"photo": "P", "dice": [{"die": -1, "face": "red"}]}, 422, "dice.no_die"),
    ({"photo": "P", "dice": [{"die": 0, "face": "violet"}]}, 422, "dice.unknown_face"),
    ({"photo": "P", "dice": [{"die": 0, "face": None}]}, 422, "dice.unknown_face"),
    ({"photo": "nope", "dice": [{"die": 0, "face": "red"}]}, 404, "dice.no_photo"),
    ({"photo": 7, "dice": [{"die": 0, "face": "red"}]}, 400, "request.bad_field"),
    ({"photo": "P", "dice": [{"die": 0, "face": "red"}], "count": 1}, 400,
     "request.unknown_field"),
])
def test_a_bad_teach_is_refused_in_both_languages_and_learns_nothing(app, session, camera_box,
                                                                      body, status, key):
    host = login(app)
    photo = host.post("/api/dice/photo", {"profile": COMBAT}).json["photo"]
    body = {k: photo if v == "P" else v for k, v in body.items()}
    refused_in_french_and_english(host, "/api/dice/teach", body, status, key)
    assert taught_file(session) == {}
    assert camera_box.dice_photo(photo) is not None  # a refusal keeps the photo for a retry


def test_unknown_profiles_faces_and_photos_are_refused(app, session, camera_box):
    host = login(app)
    reply = host.post("/api/dice/photo", {"profile": "chess/pawn"}, headers={
        "X-Companion-Lang": "fr"})
    assert reply.status_code == 404 and reply.json["error"] == "dice.unknown_profile"
    assert "chess/pawn" in reply.json["message"] and COMBAT in reply.json["message"]
    assert host.post("/api/dice/photo", {"profile": "d6"}).json["error"] == \
        "dice.unknown_profile"  # pip dice are never taught
    assert host.post("/api/dice/photo", {"profile": 3}).status_code == 400
    assert host.post("/api/dice/photo", {}).json["error"] == "request.missing_field"
    assert host.post("/api/dice/photo", "red").json["error"] == "request.not_object"

    assert host.post("/api/dice/forget", {"profile": COMBAT, "face": "red"}).json["error"] == \
        "dice.not_taught"
    assert host.post("/api/dice/forget", {"profile": COMBAT, "face": None}).json["error"] == \
        "request.bad_field"  # a null face never resets the whole profile
    assert host.post("/api/dice/forget", {"profile": "nope"}).status_code == 404
    for query in ({"profile": COMBAT, "face": "red"}, {"profile": "nope", "face": "red"},
                  {"face": "red"}):
        assert host.client.get("/api/dice/example.jpg", query_string=query).status_code in (
            400, 404)
    assert host.client.get("/api/dice/photo/nope/0.jpg").json["error"] == "dice.no_crop"

    photo = host.post("/api/dice/photo", {"profile": COMBAT}).json
    assert host.client.get(f"/api/dice/photo/{photo['photo']}/99.jpg").status_code == 404
    camera_box.teacher.clock = lambda: 10 ** 9  # ten minutes and more later
    late = host.post("/api/dice/teach", {"photo": photo["photo"],
                                         "dice": [{"die": 0, "face": "red"}]})
    assert late.status_code == 404 and late.json["error"] == "dice.no_photo"
    assert PHOTO_SECONDS == 600 and taught_file(session) == {}


def test_without_a_camera_the_faces_are_listed_but_no_photo_is_taken(app, no_camera_box):
    host = login(app)
    assert COMBAT in [p["profile"] for p in host.client.get("/api/dice").json["profiles"]]
    for lang, text in (("en", "No camera frame"), ("fr", "Aucune image")):
        reply = host.post("/api/dice/photo", {"profile": COMBAT},
                          headers={"X-Companion-Lang": lang})
        assert reply.status_code == 409 and reply.json["error"] == "dice.no_camera"
        assert reply.json["message"].startswith(text)


def test_a_page_without_a_box_offers_no_dice_to_teach(app):
    host = login(app)
    assert host.client.get("/api/dice").json == {"awaited": None, "profiles": [], "rolls": []}
    assert host.post("/api/dice/photo", {"profile": COMBAT}).status_code == 404


def test_the_profile_the_game_waits_for_comes_first(app, no_camera_box):
    host = login(app)
    for event in (setup_event(), {"type": "card", "id": "incube", "slot": "red.0",
                                  "define": {"complete": True}},
                  {"type": "move", "hero": "teagaan", "to": [0, 0]},
                  {"type": "fight", "targets": ["red.0"]}):
        assert host.send(event).status_code == 200
    listed = host.client.get("/api/dice").json
    assert listed["awaited"] == COMBAT
    assert [p["profile"] for p in listed["profiles"]][0] == COMBAT


def test_only_the_dice_of_the_game_on_the_table_are_offered(app, no_camera_box):
    host = login(app)
    before = {p["profile"] for p in host.client.get("/api/dice").json["profiles"]}
    assert "runemasters/rune" in before  # no game yet: every teachable profile
    assert host.send(setup_event()).status_code == 200
    offered = [p["profile"] for p in host.client.get("/api/dice").json["profiles"]]
    assert sorted(offered) == sorted([COMBAT, "last-bastion/corruption"])


def test_a_taught_file_that_cannot_be_read_is_said_not_a_server_error(app, session, camera_box):
    path = taught_path(COMBAT, session.data_dir)
    path.parent.mkdir(parents=True)
    path.write_text("{not json")
    host = login(app)
    combat = next(p for p in host.client.get("/api/dice").json["profiles"]
                  if p["profile"] == COMBAT)
    assert combat["taught"] == {} and "unreadable" in combat["problem"]["en"]
    for url, body in (("/api/dice/photo", {"profile": COMBAT}),
                      ("/api/dice/forget", {"profile": COMBAT})):
        reply = host.post(url, body, headers={"X-Companion-Lang": "fr"})
        assert reply.status_code == 409 and reply.json["error"] == "dice.unreadable"
        assert reply.json["message"].startswith("Les faces apprises pour last-bastion/combat")
    assert path.read_text() == "{not json"  # left for the owner to see
