"""The host page's link for phones (addresses, QR code, said aloud) and camera view (the last
frame with the dice boxes drawn): both for the host only."""

from __future__ import annotations

import threading

import cv2
import numpy as np
import pytest
from cameras import Still
from webtools import login

from companion import config as settings
from companion.speech import Announcer
from hardware.box import HardwareBox
from hardware.frames import FrameTap
from hardware.preview import SURE, WIDTH
from hardware.table import Table
from vision.synth import render
from web.link import Link, attach, qr_svg


class Voice:
    def __init__(self) -> None:
        self.lines: list[str] = []

    def speak(self, text: str, lang: str) -> None:
        self.lines.append(text)

    def close(self) -> None:
        pass


def test_the_link_is_for_the_host_with_a_qr_code_and_said_on_request(app, viewer):
    voice = Voice()
    announcer = Announcer(voice, "en").start()
    assert login(app).client.get("/api/link").status_code == 404  # not started by `run`
    attach(app, Link(["http://192.168.1.42:8000/", "http://10.0.0.7:8000/"],
                     "http://companion.local:8000/",
                     lambda message: announcer.say(message, "result")))
    assert viewer.get("/api/link").status_code == 403
    assert viewer.post("/api/link/say", json={}).status_code == 403
    host = login(app)
    data = host.client.get("/api/link").json
    assert data["urls"] == ["http://192.168.1.42:8000/", "http://10.0.0.7:8000/"]
    assert data["local"] == "http://companion.local:8000/"
    assert data["qr"].startswith("<svg") and "path" in data["qr"]
    assert data["qr"] == qr_svg("http://192.168.1.42:8000/")  # the first address, not loopback
    assert host.post("/api/link/say").status_code == 200
    assert announcer.wait_idle()
    announcer.stop()
    assert voice.lines == ["The page is at 192.168.1.42, port 8000, or companion.local."]


@pytest.fixture
def camera_table(app, session):
    """A running table whose camera tap holds a rendered frame of three pip dice."""
    table = Table(session)
    frame = render("d6", np.random.default_rng(3), faces=["3", "5", "6"])[0]
    table.camera = FrameTap(Still(frame))
    app.extensions["companion"].box = HardwareBox(session, settings.load([]), table)
    yield table
    table.stop()


def test_the_camera_view_is_for_the_host_only(app, viewer, camera_table):
    assert viewer.get("/api/preview.jpg").status_code == 403
    host = login(app)
    assert host.client.get("/api/preview.jpg").status_code == 404  # no frame read yet
    camera_table.camera.read()
    reply = host.client.get("/api/preview.jpg")
    assert reply.status_code == 200 and reply.mimetype == "image/jpeg"
    assert reply.headers["Cache-Control"] == "no-store"
    image = cv2.imdecode(np.frombuffer(reply.data, np.uint8), cv2.IMREAD_COLOR)
    assert image.shape[1] == min(WIDTH, 640)
    green = np.all(np.abs(image.astype(int) - SURE) < 60, axis=2)
    assert green.sum() > 3 * 4 * 40  # three boxes drawn round the dice (no game: pip dice)
    concurrent = []
    threads = [threading.Thread(target=lambda: concurrent.append(
        host.client.get("/api/preview.jpg").data)) for _ in range(3)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert concurrent == [reply.data] * 3  # drawn once for that frame


def test_no_camera_no_view(app):
    reply = login(app).client.get("/api/preview.jpg")
    assert reply.status_code == 404 and reply.json["message"] == "No camera runs."
