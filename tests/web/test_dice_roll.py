"""The host's dice screen, through the JSON API (issue 41, items 1 and 4): a roll read from the
camera's frame (a real labelled photo), a die corrected and the roll confirmed: every die is kept
as an example of this table, the corrected die is read right on the next reading of the same
frame, the roll is given to the game when it waits for it, an undo keeps the examples, and the
examples are listed, shown and forgotten. Bad requests are refused in both languages and keep
nothing.
"""

from __future__ import annotations

import cv2
import numpy as np
import pytest
from test_dice_teach import COMBAT, camera_box, labelled_dice  # noqa: F401
from webtools import login, refused_in_french_and_english, setup_event

from vision.table import table_examples


def read_roll(host, profile: str = "d6") -> dict:
    reply = host.post("/api/dice/roll", {"profile": profile})
    assert reply.status_code == 200, reply.json
    return reply.json


def wrong(face: str, faces: list[str]) -> str:
    """Another face than ``face``."""
    return next(f for f in faces if f != face)


def test_a_corrected_die_is_kept_and_read_right_on_the_next_reading(app, session, camera_box):  # noqa: F811
    host = login(app)
    assert "d6" in host.client.get("/api/dice").json["rolls"]  # pips can be confirmed too
    roll = read_roll(host)
    frame, _ = labelled_dice()
    assert (roll["width"], roll["height"]) == (frame.shape[1], frame.shape[0])
    assert roll["faces"] == ["1", "2", "3", "4", "5", "6"] and len(roll["dice"]) >= 3
    image = host.client.get(f"/api/dice/roll/{roll['roll']}.jpg")
    assert image.status_code == 200 and image.mimetype == "image/jpeg"
    decoded = cv2.imdecode(np.frombuffer(image.data, np.uint8), cv2.IMREAD_COLOR)
    assert decoded.shape == frame.shape

    first = roll["dice"][0]
    corrected = wrong(first["face"], roll["faces"])
    given = [{"box": d["box"], "face": corrected if d is first else d["face"]}
             for d in roll["dice"]]
    reply = host.post("/api/dice/roll/confirm", {"roll": roll["roll"], "dice": given})
    assert reply.status_code == 200, reply.json
    assert reply.json["given"] is False  # no game waits for a d6 roll
    assert reply.json["kept"] == {"added": len(given), "corrected": 1, "missed": 0}
    kept = table_examples("d6", session.data_dir)  # on disk when the answer says so
    assert [e.face for e in kept] == [d["face"] for d in given]
    assert host.post("/api/dice/roll/confirm", {"roll": roll["roll"], "dice": given}).json[
        "error"] == "dice.no_roll"  # a roll is kept once

    again = read_roll(host)
    same = min(again["dice"], key=lambda d: sum(
        abs(a - b) for a, b in zip(d["box"], first["box"], strict=True)))
    assert same["face"] == corrected and not same["uncertain"]

    listed = host.client.get("/api/dice/table?profile=d6").json["examples"]
    assert len(listed) == len(given) and listed[-1]["face"] == given[0]["face"]
    assert listed[-1]["corrected"] and listed[-1]["read"] == first["face"]
    cut = host.client.get(f"/api/dice/table/example.jpg?profile=d6&id={listed[0]['id']}")
    assert cut.status_code == 200 and cut.mimetype == "image/jpeg"

    reply = host.post("/api/dice/table/forget", {"profile": "d6", "id": listed[0]["id"]})
    assert reply.json["forgot"] == 1 and len(reply.json["examples"]) == len(given) - 1
    assert host.client.get(f"/api/dice/table/example.jpg?profile=d6&id={listed[0]['id']}"
                           ).status_code == 404
    reply = host.post("/api/dice/table/forget", {"profile": "d6"})
    assert reply.json == {"profile": "d6", "forgot": len(given) - 1, "examples": []}
    assert table_examples("d6", session.data_dir) == []


def fight_awaiting_dice(host) -> None:
    """Last Bastion set up, a monster drawn, a hero beside it fighting: the game awaits the
    Combat dice."""
    for event in (setup_event(), {"type": "card", "id": "incube", "slot": "red.0",
                                  "define": {"complete": True}},
                  {"type": "move", "hero": "teagaan", "to": [0, 0]},
                  {"type": "fight", "targets": ["red.0"]}):
        assert host.send(event).status_code == 200


def test_the_answer_to_an_awaited_roll_goes_to_the_game_and_an_undo_keeps_the_examples(
        app, session, camera_box):  # noqa: F811
    host = login(app)
    fight_awaiting_dice(host)
    expected = session.expects().template("dice")
    assert expected.blank.profile == COMBAT
    roll = host.post("/api/dice/roll", {}).json  # the awaited profile by default
    assert roll["profile"] == COMBAT
    faces = ["red", "blue", "black", "white", "green"][:expected.blank.count]
    dice = [{"box": d["box"], "face": f} for d, f in zip(roll["dice"], faces, strict=False)]
    assert len(dice) == expected.blank.count
    version = session.version
    reply = host.post("/api/dice/roll/confirm", {"roll": roll["roll"], "dice": dice})
    assert reply.status_code == 200, reply.json
    assert reply.json["given"] is True and reply.json["version"] == version + 1
    assert len(table_examples(COMBAT, session.data_dir)) == len(dice)
    assert host.send({"type": "undo"}).status_code == 200
    assert session.expects().template("dice") is not None  # the roll is undone ...
    assert len(table_examples(COMBAT, session.data_dir)) == len(dice)  # ... its dice kept


def test_a_roll_the_game_refuses_keeps_nothing(app, session, camera_box):  # noqa: F811
    host = login(app)
    fight_awaiting_dice(host)
    roll = host.post("/api/dice/roll", {}).json
    count = session.expects().template("dice").blank.count
    dice = [{"box": d["box"], "face": "red"} for d in roll["dice"][:count - 1]]
    assert len(dice) != count
    reply = host.post("/api/dice/roll/confirm", {"roll": roll["roll"], "dice": dice})
    assert reply.status_code == 422, reply.json
    assert table_examples(COMBAT, session.data_dir) == []
    assert camera_box.dice_roll(roll["roll"]) is not None  # kept for a retry


@pytest.mark.parametrize(("body", "status", "key"), [
    ({"dice": [{"box": [0, 0, 9, 9], "face": "1"}]}, 400, "request.missing_field"),
    ({"roll": "R", "dice": []}, 400, "dice.none_confirmed"),
    ({"roll": "R", "dice": [{"box": [0, 0, 9], "face": "1"}]}, 400, "request.bad_field"),
    ({"roll": "R", "dice": [{"box": [0, 0, 9.5, 9], "face": "1"}]}, 400, "request.bad_field"),
    ({"roll": "R", "dice": [{"box": [0, 0, 9, 9]}]}, 400, "request.bad_field"),
    ({"roll": "R", "dice": [{"box": [9, 0, 9, 9], "face": "1"}]}, 422, "dice.bad_box"),
    ({"roll": "R", "dice": [{"box": [0, 0, 99999, 9], "face": "1"}]}, 422, "dice.bad_box"),
    ({"roll": "R", "dice": [{"box": [0, 0, 9, 9], "face": "7"}]}, 422, "dice.unknown_face"),
    ({"roll": "nope", "dice": [{"box": [0, 0, 9, 9], "face": "1"}]}, 404, "dice.no_roll"),
])
def test_a_bad_confirmation_is_refused_in_both_languages_and_keeps_nothing(
        app, session, camera_box, body, status, key):  # noqa: F811
    host = login(app)
    roll = read_roll(host)["roll"]
    body = {k: roll if v == "R" else v for k, v in body.items()}
    refused_in_french_and_english(host, "/api/dice/roll/confirm", body, status, key)
    assert table_examples("d6", session.data_dir) == []


def test_a_viewer_can_neither_read_nor_confirm_nor_forget(app, viewer, camera_box):  # noqa: F811
    host = login(app)
    roll = read_roll(host)["roll"]
    for url in (f"/api/dice/roll/{roll}.jpg", "/api/dice/table?profile=d6"):
        assert viewer.get(url).status_code == 403
    for url, body in (("/api/dice/roll", {"profile": "d6"}),
                      ("/api/dice/roll/confirm", {"roll": roll, "dice": []}),
                      ("/api/dice/table/forget", {"profile": "d6"})):
        reply = viewer.post(url, json=body)
        assert reply.status_code == 403 and reply.json["error"] == "host.required"


def test_unknown_profiles_and_examples_are_refused(app, camera_box):  # noqa: F811
    host = login(app)
    reply = host.post("/api/dice/roll", {"profile": "chess/pawn"})
    assert (reply.status_code, reply.json["error"]) == (404, "dice.unknown_profile")
    reply = host.post("/api/dice/table/forget", {"profile": "d6", "id": "nope"})
    assert (reply.status_code, reply.json["error"]) == (404, "dice.no_table_example")
    reply = host.post("/api/dice/table/forget", {"profile": "d6", "id": None})
    assert (reply.status_code, reply.json["error"]) == (400, "request.bad_field")
