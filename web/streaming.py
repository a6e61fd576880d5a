"""The answer to a stream request, the same for the phone page and the café: under
:mod:`web.server` the route hands the stream to the event loop (no thread waits on it); under any
other WSGI server (Flask's test client) the request's thread writes the frames."""

from __future__ import annotations

from collections.abc import Callable, Iterator

from flask import Response, request

from .hub import Client
from .server import STREAM_KEY, STREAM_PATH


def stream_response(client: Client, first: bytes, heartbeat: float,
                    ping: Callable[[], bytes], forget: Callable[[Client], None],
                    headers: dict[str, str]) -> Response:
    """The response of an admitted stream: ``first`` (the snapshot), then the client's frames,
    ``ping()`` every ``heartbeat`` seconds when idle; ``forget(client)`` once it ends."""
    scope = request.environ.get("asgi.scope")
    if scope is not None and scope.get("path") == STREAM_PATH:
        scope[STREAM_KEY] = (client, first)
        return Response(iter(()), mimetype="text/event-stream", headers=headers)

    def frames() -> Iterator[bytes]:
        try:
            yield b"retry: 500\n\n" + first
            while (data := client.next(heartbeat)) is not None:
                yield data or ping()
        finally:
            forget(client)

    return Response(frames(), mimetype="text/event-stream", headers=headers)
