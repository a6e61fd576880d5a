"""Gzip for what a phone downloads: the page, its scripts and style sheet, JSON answers.

Phones join the table's Wi-Fi from the far end of a room; the page and its assets shrink to about
a quarter. The event stream is never compressed (each event must leave at once), nor a body too
small to gain, nor anything for a client that does not ask for gzip. A compressed static file
keeps its ETag as a weak one, so a phone's conditional request still gets ``304 Not Modified``.
"""

from __future__ import annotations

import gzip

from flask import Response, request

COMPRESSIBLE = frozenset({"text/html", "text/css", "text/javascript", "application/javascript",
                          "application/json"})
SMALLEST = 1024  # bytes: under this, gzip's own header and the CPU time are not worth it
LEVEL = 6


def gzip_response(response: Response) -> Response:
    """Compress ``response`` when the client accepts gzip and the body is worth it (an
    ``after_request`` hook)."""
    if (response.status_code != 200 or response.mimetype not in COMPRESSIBLE
            or "Content-Encoding" in response.headers
            or "gzip" not in request.accept_encodings):
        return response
    response.vary.add("Accept-Encoding")
    response.direct_passthrough = False  # a static file: read it to compress it
    body = response.get_data()
    if len(body) < SMALLEST:
        return response
    response.set_data(gzip.compress(body, LEVEL))
    response.headers["Content-Encoding"] = "gzip"
    etag, weak = response.get_etag()
    if etag and not weak:
        response.set_etag(etag, weak=True)
    return response
