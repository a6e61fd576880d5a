"""Issue 12, finding 3: streams that cannot starve the page.

With waitress each open ``/api/stream`` held one of its threads, so as many idle phones as
threads hung every other request. Here a real ``companion run --threads 4`` carries three
times as many streams as threads while ``/api/state`` and the login answer at once; streams
beyond the caps (per address, in all) are answered 503 with ``Retry-After``; a phone that leaves
frees its place; one address cannot hold every connection; SIGTERM ends open streams and stops
at once.
"""

from __future__ import annotations

import http.client
import json
import signal
import socket
import time

import pytest
from webtools import PIN, HttpHost, RunningServer, setup_event

from web import WebConfig, create_app
from web.auth import PinStore


def open_stream(port: int, source: str = "127.0.0.1") -> tuple[socket.socket, bytes]:
    """A raw stream connection from ``source`` (any 127.x address is this machine); its
    status line and what came with it."""
    sock = socket.create_connection(("127.0.0.1", port), timeout=5, source_address=(source, 0))
    sock.sendall(b"GET /api/stream HTTP/1.1\r\nHost: 127.0.0.1\r\nAccept: text/event-stream"
                 b"\r\n\r\n")
    head = b""
    while b"event: snapshot" not in head and b"\r\n\r\n{" not in head:
        chunk = sock.recv(65536)
        if not chunk:
            break
        head += chunk
    return sock, head


@pytest.fixture
def server(tmp_path):
    PinStore(tmp_path / "data").set(PIN)
    running = RunningServer(tmp_path / "data", "--threads", "4")
    yield running
    running.stop()


def timed_get(port: int, path: str) -> tuple[int, float]:
    start = time.perf_counter()
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=3)
    conn.request("GET", path)
    status = conn.getresponse().status
    conn.close()
    return status, time.perf_counter() - start


def test_more_streams_than_threads_leave_the_page_answering(server):
    streams = [open_stream(server.port, f"127.0.0.{2 + n // 6}") for n in range(12)]
    try:
        assert all(head.startswith(b"HTTP/1.1 200") for _, head in streams)
        status, took = timed_get(server.port, "/api/state")
        assert status == 200 and took < 1.0
        host = HttpHost(server.url).login()
        assert host.call("POST", "api/events", {"event": setup_event()})[0] == 200
        for sock, _ in streams:  # every stream gets the update
            seen = b""
            while b"event: update" not in seen:
                seen += sock.recv(65536)
    finally:
        for sock, _ in streams:
            sock.close()


def test_caps_answer_503_with_retry_after_and_a_leaving_phone_frees_its_place(server):
    first = [open_stream(server.port, "127.0.0.9") for _ in range(8)]
    sock, head = open_stream(server.port, "127.0.0.9")
    status_line, _, rest = head.partition(b"\r\n")
    assert status_line.startswith(b"HTTP/1.1 503")
    assert b"retry-after: " in rest.lower()
    body = json.loads(rest.split(b"\r\n\r\n", 1)[1])
    assert body["error"] == "stream.busy_address" and body["params"]["limit"] == 8
    sock.close()
    assert open_stream(server.port, "127.0.0.10")[1].startswith(b"HTTP/1.1 200"), \
        "another address still gets its streams"
    for sock, _ in first:
        sock.close()
    deadline = time.monotonic() + 3
    while True:  # the server notices the closed connections and frees their places
        sock, head = open_stream(server.port, "127.0.0.9")
        sock.close()
        if head.startswith(b"HTTP/1.1 200") or time.monotonic() > deadline:
            break
        time.sleep(0.1)
    assert head.startswith(b"HTTP/1.1 200")


def test_sigterm_ends_open_streams_and_stops(server):
    streams = [open_stream(server.port) for _ in range(3)]
    start = time.monotonic()
    server.process.send_signal(signal.SIGTERM)
    server.process.wait(timeout=10)
    assert time.monotonic() - start < 5 and server.process.returncode == 0
    for sock, _ in streams:
        sock.close()


def test_total_cap_counts_every_address(session):
    app = create_app(session, WebConfig(streams=3, streams_per_address=2))
    try:
        opened = [app.test_client().get("/api/stream", buffered=False,
                                         environ_base={"REMOTE_ADDR": f"10.1.0.{n}"})
                  for n in range(3)]
        assert [r.status_code for r in opened] == [200, 200, 200]
        full = app.test_client().get("/api/stream", environ_base={"REMOTE_ADDR": "10.1.0.9"})
        assert full.status_code == 503 and full.json["error"] == "stream.busy"
        assert int(full.headers["Retry-After"]) >= 1
        assert "pages en direct" in app.test_client().get(
            "/api/stream?lang=fr", environ_base={"REMOTE_ADDR": "10.1.0.9"}).json["message"]
        for response in opened:
            response.close()
        again = app.test_client().get("/api/stream", buffered=False,
                                      environ_base={"REMOTE_ADDR": "10.1.0.9"})
        assert again.status_code == 200
        again.close()
    finally:
        app.extensions["companion"].hub.close()


def test_one_address_cannot_hold_every_connection(server):
    held = [socket.create_connection(("127.0.0.1", server.port), timeout=5,
                                     source_address=("127.0.0.21", 0)) for _ in range(200)]
    try:
        extra = socket.create_connection(("127.0.0.1", server.port), timeout=5,
                                         source_address=("127.0.0.21", 0))
        assert extra.recv(1) == b"", "the 201st connection of one address is closed at once"
        extra.close()
        status, took = timed_get(server.port, "/api/state")  # from 127.0.0.1
        assert status == 200 and took < 1.0
    finally:
        for sock in held:
            sock.close()
