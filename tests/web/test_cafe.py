"""The café page: ``companion cafe`` in a child process, subscribed to a real mosquitto on which
two companions (real sessions and MQTT bridges) publish, seen in Debian's chromium. It shows each
table's game, phase, round, what it waits for and the time since its last event, in French and
English, follows a new event and a table going offline live, and changes nothing."""

from __future__ import annotations

import json
import os
import re
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from pathlib import Path

import playwright.sync_api as playwright
import pytest
import test_e2e

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "games" / "aot_last_stand"))

import aot_helpers  # noqa: E402
from lastbastion import solo  # noqa: E402
from mosquitto import Mosquitto, Watcher  # noqa: E402

from companion import config as settings  # noqa: E402
from companion import mqtt  # noqa: E402
from companion.engine import Session  # noqa: E402
from web.cafe import FORGET_SECONDS, MAX_STATE, MAX_TABLES, MAX_TEXT, Board, broker_address  # noqa: E402, E501

ROOT = Path(__file__).resolve().parents[2]
expect = playwright.expect
browser = test_e2e.browser  # the fixture: Debian's chromium


def companion(tmp_path: Path, name: str, port: int, setup: dict):
    """A table: a session with a game set up and its MQTT bridge."""
    folder = tmp_path / name.replace(" ", "-")
    folder.mkdir()
    conf = folder / "config.toml"
    conf.write_text(f'[table]\nname = "{name}"\n[mqtt]\nhost = "127.0.0.1"\nport = {port}\n'
                    "reconnect_min = 0.1\n", encoding="utf-8")
    session = Session(folder / "data")
    session.submit(setup, source="test")
    return session, mqtt.start(session, settings.load([conf]))


@pytest.fixture
def cafe(tmp_path):
    broker = Mosquitto(tmp_path / "broker").start()
    tables = [companion(tmp_path, "Table 1", broker.port, solo(hero="elmer")),
              companion(tmp_path, "Table 2", broker.port, aot_helpers.setup_event())]
    process = subprocess.Popen(
        [sys.executable, "-m", "companion", "cafe", "--broker", broker.address, "--host",
         "127.0.0.1", "--port", "0", "--lang", "fr"], cwd=ROOT, stdout=subprocess.PIPE,
        stderr=subprocess.PIPE, text=True, env={**os.environ, "PYTHONUNBUFFERED": "1"})
    line = process.stdout.readline()
    assert line.startswith("La page du café : http://127.0.0.1:"), process.stderr.read()
    yield line.split()[-1], tables, broker
    process.terminate()
    process.communicate(timeout=10)
    for session, bridge in tables:
        bridge.stop()
        session.close()
    broker.stop()


def test_every_table_live_in_both_languages(cafe, browser):
    url, [(first, _), (second, second_bridge)], broker = cafe
    page = browser.new_context(viewport={"width": 1024, "height": 700}).new_page()
    page.goto(url + "?lang=fr")
    rows = page.locator("#tables tbody tr")
    expect(rows).to_have_count(2, timeout=10_000)
    one, two = rows.nth(0), rows.nth(1)
    expect(one.locator("td.name")).to_have_text("Table 1")
    expect(one.locator("td.game")).to_have_text("Last Bastion")
    expect(one.locator("td.phase")).to_have_text("horde")
    expect(one.locator("td.round")).to_have_text("1")
    expect(one.locator("td.waiting")).to_have_text(
        json.loads(retained_state(broker, "table-1"))["waiting_fr"])
    expect(one.locator("td.since")).to_have_text(re.compile(r"^il y a \d+ s$"))
    expect(two.locator("td.game")).to_have_text("L'Attaque des Titans : The Last Stand")
    expect(page.locator("th").nth(1)).to_have_text("Jeu")

    first.submit({"type": "card", "id": "incube"}, source="test")  # live, within a second
    expect(one).to_have_attribute("data-version", str(first.version), timeout=1_000)

    second_bridge.stop()                                            # a clean stop: offline
    expect(two).to_have_class("offline", timeout=2_000)
    expect(two.locator("td.game")).to_contain_text("hors ligne")

    page.click("#lang-switch")  # the switch goes round the languages: Spanish, then English
    expect(page.locator("th").nth(1)).to_have_text("Juego")
    expect(two.locator("td.game")).to_have_text("Attack on Titan: The Last Stand (desconectada)")
    page.click("#lang-switch")
    expect(page.locator("th").nth(1)).to_have_text("Game")
    expect(two.locator("td.game")).to_have_text("Attack on Titan: The Last Stand (offline)")
    expect(one.locator("td.since")).to_have_text(re.compile(r"^\d+ s ago$"))
    page.context.close()

    english = browser.new_context(locale="en-GB").new_page()      # the browser's language
    english.goto(url)
    expect(english.locator("th").nth(2)).to_have_text("Phase")
    expect(english.locator("#heading")).to_have_text("Tables")
    english.context.close()


def retained_state(broker, table: str) -> str:
    """The retained state of a table, read by a fresh client."""
    watcher = Watcher(broker.port, (f"companion/{table}/state",))
    assert watcher.wait(lambda: watcher.last(f"companion/{table}/state") is not None)
    payload = watcher.last(f"companion/{table}/state")
    watcher.close()
    return payload.decode()


def test_the_json_of_the_tables_and_nothing_can_be_changed(cafe):
    url = cafe[0]

    def tables() -> list[dict]:
        with urllib.request.urlopen(url + "api/tables", timeout=5) as reply:
            return json.loads(reply.read())["tables"]

    deadline = time.monotonic() + 10   # the retained states and availabilities reach the café
    while not (len(tables()) == 2 and all(t["online"] for t in tables())) \
            and time.monotonic() < deadline:
        time.sleep(0.05)
    tables = tables()
    assert [t["id"] for t in tables] == ["table-1", "table-2"]
    assert tables[0]["game"] == "last-bastion" and tables[0]["online"] is True
    assert tables[0]["game_name"] == {"fr": "Last Bastion", "en": "Last Bastion",
                                        "es": "Last Bastion"}
    for path in ("", "api/tables", "api/stream"):
        request = urllib.request.Request(url + path, data=b"{}", method="POST")
        with pytest.raises(urllib.error.HTTPError) as refused:
            urllib.request.urlopen(request, timeout=5)
        assert refused.value.code == 405


def test_the_board_ignores_what_is_not_a_table_state_and_keeps_one_entry_per_table():
    board = Board("companion")
    board.receive("companion/t1/state", b"not json")
    board.receive("companion/t1/state", b"[1, 2]")
    board.receive("companion/t1/event", b"{}")
    board.receive("other/t1/state", b"{}")
    board.receive("companion/t1/state/phase", b"horde")
    assert board.snapshot() == []
    client, first = board.connect()
    for version in range(1000):
        board.receive("companion/t1/state", json.dumps({"table": "T1", "game": "last-bastion",
                                                        "version": version}).encode())
    board.receive("companion/t1/availability", b"offline")
    [table] = board.snapshot()
    assert table["version"] == 999 and table["online"] is False and table["name"] == "T1"
    assert client.closed  # a page 1001 frames behind is closed: it reconnects, memory stays
    board.close()


@pytest.mark.parametrize(("text", "pair"), [("127.0.0.1:1884", ("127.0.0.1", 1884)),
                                            ("broker.local", ("broker.local", 1883))])
def test_broker_address(text, pair):
    assert broker_address(text) == pair


def test_a_bad_broker_address_is_refused_by_the_command(capsys):
    from companion.cli import main

    with pytest.raises(SystemExit):
        main(["cafe", "--broker", "host:port"])
    assert "'host:port' is not HOST:PORT" in capsys.readouterr().err


def stream_head(url: str, host: str = "127.0.0.1") -> tuple[socket.socket, bytes]:
    """Open the café's stream with a raw socket; the socket and the response's head."""
    address = url.split("//")[1].split("/")[0]
    name, port = address.rsplit(":", 1)
    sock = socket.create_connection((name, int(port)), timeout=5)
    sock.sendall(f"GET /api/stream HTTP/1.1\r\nHost: {host}\r\n\r\n".encode())
    head = b""
    while b"\r\n\r\n" not in head:
        chunk = sock.recv(4096)
        if not chunk:
            break
        head += chunk
    return sock, head


def get(url: str, headers: dict | None = None) -> tuple[int, dict, bytes]:
    request = urllib.request.Request(url, headers=headers or {})
    try:
        with urllib.request.urlopen(request, timeout=5) as reply:
            return reply.status, reply.headers, reply.read()
    except urllib.error.HTTPError as refused:
        return refused.code, refused.headers, refused.read()


def test_pages_that_come_and_go_never_hang_the_cafe(cafe):
    """The testers' finding: each stream held one of 16 threads after the browser had gone, so
    8 pages opened and closed twice hung ``GET /`` for good. Now streams hold no thread: 40
    pages come and go, then 7 stay open (the per-address cap is 8) and the page still answers
    at once."""
    url = cafe[0]
    for _ in range(5):
        opened = [stream_head(url) for _ in range(8)]
        assert all(head.startswith(b"HTTP/1.1 200") for _, head in opened)
        for sock, _ in opened:
            sock.close()
    held = [stream_head(url) for _ in range(7)]
    try:
        started = time.monotonic()
        status, _, body = get(url)
        assert status == 200 and b"cafe.js" in body and time.monotonic() - started < 2
        assert get(url + "api/tables")[0] == 200
        sock, head = stream_head(url)                       # the eighth of this address
        deadline = time.monotonic() + 3  # a closed page is let go once the loop sees it close
        while head.startswith(b"HTTP/1.1 503") and time.monotonic() < deadline:
            sock.close()
            time.sleep(0.1)
            sock, head = stream_head(url)
        assert head.startswith(b"HTTP/1.1 200")
        extra, refused = stream_head(url)                   # the ninth: 503, come back later
        assert refused.startswith(b"HTTP/1.1 503") and b"retry-after: 5" in refused.lower()
        sock.close()
        extra.close()
    finally:
        for sock, _ in held:
            sock.close()


def test_the_cafe_checks_the_host_and_cannot_be_framed(cafe):
    url = cafe[0]
    status, headers, body = get(url, {"Host": "evil.example"})   # DNS rebinding
    assert status == 400 and json.loads(body)["error"] == "request.bad_host"
    assert get(url + "api/tables", {"Host": "evil.example:8080"})[0] == 400
    sock, head = stream_head(url, host="evil.example")
    assert head.startswith(b"HTTP/1.1 400")
    sock.close()
    status, headers, _ = get(url, {"Host": "localhost"})
    assert status == 200 and headers["X-Frame-Options"] == "DENY"
    assert "frame-ancestors 'none'" in headers["Content-Security-Policy"]


def test_twenty_thousand_fake_tables_are_bounded_through_the_broker(cafe):
    """The testers published 20,000 fake tables: the café kept them all (41 -> 89 MB,
    ``/api/tables`` 8.9 MB). It keeps at most MAX_TABLES, each field cut short."""
    url, _, broker = cafe
    sender = Watcher(broker.port, ())
    try:
        for n in range(20_000):
            sender.client.publish(f"companion/fake-{n}/state", json.dumps(
                {"table": f"Fake {n}", "game": "last-bastion", "phase": "x" * 5000}), qos=0)
        sender.publish("companion/last-one/state", {"table": "Last"})   # QoS 1: all are sent
    finally:
        sender.close()
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        status, _, body = get(url + "api/tables")
        if len(json.loads(body)["tables"]) >= MAX_TABLES:
            break
        time.sleep(0.2)
    time.sleep(1)
    body = get(url + "api/tables")[2]
    tables = json.loads(body)["tables"]
    assert len(tables) == MAX_TABLES and len(body) < 150_000
    assert {t["id"] for t in tables} >= {"table-1", "table-2"}   # the real ones stay
    assert max(len(t["phase"] or "") for t in tables) == MAX_TEXT


def test_tables_silent_for_long_are_forgotten_and_the_pages_told():
    now = [1_800_000_000.0]
    board = Board("companion", clock=lambda: now[0])
    board.receive("companion/old/state", json.dumps({"table": "Old"}).encode())
    now[0] += FORGET_SECONDS - 60
    board.receive("companion/new/availability", b"online")
    client, _ = board.connect("192.0.2.1")
    now[0] += 120                                         # "old" has been silent too long
    board.receive("companion/new/state", json.dumps({"table": "New"}).encode())
    assert [t["id"] for t in board.snapshot()] == ["new"]
    frames = b"".join(client.drain())
    assert b'event: gone\ndata: {"id": "old"}' in frames and b"event: table" in frames
    board.receive("companion/" + "x" * 65 + "/state", b"{}")       # an id too long
    board.receive("companion/big/state", b'{"table": "' + b"x" * MAX_STATE + b'"}')
    assert [t["id"] for t in board.snapshot()] == ["new"]
    board.close()
