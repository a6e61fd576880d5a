"""In a real browser (Debian's chromium through Playwright) against `companion run`: the host
controls show the link for phones (its QR code and address) and the camera view of a replay
camera, refreshed every second; a viewer sees neither."""

from __future__ import annotations

import cv2
import numpy as np
import pytest
from test_e2e import ARGS, CHROMIUM, PHONE, become_host, expect, playwright, replay_camera_server

from vision.synth import render


@pytest.fixture
def camera_server(tmp_path):
    frame = render("d6", np.random.default_rng(3), faces=["3", "5", "6"])[0]
    video = tmp_path / "tray.avi"
    writer = cv2.VideoWriter(str(video), cv2.VideoWriter_fourcc(*"MJPG"), 5.0,
                             frame.shape[1::-1])
    for _ in range(10):
        writer.write(frame)
    writer.release()
    server = replay_camera_server(tmp_path, video)
    yield server
    server.stop()


def test_the_host_sees_the_link_and_the_camera_view_a_viewer_does_not(camera_server):
    with playwright.sync_playwright() as pw:
        chromium = pw.chromium.launch(executable_path=str(CHROMIUM), args=ARGS)
        try:
            viewer = chromium.new_context(viewport=PHONE).new_page()
            viewer.goto(camera_server.url)
            host = chromium.new_context(viewport=PHONE).new_page()
            errors: list[str] = []
            host.on("pageerror", lambda error: errors.append(str(error)))
            host.goto(camera_server.url)
            become_host(host)

            link = host.locator("#link")
            expect(link).to_be_visible(timeout=5000)
            link.locator("summary").click()
            expect(link.locator(".qr svg")).to_be_visible()
            expect(link.locator("a")).to_have_text([camera_server.url])

            view = host.locator("#preview")
            expect(view).to_be_visible(timeout=5000)
            view.locator("summary").click()
            image = view.locator("img")  # no wait_for_function: the page's CSP forbids eval
            expect(image).to_have_js_property("naturalWidth", 640, timeout=5000)
            first = image.get_attribute("src")
            expect(image).not_to_have_attribute("src", first, timeout=3000)
            assert errors == []

            viewer.wait_for_timeout(1500)
            assert viewer.locator("#link").is_hidden() and viewer.locator("#preview").is_hidden()
            status = viewer.evaluate("fetch('/api/preview.jpg').then((r) => r.status)")
            assert status == 403
        finally:
            chromium.close()
