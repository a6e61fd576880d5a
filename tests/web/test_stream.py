"""The live stream: a snapshot first, then one update per accepted event, each carrying its
version; reconnecting gets the latest snapshot; a stream cut by the server ends cleanly."""

from __future__ import annotations

import json

from webtools import setup_event

from web.hub import Client


def messages(response, count: int) -> list[tuple[str, dict]]:
    """The next ``count`` SSE messages (kind, data) of a streamed response."""
    found: list[tuple[str, dict]] = []
    buffer = b""
    for chunk in response.response:
        buffer += chunk
        while b"\n\n" in buffer:
            block, buffer = buffer.split(b"\n\n", 1)
            fields = dict(line.split(": ", 1) for line in block.decode().splitlines()
                          if ": " in line)
            if "data" in fields:
                found.append((fields["event"], json.loads(fields["data"])))
                assert fields["id"] == str(found[-1][1]["version"])
        if len(found) >= count:
            return found
    return found


def test_snapshot_then_updates_with_versions(app, playing):
    stream = playing.client.get("/api/stream", buffered=False)
    assert stream.mimetype == "text/event-stream"
    assert stream.headers["Cache-Control"] == "no-cache"
    playing.send({"type": "card", "id": "canon-de-l-infamie"})
    playing.send({"type": "place", "slot": "yellow.0"})
    (kind, first), (_, second), (_, third) = messages(stream, 3)
    assert kind == "snapshot" and first["version"] == 1 and first["view"]["game"] == "last-bastion"
    assert [second["version"], third["version"]] == [2, 3]
    assert second["said"][0]["fr"].startswith("Pioché") and second["view"]["version"] == 2
    assert third["view"]["boards"]["yellow"][0]["id"] == "canon-de-l-infamie"
    stream.close()


def test_reconnecting_client_gets_the_latest_snapshot_and_log(app, playing, viewer):
    playing.send({"type": "card", "id": "canon-de-l-infamie"})
    hub = app.extensions["companion"].hub
    first = viewer.get("/api/stream", buffered=False)
    messages(first, 1)
    assert hub.streams == 1
    assert hub.drop_streams() == 1
    assert list(first.response) == [], "a dropped stream ends"
    first.close()
    again = viewer.get("/api/stream", buffered=False)
    (kind, snap), = messages(again, 1)
    assert kind == "snapshot" and snap["version"] == 2
    assert [entry["version"] for entry in snap["log"]] == [1, 2]
    again.close()


def test_idle_stream_pings_with_the_version():
    client = Client(backlog=2)
    assert client.next(timeout=0.01) == b""
    client.push(b"a")
    client.push(b"b")
    client.push(b"c")  # one too many: the client is closed, its page will reconnect
    assert client.closed and client.next(0.01) is None


def test_ping_frame_carries_the_version(app, playing):
    app.extensions["companion"].config.__dict__["heartbeat"] = 0.01  # frozen dataclass, test only
    stream = playing.client.get("/api/stream", buffered=False)
    kinds = messages(stream, 2)
    assert kinds[1] == ("ping", {"version": 1})
    stream.close()


def test_setup_reaches_streams_opened_before_any_game(app, host, viewer):
    stream = viewer.get("/api/stream", buffered=False)
    host.send(setup_event())
    (kind, empty), (_, started) = messages(stream, 2)
    assert kind == "snapshot" and empty["view"]["game"] is None
    assert started["event"] == "setup" and started["view"]["heroes"]["teagaan"]["life"] == 3
    stream.close()
