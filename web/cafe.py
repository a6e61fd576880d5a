"""``companion cafe --broker HOST:PORT``: every table of a board-game café on one page.

Each companion publishes its game on the broker (:mod:`companion.mqtt`); the café page
subscribes to every table's retained ``state`` and ``availability`` and shows each table's game,
phase, what it waits for and the time since its last event, live (Server-Sent Events), in
French or English. It is read-only and talks to no companion: the broker is the only link. It
keeps one entry per table and a bounded queue per open page, so its memory does not grow with
time.
"""

from __future__ import annotations

import argparse
import json
import logging
import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from typing import Any

from flask import Flask, Response, jsonify, render_template, request

from companion import config as settings
from companion.engine import Message
from companion.i18n import LANGUAGES, render

from .config import WebConfig
from .context import EXTENSION
from .hub import Client
from .server import DEFAULT_THREADS, serve
from .texts import pick_language, texts

log = logging.getLogger(__name__)

#: Seconds between two pings on an idle stream (they also tell a page its stream is alive).
PING_SECONDS = 15.0
#: Frames a page may fall behind before its stream is closed (it reconnects by itself).
BACKLOG = 512


def frame(kind: str, data: Any) -> bytes:
    """One Server-Sent Events message."""
    return f"event: {kind}\ndata: {json.dumps(data, ensure_ascii=False)}\n\n".encode()


@cache
def game_names(game: str) -> dict[str, str]:
    """A game's name in each language (its id when the catalogs do not name it)."""
    return {lang: texts(lang).get(f"name.{game}", game) for lang in LANGUAGES}


class Board:
    """The latest picture of every table under ``root``, and the pages to tell of each change.

    :meth:`receive` takes a broker message (any thread); :meth:`connect` registers a page's
    stream and gives it the whole board first.
    """

    def __init__(self, root: str = "companion") -> None:
        self.root = root
        self.tables: dict[str, dict[str, Any]] = {}
        self._clients: set[Client] = set()
        self._lock = threading.Lock()
        self._closed = False

    @property
    def subscriptions(self) -> tuple[str, ...]:
        """The topics the café listens to."""
        return (f"{self.root}/+/state", f"{self.root}/+/availability")

    def receive(self, topic: str, payload: bytes) -> None:
        """A broker message: update its table and tell every page. Others are ignored."""
        parts = topic.split("/")
        if len(parts) != 3 or parts[0] != self.root:
            return
        table, kind = parts[1], parts[2]
        with self._lock:
            entry = self.tables.get(table) or {"id": table, "name": table, "online": None,
                                               "game": None}
            if kind == "availability":
                entry = {**entry, "online": payload == b"online"}
            elif kind == "state":
                state = self._state(payload)
                if state is None:
                    return
                entry = {**entry, **state}
            else:
                return
            entry["received"] = time.time()
            self.tables[table] = entry
            message = frame("table", entry)
            for client in self._clients:
                client.push(message)

    @staticmethod
    def _state(payload: bytes) -> dict[str, Any] | None:
        """The fields of a table's state the page shows, or None when it is not a state."""
        try:
            state = json.loads(payload)
        except (UnicodeDecodeError, ValueError):
            return None
        if not isinstance(state, dict):
            return None
        game = state.get("game")
        return {"name": str(state.get("table") or ""), "game": game,
                "game_name": game_names(game) if isinstance(game, str) else None,
                "status": state.get("status"), "phase": state.get("phase"),
                "round": state.get("round"), "active": state.get("active"),
                "waiting": {lang: state.get(f"waiting_{lang}") for lang in LANGUAGES},
                "at": state.get("at"), "version": state.get("version")}

    def snapshot(self) -> list[dict[str, Any]]:
        """Every table, by name."""
        with self._lock:
            return sorted(self.tables.values(), key=lambda t: (t["name"] or t["id"]).lower())

    def connect(self) -> tuple[Client, bytes]:
        """Register a page's stream; return it with its first frame, the whole board."""
        client = Client(BACKLOG)
        with self._lock:
            if self._closed:
                client.close()
            else:
                self._clients.add(client)
        return client, frame("snapshot", self.snapshot())

    def disconnect(self, client: Client) -> None:
        """Forget a page's stream."""
        with self._lock:
            self._clients.discard(client)

    def close(self) -> None:
        """End every stream (new ones end at once): the server is stopping."""
        with self._lock:
            self._closed = True
            clients, self._clients = list(self._clients), set()
        for client in clients:
            client.close()


class Listener:
    """The café's MQTT client: subscribes to every table and feeds the board; paho reconnects
    by itself (1 s, doubling up to 30 s) and the broker then sends the retained states again."""

    def __init__(self, board: Board, host: str, port: int, username: str = "",
                 password: str = "") -> None:
        import paho.mqtt.client as mqtt

        self.board = board
        self.client = mqtt.Client(mqtt.CallbackAPIVersion.VERSION2)
        if username:
            self.client.username_pw_set(username, password or None)
        self.client.reconnect_delay_set(1, 30)
        self.client.on_connect = self._on_connect
        self.client.on_connect_fail = lambda c, u: log.warning(
            "the broker %s:%s does not answer; trying again", host, port)
        self.client.on_message = lambda c, u, message: board.receive(message.topic,
                                                                     message.payload)
        self.client.connect_async(host, port)

    def _on_connect(self, client: Any, userdata: Any, flags: Any, reason: Any,
                    properties: Any) -> None:
        if reason.is_failure:
            log.warning("the broker refused the café: %s", reason)
            return
        for topic in self.board.subscriptions:
            client.subscribe(topic, qos=0)

    def start(self) -> Listener:
        """Connect in the background."""
        self.client.loop_start()
        return self

    def stop(self) -> None:
        """Disconnect."""
        self.client.disconnect()
        self.client.loop_stop()


@dataclass
class Cafe:
    """What the café app keeps (``app.extensions["companion"]``): the board is its hub, which
    :func:`web.server.serve` closes when the server stops, and the server's settings (its
    streams' pings) are the phone page's defaults."""

    hub: Board
    lang: str
    config: WebConfig = field(default_factory=WebConfig)


def create_cafe_app(board: Board, lang: str = "en") -> Flask:
    """The café's Flask app: ``/`` (the page), ``/api/tables`` and ``/api/stream``."""
    app = Flask(__name__)
    app.json.ensure_ascii = False
    app.extensions[EXTENSION] = Cafe(board, lang)

    @app.after_request
    def locked_down(response: Response) -> Response:
        response.headers["Content-Security-Policy"] = "default-src 'self'"
        response.headers["X-Content-Type-Options"] = "nosniff"
        return response

    @app.get("/")
    def page() -> str:
        """The page, in the language asked (``?lang=``), else the browser's, else the café's."""
        chosen = pick_language(request.args.get("lang"), request.accept_languages, lang)
        words = {code: {k: v for k, v in texts(code).items() if k.startswith("cafe.")}
                 for code in LANGUAGES}
        return render_template("cafe.html", lang=chosen, words=words)

    @app.get("/api/tables")
    def tables() -> Response:
        """Every table's latest picture, as JSON."""
        return jsonify({"tables": board.snapshot(), "now": time.time()})

    @app.get("/api/stream")
    def stream() -> Response:
        """The board, then each table's change, as Server-Sent Events."""
        client, first = board.connect()

        def frames() -> Iterator[bytes]:
            try:
                yield first
                while (data := client.next(PING_SECONDS)) is not None:
                    yield data or frame("ping", {"now": time.time()})
            finally:
                board.disconnect(client)

        return Response(frames(), mimetype="text/event-stream",
                        headers={"Cache-Control": "no-store", "X-Accel-Buffering": "no"})

    return app


def broker_address(text: str) -> tuple[str, int]:
    """``HOST:PORT`` (or ``HOST``, port 1883) as a pair; raises argparse's error otherwise."""
    host, _, port = text.rpartition(":") if ":" in text else (text, "", "1883")
    if not host or not port.isdigit() or not 0 < int(port) < 65536:
        raise argparse.ArgumentTypeError(f"{text!r} is not HOST:PORT (such as 127.0.0.1:1883)")
    return host, int(port)


def cmd_cafe(args: argparse.Namespace) -> int:
    """Serve the café page until Ctrl-C or SIGTERM."""
    lang = args.lang or settings.load()["general"]["language"]
    password = args.password_file.read_text().strip() if args.password_file else ""
    board = Board(args.topic_root)
    listener = Listener(board, *args.broker, args.username, password).start()
    app = create_cafe_app(board, lang)

    def ready(host: str, port: int) -> None:
        url = f"http://{host}:{port}/"
        print(render(Message("cafe.url", {"url": url}), texts=texts(lang)), flush=True)

    try:
        serve(app, args.host, args.port, args.threads, ready)
    finally:
        listener.stop()
    return 0


def add_cafe_parser(subparsers: Any) -> None:
    """Register ``cafe`` on the ``companion`` command's sub-parsers."""
    cafe = subparsers.add_parser("cafe", help="every table on one broker, on one read-only page")
    cafe.add_argument("--broker", type=broker_address, required=True, metavar="HOST:PORT")
    cafe.add_argument("--username", default="", help="the café's user on the broker")
    cafe.add_argument("--password-file", type=Path, default=None,
                      help="a file holding the café's password on the broker")
    cafe.add_argument("--topic-root", default="companion", help="[mqtt] topic_root of the tables")
    cafe.add_argument("--host", default="0.0.0.0", help="address to listen on (default: all)")
    cafe.add_argument("--port", type=int, default=8080)
    cafe.add_argument("--threads", type=int, default=DEFAULT_THREADS,
                      help="server threads; each open page holds one")
    cafe.add_argument("--lang", choices=LANGUAGES, default=None,
                      help="the page's language when the browser asks for none (default: the "
                           "config's)")
    cafe.set_defaults(func=cmd_cafe)
