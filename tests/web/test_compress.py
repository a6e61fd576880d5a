"""Gzip on the wire: the page and its assets shrink for a phone that asks for it, decompress to
exactly what an uncompressed request gets, keep working with conditional requests, and the event
stream is never compressed."""

from __future__ import annotations

import gzip

GZ = {"Accept-Encoding": "gzip, deflate"}


def test_page_and_assets_are_gzipped_for_clients_that_ask(viewer):
    for path in ("/", "/static/app.js", "/static/app.css", "/api/openapi.json"):
        plain = viewer.get(path)
        packed = viewer.get(path, headers=GZ)
        assert packed.headers["Content-Encoding"] == "gzip", path
        assert "Accept-Encoding" in packed.headers["Vary"]
        assert gzip.decompress(packed.get_data()) == plain.get_data(), path
        assert len(packed.get_data()) < len(plain.get_data()) / 2, path
        assert "Content-Encoding" not in plain.headers


def test_a_cached_asset_is_still_not_modified(viewer):
    first = viewer.get("/static/app.js", headers=GZ)
    etag = first.headers["ETag"]
    assert etag.startswith("W/")
    again = viewer.get("/static/app.js", headers={**GZ, "If-None-Match": etag})
    assert again.status_code == 304 and again.get_data() == b""


def test_small_answers_and_the_stream_are_sent_as_they_are(viewer):
    small = viewer.get("/api/games", headers=GZ)
    assert small.status_code == 200 and "Content-Encoding" not in small.headers
    stream = viewer.get("/api/stream", headers=GZ, buffered=False)
    assert stream.mimetype == "text/event-stream"
    assert "Content-Encoding" not in stream.headers
    stream.close()
