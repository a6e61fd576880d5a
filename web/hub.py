"""The fan-out of accepted events to every open stream.

The session calls :meth:`Hub.listen` synchronously, under its lock, after each committed event:
it only enqueues. The hub's own thread then builds the payload once (view, texts in every
language, dice helper), encodes it as one Server-Sent Events frame and hands the same bytes to
every connected client's queue. A client registers and takes the latest picture under the hub's
lock, so its snapshot and the updates queued after it never leave a gap.

Streams are capped, in all and per address (a phone needs one; a page reloading may briefly
hold two): a stream beyond a cap is refused with :class:`StreamsFull` (HTTP 503), so no number
of connections can exhaust the server's memory.
"""

from __future__ import annotations

import json
import queue
import threading
from collections import Counter, deque
from collections.abc import Callable
from typing import Any

from companion.engine import Game, Session, Update

from . import payload

LOG_SIZE = 60
CLOSED = None


def frame(kind: str, data: dict[str, Any]) -> bytes:
    """One SSE message: the version as its id, a kind, and the JSON data on one line."""
    body = json.dumps(data, ensure_ascii=False, separators=(",", ":"))
    return f"id: {data['version']}\nevent: {kind}\ndata: {body}\n\n".encode()


def ping(version: int) -> bytes:
    """The message an idle stream gets now and then: it carries the version too, so a page that
    missed an update notices and reconnects."""
    return frame("ping", {"version": version})


RETRY_AFTER = 5
"""Seconds a refused stream is asked to wait before trying again."""


class StreamsFull(Exception):
    """A stream refused because ``open`` streams already reach ``limit`` (``per_address``:
    the cap of one address, else the total)."""

    def __init__(self, open_: int, limit: int, per_address: bool) -> None:
        super().__init__(open_, limit)
        self.open, self.limit, self.per_address = open_, limit, per_address


class Client:
    """One open stream: a bounded queue of frames; a client that falls too far behind is closed
    (its page reconnects and gets a fresh snapshot).

    A thread serving it blocks in :meth:`next`; an event loop sets ``wake`` (called after every
    push, from the hub's thread) and takes what is queued with :meth:`drain`.
    """

    def __init__(self, backlog: int, address: str = "") -> None:
        self.backlog = backlog
        self.address = address
        self.closed = False
        self.wake: Callable[[], None] | None = None
        self._frames: deque[bytes] = deque()
        self._ready = threading.Condition(threading.Lock())

    def push(self, data: bytes) -> None:
        """Queue a frame, or close the client if it cannot keep up."""
        with self._ready:
            if len(self._frames) >= self.backlog:
                self.closed = True
            else:
                self._frames.append(data)
            self._ready.notify()
        if self.wake is not None:
            self.wake()

    def close(self) -> None:
        """End the stream at the next read."""
        with self._ready:
            self.closed = True
            self._ready.notify()
        if self.wake is not None:
            self.wake()

    def next(self, timeout: float) -> bytes | None:
        """The next frame, b"" if none came within ``timeout``, or None once closed."""
        with self._ready:
            if not self._frames and not self.closed:
                self._ready.wait(timeout)
            if self.closed:
                return CLOSED
            return self._frames.popleft() if self._frames else b""

    def drain(self) -> list[bytes] | None:
        """Every frame queued now (maybe none), without waiting; None once closed."""
        with self._ready:
            if self.closed:
                return None
            found = list(self._frames)
            self._frames.clear()
            return found


class Streams:
    """The open streams of a page, capped in all and per address. It has no lock of its own:
    its owner calls it under the lock it pushes under, so that a new stream's snapshot and the
    frames queued after it leave no gap."""

    def __init__(self, backlog: int, total: int, per_address: int) -> None:
        self.backlog, self.limits = backlog, (total, per_address)
        self._clients: set[Client] = set()
        self._by_address: Counter[str] = Counter()

    def admit(self, address: str) -> Client:
        """A new stream from ``address`` (not yet open: :meth:`add` opens it); raises
        :class:`StreamsFull` when a cap is reached."""
        total, per_address = self.limits
        if self._by_address[address] >= per_address:
            raise StreamsFull(self._by_address[address], per_address, True)
        if len(self._clients) >= total:
            raise StreamsFull(len(self._clients), total, False)
        return Client(self.backlog, address)

    def add(self, client: Client) -> None:
        """Open an admitted stream: it gets every frame pushed from now on."""
        self._clients.add(client)
        self._by_address[client.address] += 1

    def discard(self, client: Client) -> None:
        """Forget a stream (the page left or the server stops)."""
        if client in self._clients:
            self._clients.discard(client)
            self._by_address[client.address] -= 1
            if not self._by_address[client.address]:
                del self._by_address[client.address]

    def push(self, data: bytes) -> None:
        """Queue a frame on every open stream."""
        for client in self._clients:
            client.push(data)

    def clients(self) -> list[Client]:
        """The open streams now."""
        return list(self._clients)

    def __len__(self) -> int:
        return len(self._clients)


class Hub:
    """Keeps the latest picture of the game and pushes every change to every client."""

    def __init__(self, session: Session, backlog: int = 256, streams: int = 256,
                 per_address: int = 8) -> None:
        self.session = session
        self._streams = Streams(backlog, streams, per_address)
        self._inbox: queue.SimpleQueue[tuple[Game, Update, int] | None] = queue.SimpleQueue()
        self._log: deque[dict[str, Any]] = deque(maxlen=LOG_SIZE)
        self._changed = threading.Condition()
        self._closed = False
        self.latest = {**payload.describe(session.game, session.state, session.version),
                       "undoable": self._undoable()}
        self._unsubscribe = session.subscribe(self.listen)
        self._thread = threading.Thread(target=self._run, name="companion-hub", daemon=True)
        self._thread.start()

    def _undoable(self) -> int:
        """How many steps of the current game can be undone (the setup cannot): the page offers
        Undo only when there is one."""
        return max(0, len(self.session.history()) - 1)

    def listen(self, change: Update) -> None:
        """The session's listener: enqueue, never block."""
        self._inbox.put((self.session.game, change, self._undoable()))

    def _run(self) -> None:
        while (item := self._inbox.get()) is not None:
            game, change, undoable = item
            data = {**payload.update(game, change), "undoable": undoable}
            said = {"version": change.version, "said": data.pop("said"),
                    "label": data.pop("label"), "event": data.pop("event")}
            message = frame("update", {**data, **said})
            with self._changed:
                self.latest = data
                self._log.append(said)
                self._streams.push(message)
                self._changed.notify_all()

    def connect(self, address: str = "") -> tuple[Client, bytes]:
        """Register a stream from ``address``; return it with its first frame, the full
        snapshot. Raises :class:`StreamsFull` when a cap is reached."""
        with self._changed:
            client = self._streams.admit(address)
            self._changed.wait_for(self._caught_up, timeout=1.0)
            if self._closed:
                client.close()
            else:
                self._streams.add(client)
            first = frame("snapshot", {**self.latest, "log": list(self._log)})
        return client, first

    def disconnect(self, client: Client) -> None:
        """Forget a stream (the phone left or the server stops)."""
        with self._changed:
            self._streams.discard(client)

    def _caught_up(self) -> bool:
        return self.latest["version"] >= self.session.version

    def ping(self) -> bytes:
        """The frame an idle stream gets now and then (with the version)."""
        return ping(self.session.version)

    def current(self, timeout: float = 2.0) -> dict[str, Any]:
        """The latest picture, once the hub has caught up with the session's version."""
        with self._changed:
            self._changed.wait_for(self._caught_up, timeout=timeout)
            return self.latest

    def log(self) -> list[dict[str, Any]]:
        """The recent announcements, oldest first."""
        with self._changed:
            return list(self._log)

    def drop_streams(self) -> int:
        """Close every open stream (their pages reconnect by themselves); say how many."""
        with self._changed:
            clients = self._streams.clients()
        for client in clients:
            client.close()
        return len(clients)

    @property
    def streams(self) -> int:
        """How many streams are open."""
        with self._changed:
            return len(self._streams)

    def close(self) -> None:
        """Stop listening and end every stream (new ones end at once)."""
        with self._changed:
            if self._closed:
                return
            self._closed = True
        self._unsubscribe()
        self._inbox.put(None)
        self.drop_streams()
        self._thread.join(timeout=5)
