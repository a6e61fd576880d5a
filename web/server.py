"""Serving the app for real: waitress, a pure-Python production WSGI server.

Waitress runs on a Pi as on a laptop, needs no compiler, and writes each chunk of a streamed
response as soon as it is yielded, which Server-Sent Events need. Every open stream holds one of
its worker threads while it waits (a blocked thread costs little memory), so the pool is sized
for the phones at a table plus ordinary requests: 48 threads by default.
"""

from __future__ import annotations

import signal
from collections.abc import Callable

from flask import Flask
from waitress import create_server

from .context import EXTENSION

DEFAULT_THREADS = 48


def serve(app: Flask, host: str, port: int, threads: int = DEFAULT_THREADS,
          ready: Callable[[str, int], None] | None = None,
          stream_buffer: int | None = None) -> None:
    """Serve ``app`` until Ctrl-C or SIGTERM; then end the streams and stop cleanly.

    ``ready(host, port)`` is called once the socket listens (port 0 picks a free one).
    ``stream_buffer`` (bytes): waitress keeps appending a connection's output to one buffer
    until it holds this much (16 MiB by default), even when it was sent long ago; an endless
    stream grows by all it sent until then, so a server of long streams sets it low.
    """
    options = {} if stream_buffer is None else {"outbuf_high_watermark": stream_buffer}
    server = create_server(app, host=host, port=port, threads=threads, ident="companion",
                           connection_limit=max(100, 2 * threads), channel_timeout=60,
                           **options)
    hub = app.extensions[EXTENSION].hub

    def stop(signum: int, frame: object) -> None:
        hub.close()  # streams end now, so the worker threads are free to stop
        raise KeyboardInterrupt

    previous = {sig: signal.signal(sig, stop) for sig in (signal.SIGINT, signal.SIGTERM)}
    try:
        if ready is not None:
            ready(server.effective_host, server.effective_port)
        server.run()
    finally:
        hub.close()
        server.close()
        for sig, handler in previous.items():
            signal.signal(sig, handler)
