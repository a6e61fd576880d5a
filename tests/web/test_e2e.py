"""End to end in a real browser: Debian's chromium driven by Playwright, against `companion run`.

A phone-sized viewer follows a turn played from a second, host browser and shows each change
within 1 s; a viewer whose stream is cut (the server restarts) comes back to the right state by
itself; a viewer cannot change anything. With ``COMPANION_SCREENSHOTS=docs/screenshots`` the
main screens are saved there (see docs/web.md).
"""

from __future__ import annotations

import http.cookiejar
import json
import os
import re
import subprocess
import sys
import time
import urllib.request
from pathlib import Path
from urllib.parse import urlsplit

import playwright.sync_api as playwright
import pytest
from webtools import GAME_SETUPS, PIN, setup_event

from web.auth import PinStore

CHROMIUM = Path("/usr/bin/chromium")
if not CHROMIUM.exists():  # a missing browser is a broken machine, never a silent skip
    raise RuntimeError("Debian's chromium is not installed: apt-get install chromium "
                       "(.ci/run does it)")

ROOT = Path(__file__).resolve().parents[2]
SILENT = Path(__file__).with_name("silent.toml")
ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking",
        "--disable-component-update", "--disable-sync", "--no-first-run"]
PHONE = {"width": 390, "height": 844}
SHOTS = os.environ.get("COMPANION_SCREENSHOTS")
SETUP_CODES: dict[int, str] = {}
"""The setup code each running server printed, by port."""
expect = playwright.expect


class Server:
    """`companion run --simulate` in a child process on this machine's loopback."""

    def __init__(self, data_dir: Path, port: int = 0,
                 config: Path = SILENT) -> None:
        self.process = subprocess.Popen(
            [sys.executable, "-m", "companion", "run", "--simulate", "--seed", "5", "--host",
             "127.0.0.1", "--port", str(port), "--data-dir", str(data_dir)],
            cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
            env={**os.environ, "PYTHONUNBUFFERED": "1",
                 "COMPANION_CONFIG": str(config)})
        self.url = self.process.stdout.readline().split()[-1]
        self.port = int(self.url.rsplit(":", 1)[1].strip("/"))
        if not PinStore(data_dir).is_set():  # the first-run code it prints, for become_host
            while "setup code " not in (line := self.process.stdout.readline()) and line:
                pass
            SETUP_CODES[self.port] = line.split("setup code ")[1][:6]

    def stop(self) -> None:
        self.process.terminate()
        self.process.communicate(timeout=10)


class ApiHost:
    """A host scripted over HTTP (cookie jar and CSRF token), for set positions."""

    def __init__(self, url: str) -> None:
        self.url = url
        self.opener = urllib.request.build_opener(
            urllib.request.HTTPCookieProcessor(http.cookiejar.CookieJar()))
        self.csrf = ""
        self.csrf = self._post("api/login", {"pin": PIN})["csrf"]

    def _post(self, path: str, body: dict) -> dict:
        request = urllib.request.Request(self.url + path, json.dumps(body).encode(), {
            "Content-Type": "application/json", "X-CSRF-Token": self.csrf})
        with self.opener.open(request, timeout=5) as reply:
            self.csrf = reply.headers.get("X-CSRF-Token") or self.csrf
            return json.loads(reply.read())

    def send(self, *events: dict) -> int:
        """Submit events in order; return the version after the last."""
        version = 0
        for event in events:
            version = self._post("api/events", {"event": event})["version"]
        return version


@pytest.fixture(scope="module")
def browser():
    with playwright.sync_playwright() as pw:
        chromium = pw.chromium.launch(executable_path=str(CHROMIUM), args=ARGS)
        yield chromium
        chromium.close()


def replay_camera_server(tmp_path, source) -> Server:
    """`companion run --simulate` whose camera replays ``source`` (a video or a folder of
    images) at 5 frames a second, over and over, the host's PIN already chosen."""
    config = tmp_path / "config.toml"
    config.write_text(f'[speech]\nenabled = false\n[camera]\nkind = "replay"\npath = "{source}"\n'
                      "fps = 5.0\n")
    PinStore(tmp_path / "data").set(PIN)
    return Server(tmp_path / "data", config=config)


@pytest.fixture
def server(tmp_path):
    running = Server(tmp_path / "data")
    yield running
    if running.process.poll() is None:
        running.stop()


def phone(browser, url: str, viewport: dict | None = None):
    """A new phone-sized browser context on the live page (``viewport``: another phone)."""
    page = browser.new_context(viewport=viewport or PHONE).new_page()
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.on("console", lambda message: errors.append(message.text)
            if "Content Security Policy" in message.text else None)  # the page obeys its CSP
    page.goto(url)
    page.errors = errors
    return page


def at_version(page, version: int, timeout: int = 5000) -> None:
    """The page shows this state version within ``timeout`` ms."""
    expect(page.locator("#conn")).to_have_attribute("data-version", str(version),
                                                     timeout=timeout)


def shoot(page, name: str, full_page: bool = True) -> None:
    if SHOTS:
        Path(SHOTS).mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(Path(SHOTS) / f"{name}.png"), full_page=full_page)


def settled(url: str, before: int, quiet: float = 0.5, timeout: float = 10.0) -> int:
    """The server's version once it has moved past ``before`` and stayed for ``quiet`` s."""
    deadline, seen, since = time.monotonic() + timeout, before, time.monotonic()
    while time.monotonic() < deadline:
        with urllib.request.urlopen(url + "api/state") as reply:
            now = json.loads(reply.read())["version"]
        if now != seen:
            seen, since = now, time.monotonic()
        elif now > before and time.monotonic() - since >= quiet:
            return now
        time.sleep(0.05)
    raise AssertionError(f"the table did not settle after version {before} (at {seen})")


def become_host(page) -> None:
    """Log in from the page, choosing the PIN with the server's setup code on first run."""
    # the page's own state, read without a string evaluated in the page (its CSP forbids eval)
    expect(page.locator("#conn")).to_have_attribute("data-version", re.compile(r"^\d+$"),
                                                     timeout=5000)
    page.click("#host-toggle")
    page.wait_for_selector("form[data-form=pin], form[data-form=login]")
    if page.locator("input[name=code]").count():
        page.fill("input[name=code]", SETUP_CODES[urlsplit(page.url).port])
    page.fill("input[name=pin]", PIN)
    page.locator("form[data-form] button").click()
    expect(page.locator("body")).to_have_class(re.compile(r"\bhosting\b"))  # logged in


def test_viewer_follows_a_turn_played_by_the_host(browser, server):
    viewer = phone(browser, server.url)
    host = phone(browser, server.url)
    at_version(viewer, 0)
    become_host(host)
    version = 0

    def act(selector: str) -> None:
        """Tap, then wait for the table to settle: an answer the host keeps "Remember" ticked
        for is followed by the card's teaching, a second event."""
        nonlocal version
        host.click(selector)
        version = settled(server.url, version)
        at_version(viewer, version)
        at_version(host, version)  # the host's next step is read from its own page

    host.select_option("select[name=p0-hero]", "teagaan")
    act("form[data-form=setup] button")
    expect(viewer.locator("#headline")).to_contain_text("Round 1", timeout=5000)
    expect(viewer.locator("#awaited")).to_have_text("Draw a Horde card.")
    act("button[data-act=draw]")
    expect(viewer.locator("#deck")).to_contain_text("38/39", timeout=5000)
    while (kind := host.evaluate("app.pic.view.expects.kind")) != "action":
        assert kind in ("choice", "card")
        act({"card": "button[data-act=draw]"}.get(kind) or
            "button[data-act=place], button[data-act=answer-none]")
    expect(viewer.locator(".slot.card")).not_to_have_count(0)
    shoot(host, "host-controls")
    host.click("button[data-act=mode-move]")
    act('[data-tile="0,1"]')
    expect(viewer.locator('[data-tile="0,1"] .fig')).to_have_count(1, timeout=5000)
    act("button[data-act=end_turn]")
    shoot(viewer, "live-phone")
    viewer.click("#lang-switch")
    expect(viewer.locator("#history-link")).to_have_text("Historique")
    shoot(viewer, "live-phone-fr")
    assert not viewer.errors and not host.errors


def test_viewer_cannot_change_anything(browser, server):
    viewer = phone(browser, server.url)
    at_version(viewer, 0)
    status = viewer.evaluate("""async () => (await fetch('/api/events', {method: 'POST',
        headers: {'Content-Type': 'application/json'},
        body: JSON.stringify({event: {type: 'undo'}})})).status""")
    assert status == 403
    viewer.click("#host-toggle")
    expect(viewer.locator("form[data-form=pin]")).to_be_visible()
    expect(viewer.locator("button[data-act=undo]")).to_have_count(0)
    at_version(viewer, 0)


def test_cut_stream_reconnects_to_the_right_state(browser, server, tmp_path):
    viewer = phone(browser, server.url)
    at_version(viewer, 0)
    become_host(phone(browser, server.url))
    api = ApiHost(server.url)
    at_version(viewer, api.send(setup_event()))
    server.stop()
    expect(viewer.locator("#conn")).to_have_class(re.compile("off"), timeout=3000)
    restarted = Server(tmp_path / "data", server.port)
    try:
        version = ApiHost(restarted.url).send({"type": "card", "id": "canon-de-l-infamie"})
        at_version(viewer, version)
        expect(viewer.locator("#deck")).to_contain_text("38/39")
        assert not viewer.errors
    finally:
        restarted.stop()


def test_combat_helper_and_history_screens(browser, server):
    viewer = phone(browser, server.url)
    become_host(viewer)  # chooses the PIN on first run
    api = ApiHost(server.url)
    version = api.send(
        setup_event(),
        {"type": "card", "id": "incube", "slot": "red.0", "define": {"complete": True}},
        {"type": "move", "hero": "teagaan", "to": [0, 0]},
        {"type": "adjust", "hero": "teagaan", "equipment": {"red": 1}},
        {"type": "fight", "targets": ["red.0"]})
    at_version(viewer, version)
    expect(viewer.locator("#helper")).to_contain_text("70.4%")  # 19/27, rulebook's Incube
    shoot(viewer, "combat-helper")
    version = api.send({"type": "dice", "faces": ["red", "green", "blue"]})
    at_version(viewer, version)
    expect(viewer.locator("#helper")).to_contain_text("Cheapest win")
    shoot(viewer, "combat-advice")
    page = viewer.context.new_page()
    page.goto(server.url + "history")
    expect(page.locator("svg.chart")).to_have_count(3)
    shoot(page, "history")


def reader_box(tmp_path: Path):
    """A companion whose RFID reader is a keyboard-wedge input device (a FIFO the test types
    into), and that keyboard."""
    sys.path.insert(0, str(ROOT / "tests" / "hardware"))
    from hwfakes import FakeKeyboard

    keyboard = FakeKeyboard(tmp_path / "event-kbd")
    conf = tmp_path / "box.toml"
    conf.write_text(f'[speech]\nbackend = "silent"\n[rfid]\nreader = "keyboard"\n'
                    f'device = "{keyboard.path}"\n')
    return Server(tmp_path / "data", config=conf), keyboard


def test_host_names_an_unknown_tag_and_checks_the_box(browser, tmp_path):
    server, keyboard = reader_box(tmp_path)
    try:
        host = phone(browser, server.url)
        become_host(host)
        version = ApiHost(server.url).send(setup_event())
        at_version(host, version)
        keyboard.type("04A1B2C3")
        question = host.locator(".tag-question")
        expect(question).to_contain_text("Unknown tag 04A1B2C3: which card is it?", timeout=5000)
        expect(host.locator("button[data-act=card]")).to_have_count(0)  # the question's picker
        question.locator("button[data-act=enroll]", has_text="Incube").click()
        at_version(host, version + 1)
        expect(question).to_have_count(0, timeout=5000)
        host.click("details[data-details=box] summary")
        box = host.locator("details[data-details=box]")
        expect(box).to_contain_text("Last tag read: 04A1B2C3")
        expect(box).to_contain_text("it is Incube")
        expect(box.locator(".checks")).to_contain_text("RFID reader")
        shoot(host, "host-box")
        assert not host.errors
    finally:
        server.stop()


def test_an_unknown_tag_is_named_in_any_game(browser, tmp_path):
    """Runemasters has no card picker of its own: the Box section asks which monster the tag is,
    among every id the game knows, and the monster is revealed."""
    server, keyboard = reader_box(tmp_path)
    try:
        host = phone(browser, server.url + "?lang=fr")
        become_host(host)
        version = ApiHost(server.url).send(GAME_SETUPS["runemasters"])
        at_version(host, version)
        keyboard.type("04A1B2C3")
        question = host.locator("form.tag-question")
        expect(question).to_contain_text("Badge inconnu 04A1B2C3", timeout=5000)
        question.locator("select[name=card]").select_option("troll-green")
        question.locator("button").click()
        at_version(host, version + 1)
        expect(question).to_have_count(0, timeout=5000)
        tags = json.loads((tmp_path / "data" / "tags.json").read_text())["tags"]
        assert tags["04A1B2C3"] == {"card": "troll-green", "game": "runemasters"}
        assert not host.errors
    finally:
        server.stop()


def test_host_sessions_listed_revoked_and_logged_out_everywhere(browser, server):
    first = phone(browser, server.url)
    become_host(first)  # chooses the PIN with the setup code the server printed
    second = phone(browser, server.url)
    become_host(second)
    second.click("details[data-details=sessions] > summary")
    sessions = second.locator("ul.sessions li")
    expect(sessions).to_have_count(2)
    expect(sessions.nth(1)).to_contain_text("(this one)")
    second.click("ul.sessions button[data-act=revoke]")
    expect(sessions).to_have_count(1)
    first.click("form[data-form=setup] button")  # the revoked phone is shown the login again
    expect(first.locator("form[data-form=login]")).to_be_visible()
    second.click("button[data-act=logout-all]")
    expect(second.locator("form[data-form=login]")).to_be_visible()
    assert not first.errors and not second.errors
