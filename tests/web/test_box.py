"""The box on the host page: the doctor's report, the sensors' live status, and naming an unknown
tag from the phone (with a real hardware table over the session, fed tag swipes directly)."""

from __future__ import annotations

from pathlib import Path

import pytest
from webtools import login, setup_event

from companion import config as settings
from companion.engine import Message
from companion.engine.tags import TagMap
from hardware.box import HardwareBox
from hardware.inputs import Swipe
from hardware.table import Table
from web import WebConfig, create_app

UID = "04A1B2C3"


@pytest.fixture
def quiet(tmp_path: Path) -> settings.Config:
    """Settings of a desk: silent voice, mock pins (so the doctor's checks are all decided)."""
    conf = tmp_path / "box.toml"
    conf.write_text('[general]\npin_factory = "mock"\n[speech]\nbackend = "silent"\n')
    return settings.load([conf])


@pytest.fixture
def table(session):
    box = Table(session)
    yield box
    box.stop()


@pytest.fixture
def box_app(session, table, quiet):
    application = create_app(session, WebConfig(), box=HardwareBox(session, quiet, table))
    yield application
    application.extensions["companion"].hub.close()


def test_box_and_doctor_are_for_the_host_only(box_app):
    viewer = box_app.test_client()
    for url in ("/api/box", "/api/doctor"):
        response = viewer.get(url)
        assert response.status_code == 403 and response.json["error"] == "host.required"
    response = viewer.post("/api/box/enroll", json={"card": "incube"})
    assert response.status_code == 403 and response.json["error"] == "host.required"
    assert viewer.get("/api/host").json["sensors"] is True


def test_doctor_without_sensors_checks_like_the_command(app, quiet):
    ctx = app.extensions["companion"]
    ctx.box = HardwareBox(ctx.session, quiet)
    host = login(app)
    data = host.client.get("/api/doctor").json
    checks = {c["name"]: c["ok"] for c in data["checks"]}
    assert checks == {"config": True, "SPI": None, "I2C": None, "RFID reader": None,
                      "camera": None, "dice reader": True, "card camera": None, "pins": True,
                      "source plugins": None,
                      "MQTT broker": None, "speech": None, "games": True, "last tag": None,
                      "journal": True, "storage": True}
    assert data["ok"] is True
    assert data["box"] == {"running": False, "problems": {}, "events": [], "last_tag": None,
                           "pending_tag": None}


def test_doctor_reads_held_devices_from_the_running_table(box_app, table):
    table.status.held.add("GPIO")
    table.status.problem("button.next", Message("problem.pin_unusable",
                                                {"pin": 17, "detail": "pin in use"}))
    table.status.resolved("button.next")
    table.status.problem("button.undo", Message("problem.pressed_at_start", {"pin": 27}))
    data = login(box_app).client.get("/api/doctor").json
    pins = next(c for c in data["checks"] if c["name"] == "pins")
    assert pins["ok"] is False and "Undo button: down at start (GPIO27)" in pins["detail"]
    assert pins["fix"] and data["ok"] is False
    events = [(e["device"], e["problem"] is None) for e in data["box"]["events"]]
    assert events == [("Next button", False), ("Next button", True), ("Undo button", False)]
    assert list(data["box"]["problems"]) == ["Undo button"]


def test_box_problems_are_in_the_viewers_language(box_app, table):
    """A problem is a message: the host page says it in French to a French phone."""
    table.status.problem("button.undo", Message("problem.stuck", {"pin": 27, "seconds": 10}))
    host = login(box_app)
    french = host.client.get("/api/box?lang=fr").json
    assert french["problems"] == {
        "Bouton Annuler": "enfoncé depuis 10 s (GPIO27) : coincé ? Il refonctionne dès qu'il "
                          "remonte"}
    english = host.client.get("/api/box?lang=en").json
    assert english["problems"]["Undo button"].startswith("down for 10 s (GPIO27): stuck?")


def test_unknown_tag_is_named_and_given_when_a_card_is_awaited(box_app, table, session):
    host = login(box_app)
    assert host.send(setup_event()).status_code == 200
    table.swipe(Swipe(UID, "fake reader"))
    box = host.client.get("/api/box").json
    assert box["pending_tag"]["uid"] == UID and 0 < box["pending_tag"]["seconds_left"] <= 120
    assert box["last_tag"]["uid"] == UID and box["last_tag"]["card"] is None
    refused = host.post("/api/box/enroll", {"card": "nope"})
    assert refused.status_code == 422 and refused.json["error"] == "card.unknown"
    assert host.client.get("/api/box").json["pending_tag"]["uid"] == UID, "still waiting"
    response = host.post("/api/box/enroll", {"card": "incube"})
    assert response.status_code == 200 and response.json["uid"] == UID
    assert [(e.event.type, e.event.source) for e in session.journal_entries()][-1] == \
        ("card", "web")
    assert TagMap(session.data_dir).card(UID, "last-bastion") == "incube"
    box = host.client.get("/api/box").json
    assert box["pending_tag"] is None and box["last_tag"]["card"] == "incube"
    again = host.post("/api/box/enroll", {"card": "incube"})
    assert again.status_code == 409 and again.json["error"] == "tags.none_pending"


def test_unknown_tag_is_only_named_when_no_card_is_awaited(box_app, table, session):
    host = login(box_app)
    table.swipe(Swipe(UID, "fake reader"))
    unknown = host.post("/api/box/enroll?lang=fr", {"card": "nope"})
    assert unknown.status_code == 422 and unknown.json["error"] == "tags.unknown_card"
    assert "Il n'y a pas de carte nope" in unknown.json["message"]
    bad = host.post("/api/box/enroll", {"card": 7})
    assert bad.status_code == 400 and bad.json["error"] == "request.bad_field"
    assert host.post("/api/box/enroll", {"card": "incube"}).status_code == 200
    assert session.journal_entries() == [] and TagMap(session.data_dir).card(UID) == "incube"


def test_no_table_no_tag_to_name(playing):
    response = playing.post("/api/box/enroll", {"card": "incube"})
    assert response.status_code == 409 and response.json["error"] == "tags.none_pending"
    assert playing.client.get("/api/box").json["running"] is False
