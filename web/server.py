"""Serving the app for real: uvicorn's asyncio server, Flask in a thread pool, live streams on the
event loop.

With a thread-per-request server (waitress before), every open ``/api/stream`` held a worker
thread while it waited, so as many idle phones as threads hung every other request. Here no
thread waits on a stream:

- uvicorn (a well-kept asyncio HTTP server, pure Python with its ``h11`` parser: nothing to
  compile on a Pi) owns the sockets; an idle connection costs a few kilobytes, not a thread;
- ordinary requests run the Flask app in a small thread pool (``a2wsgi``'s WSGI adapter, pure
  Python), as before;
- ``/api/stream`` too is answered by Flask (the Host check, the caps, the headers, the snapshot
  are the app's), but instead of a body that blocks a thread, the route hands its hub client to
  this module through the ASGI scope (:data:`STREAM_KEY`) and the event loop writes the frames
  as the hub pushes them, a ping when idle, until the phone leaves.

gevent's WSGI server was the other candidate: it would need the whole process monkey-patched,
and the camera's OpenCV loop and the voice would then block every phone. Served any other way
(Flask's test client, another WSGI server) the same route streams from its own thread.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import resource
import signal
import socket
import threading
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, replace
from types import FrameType
from typing import Any

import h11
import uvicorn
from a2wsgi import WSGIMiddleware
from flask import Flask
from uvicorn.protocols.http.h11_impl import H11Protocol

from .context import EXTENSION
from .hub import Client, Hub

DEFAULT_THREADS = 16
STREAM_PATH = "/api/stream"
STREAM_KEY = "companion.stream"
"""Where the stream route leaves ``(client, first frame)`` in the ASGI scope."""
CONNECTIONS = 4096
"""Open files wanted (sockets count): 1,000 idle phones' connections and then some."""
CONNECTIONS_PER_ADDRESS = 200
"""Open connections one address may hold: one machine cannot take every file the server has."""
LISTEN_BACKLOG = 2048
"""Connections the kernel queues before they are accepted (a crowd of phones arriving)."""
ACCEPT_BATCH = 32
"""Connections accepted at one wake-up of the event loop. asyncio accepts up to the backlog it
is given at each wake-up, and a connection is counted (and closed if it must be) only three
wake-ups later, so a few batches are open before they are counted; asyncio also sets the
kernel's queue to that backlog, and :class:`_Server` sets it back to :data:`LISTEN_BACKLOG`."""
SPARE_FILES = 4 * ACCEPT_BATCH + 64
"""Open files kept from counted connections: the batches accepted but not yet counted, and the
journal and its companions, the lock, the camera, MQTT, mDNS."""
REQUEST_TIMEOUT = 10.0
"""Seconds a connection has to send a whole request (a phone on a weak Wi-Fi needs well
under one)."""

Scope = dict[str, Any]
Receive = Callable[[], Any]
Send = Callable[[dict[str, Any]], Any]


def _body(data: bytes, more: bool = True) -> dict[str, Any]:
    return {"type": "http.response.body", "body": data, "more_body": more}


class Wakeups:
    """Wakes streams on the event loop from the hub's thread: one loop callback per burst of
    pushes (an event reaches 200 streams with one wake-up of the loop, not 200)."""

    def __init__(self, loop: asyncio.AbstractEventLoop) -> None:
        self.loop = loop
        self._pending: set[asyncio.Event] = set()
        self._lock = threading.Lock()

    def wake(self, ready: asyncio.Event) -> None:
        """Set ``ready`` on the loop soon (callable from any thread)."""
        with self._lock:
            first = not self._pending
            self._pending.add(ready)
        if first:
            self.loop.call_soon_threadsafe(self._flush)

    def _flush(self) -> None:
        with self._lock:
            pending, self._pending = self._pending, set()
        for ready in pending:
            ready.set()


class CompanionAsgi:
    """The ASGI application uvicorn runs: the Flask app in ``threads`` threads, and the body of
    every admitted stream on the event loop."""

    def __init__(self, app: Flask, threads: int) -> None:
        self.wsgi = WSGIMiddleware(app, workers=threads)
        ctx = app.extensions[EXTENSION]
        self.hub: Hub = ctx.hub
        self.heartbeat: float = ctx.config.heartbeat
        self._wakeups: Wakeups | None = None

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http" or scope["path"] != STREAM_PATH:
            await self.wsgi(scope, receive, send)
            return
        scope = dict(scope)  # the route writes the hand-over here (a2wsgi passes it on)

        async def head_only(message: dict[str, Any]) -> None:
            if STREAM_KEY in scope and message["type"] == "http.response.body" \
                    and not message.get("more_body"):
                return  # the route's empty body ends here: the frames follow
            await send(message)

        await self.wsgi(scope, receive, head_only)
        if STREAM_KEY in scope:
            client, first = scope[STREAM_KEY]
            await self._stream(client, first, receive, send)

    async def _stream(self, client: Client, first: bytes, receive: Receive, send: Send) -> None:
        """Write a stream's frames as they come (a ping with the version when idle) until the
        phone leaves or the hub closes it."""
        loop = asyncio.get_running_loop()
        if self._wakeups is None:
            self._wakeups = Wakeups(loop)
        wakeups = self._wakeups
        ready = asyncio.Event()
        gone = asyncio.Event()

        async def watch() -> None:
            while (await receive())["type"] != "http.disconnect":
                pass
            gone.set()
            ready.set()

        client.wake = lambda: wakeups.wake(ready)
        watcher = asyncio.create_task(watch())
        try:
            await send(_body(b"retry: 500\n\n" + first))
            last = loop.time()
            while not gone.is_set():
                ready.clear()
                frames = client.drain()
                if frames is None:
                    break
                idle = loop.time() - last
                if frames or idle >= self.heartbeat:
                    await send(_body(b"".join(frames) if frames else self.hub.ping()))
                    last = loop.time()
                    continue
                timer = loop.call_later(self.heartbeat - idle, ready.set)
                await ready.wait()
                timer.cancel()
            if not gone.is_set():
                await send(_body(b"", more=False))
        finally:
            client.wake = None
            watcher.cancel()
            self.hub.disconnect(client)


@dataclass(frozen=True)
class ConnectionLimits:
    """How many connections the server holds and for how long it waits for a request.

    ``total``: open connections in all, kept below the open-file limit (see :func:`limits`);
    ``per_address``: open connections of one address; ``request_timeout``: seconds a
    connection has, once open or once its last answer is sent, to send a whole request (head
    and body), else it is closed.
    """

    total: int = CONNECTIONS - SPARE_FILES
    per_address: int = CONNECTIONS_PER_ADDRESS
    request_timeout: float = REQUEST_TIMEOUT


class Gate:
    """The connections of one server, shared by their protocols: counts by address, and those
    waiting for a request, oldest first, each with its deadline.

    When ``total`` connections are open, a new one makes room by closing the connection that
    has waited longest without ever sending a whole request (a half-sent request, a silent
    socket), else the one idle longest since its last answer: whoever asks for something now
    (a phone loading the page, a new login) gets in, the keep-alive connection of the host who
    is playing is the last to go, and connections being answered or streaming are never closed
    for it.
    """

    def __init__(self, limits: ConnectionLimits) -> None:
        self.limits = limits
        self.by_address: Counter[str] = Counter()
        self._strangers: dict[CappedH11, asyncio.TimerHandle] = {}
        self._answered: dict[CappedH11, asyncio.TimerHandle] = {}

    def admit(self, protocol: CappedH11, open_: int) -> bool:
        """Count a new connection; whether it may stay (its address is under its cap, and
        room was made if ``open_`` connections exceed the total)."""
        self.by_address[protocol.address] += 1
        if self.by_address[protocol.address] > self.limits.per_address:
            return False
        if open_ > self.limits.total:
            oldest = next(iter(self._strangers or self._answered), None)
            if oldest is None:
                return False
            self.forget(oldest)
            oldest.transport.close()
        return True

    def wait(self, protocol: CappedH11) -> None:
        """Start ``protocol``'s deadline for its next request, unless it runs already."""
        waiting = self._answered if protocol.answered else self._strangers
        if protocol not in waiting:
            waiting[protocol] = protocol.loop.call_later(self.limits.request_timeout,
                                                         protocol.late)

    def forget(self, protocol: CappedH11) -> None:
        """``protocol`` has its request, or is gone: no deadline."""
        for waiting in (self._strangers, self._answered):
            timer = waiting.pop(protocol, None)
            if timer is not None:
                timer.cancel()

    def leave(self, protocol: CappedH11) -> None:
        """A connection is closed."""
        self.forget(protocol)
        self.by_address[protocol.address] -= 1
        if self.by_address[protocol.address] <= 0:
            del self.by_address[protocol.address]


class CappedH11(H11Protocol):
    """uvicorn's HTTP/1.1 protocol (pure Python ``h11``) under a :class:`Gate`: a connection
    beyond its address's cap is closed at once, one beyond the total makes room (or is closed),
    and one that does not send a whole request within the request timeout is closed (uvicorn
    alone would hold a half-sent request for ever)."""

    def __init__(self, *args: Any, gate: Gate, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.gate = gate
        self.address = ""
        self.answered = False

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        """Accept the connection if the gate lets it in, and start its request deadline."""
        super().connection_made(transport)
        self.address = self.client[0] if self.client else ""
        if self.gate.admit(self, len(self.connections)):
            self._track()
        else:
            transport.close()

    def connection_lost(self, exc: Exception | None) -> None:
        """The connection is gone: its place and its deadline with it."""
        super().connection_lost(exc)
        self.gate.leave(self)

    def handle_events(self) -> None:
        """Parse what came (uvicorn), then see whether a whole request is in."""
        super().handle_events()
        self._track()

    def on_response_complete(self) -> None:
        """An answer is sent: the deadline of the next request starts."""
        self.answered = True
        self.gate.forget(self)
        super().on_response_complete()
        self._track()

    def _track(self) -> None:
        if self.transport.is_closing():
            self.gate.forget(self)
        elif self.conn.their_state in (h11.IDLE, h11.SEND_BODY):
            self.gate.wait(self)
        else:
            self.gate.forget(self)

    def late(self) -> None:
        """The request did not come whole in time: close the connection."""
        self.gate.forget(self)
        if not self.transport.is_closing():
            self.transport.close()


class _Server(uvicorn.Server):
    """uvicorn's server, ending the open streams as soon as it is asked to stop (uvicorn waits
    for open responses before it exits), with the kernel's queue of :data:`LISTEN_BACKLOG`."""

    def __init__(self, config: uvicorn.Config, hub: Hub) -> None:
        super().__init__(config)
        self.hub = hub

    async def startup(self, sockets: list[socket.socket] | None = None) -> None:
        """Start serving; then give the kernel back its long queue of arriving connections."""
        await super().startup(sockets)
        for sock in sockets or ():
            sock.listen(LISTEN_BACKLOG)

    def handle_exit(self, sig: int, frame: FrameType | None) -> None:
        """Stop accepting, and close every stream (in a thread: this runs in a signal
        handler)."""
        super().handle_exit(sig, frame)
        threading.Thread(target=self.hub.close, name="companion-stop", daemon=True).start()


def _more_files() -> int:
    """Raise this process's open-file limit towards :data:`CONNECTIONS` (each connection is one;
    the usual soft limit of 1,024 is below what a crowd of idle phones opens); return the
    limit now."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    wanted = CONNECTIONS if hard == resource.RLIM_INFINITY else min(CONNECTIONS, hard)
    if soft != resource.RLIM_INFINITY and soft < wanted:
        resource.setrlimit(resource.RLIMIT_NOFILE, (wanted, hard))
        soft = wanted
    return soft


def within_files(limits: ConnectionLimits, files: int) -> ConnectionLimits:
    """``limits`` with a total that leaves :data:`SPARE_FILES` of the ``files`` the process
    may open to everything else: connections never take the last file."""
    if files == resource.RLIM_INFINITY:
        return limits
    return replace(limits, total=max(1, min(limits.total, files - SPARE_FILES)))


def _listen(host: str, port: int) -> socket.socket:
    """The listening socket. Made as a TCP socket by name (``IPPROTO_TCP``), so that asyncio
    turns Nagle's algorithm off on every connection: else a response's body waits for the ACK
    of its head, 40 ms of delayed ACK on every request."""
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    sock = socket.socket(family, socket.SOCK_STREAM, socket.IPPROTO_TCP)
    try:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        sock.bind((host, port))
        sock.listen(LISTEN_BACKLOG)
    except OSError:
        sock.close()
        raise
    return sock


def serve(app: Flask, host: str, port: int, threads: int = DEFAULT_THREADS,
          ready: Callable[[str, int], None] | None = None,
          limits: ConnectionLimits | None = None) -> None:
    """Serve ``app`` until Ctrl-C or SIGTERM; then end the streams and stop cleanly.

    ``ready(host, port)`` is called once the socket listens (port 0 picks a free one).
    ``threads`` run ordinary requests; streams need none. ``limits`` bound the connections
    (their total is lowered to what the open-file limit allows).
    """
    gate = Gate(within_files(limits or ConnectionLimits(), _more_files()))
    sock = _listen(host, port)
    hub = app.extensions[EXTENSION].hub
    config = uvicorn.Config(
        CompanionAsgi(app, threads), lifespan="off", http=functools.partial(CappedH11, gate=gate),
        loop="asyncio", ws="none", interface="asgi3", log_level="warning", access_log=False,
        proxy_headers=False, server_header=False, timeout_keep_alive=5,
        timeout_graceful_shutdown=3, backlog=ACCEPT_BATCH)
    server = _Server(config, hub)
    # a stop asked before uvicorn listens for signals (or re-raised by uvicorn once it is done)
    # goes to the same place
    previous = {sig: signal.signal(sig, server.handle_exit) for sig in (signal.SIGINT,
                                                                         signal.SIGTERM)}
    try:
        if ready is not None:
            ready(*sock.getsockname()[:2])
        server.run(sockets=[sock])
    finally:
        hub.close()
        with contextlib.suppress(OSError):
            sock.close()
        for sig, handler in previous.items():
            signal.signal(sig, handler)
