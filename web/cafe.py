"""``companion cafe --broker HOST:PORT``: every table of a board-game café on one page.

Each companion publishes its game on the broker (:mod:`companion.mqtt`); the café page
subscribes to every table's retained ``state`` and ``availability`` and shows each table's game,
phase, what it waits for and the time since its last event, live (Server-Sent Events), in
French or English. It is read-only and talks to no companion: the broker is the only link.

It is served as the table's page is (:mod:`web.server`): no thread waits on an open page's
stream, and streams are capped in all and per address; it has the same ``Host`` allow-list and
security headers (:mod:`web.security`). Its memory is bounded whatever the broker says: at most
:data:`MAX_TABLES` tables of bounded size, a table the broker has said nothing of for
:data:`FORGET_SECONDS` is forgotten, and each open page has a bounded queue.
"""

from __future__ import annotations

import argparse
import json
import logging
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from typing import Any

from flask import Flask, Response, jsonify, render_template, request

from companion import config as settings
from companion.engine import Message
from companion.i18n import LANGUAGES, render

from . import security
from .config import WebConfig
from .context import EXTENSION
from .errors import ApiError
from .hub import RETRY_AFTER, Client, Streams, StreamsFull
from .server import DEFAULT_THREADS, serve
from .streaming import stream_response
from .texts import next_language, pick_language, texts

log = logging.getLogger(__name__)

#: Frames a page may fall behind before its stream is closed (it reconnects by itself).
BACKLOG = 512
#: Tables kept at most; a new table beyond them is ignored until one is forgotten.
MAX_TABLES = 200
#: Seconds after which a table the broker has said nothing of is forgotten.
FORGET_SECONDS = 6 * 3600.0
#: The longest state read (bytes), table id and text kept of a field (characters).
MAX_STATE, MAX_ID, MAX_TEXT = 16_384, 64, 200


def frame(kind: str, data: Any) -> bytes:
    """One Server-Sent Events message."""
    return f"event: {kind}\ndata: {json.dumps(data, ensure_ascii=False)}\n\n".encode()


@cache
def game_names(game: str) -> dict[str, str]:
    """A game's name in each language (its id when the catalogs do not name it)."""
    return {lang: texts(lang).get(f"name.{game}", game) for lang in LANGUAGES}


def _text(value: Any) -> Any:
    """A state's field as the page shows it: text cut to :data:`MAX_TEXT`, a number, or None."""
    if isinstance(value, str):
        return value[:MAX_TEXT]
    return value if isinstance(value, int | float) and not isinstance(value, bool) else None


class Board:
    """The latest picture of every table under ``root``, and the pages to tell of each change.

    :meth:`receive` takes a broker message (any thread); :meth:`connect` registers a page's
    stream and gives it the whole board first. ``config`` caps the streams (those of the phone
    page); ``clock`` gives the time.
    """

    def __init__(self, root: str = "companion", config: WebConfig | None = None,
                 clock: Callable[[], float] = time.time) -> None:
        config = config or WebConfig()
        self.root, self.clock = root, clock
        self.tables: dict[str, dict[str, Any]] = {}
        self._streams = Streams(BACKLOG, config.streams, config.streams_per_address)
        self._lock = threading.Lock()
        self._closed = False
        self._ignored = 0

    @property
    def subscriptions(self) -> tuple[str, ...]:
        """The topics the café listens to."""
        return (f"{self.root}/+/state", f"{self.root}/+/availability")

    def receive(self, topic: str, payload: bytes) -> None:
        """A broker message: update its table and tell every page. Others are ignored."""
        parts = topic.split("/")
        if len(parts) != 3 or parts[0] != self.root or not 0 < len(parts[1]) <= MAX_ID:
            return
        table, kind = parts[1], parts[2]
        if kind == "availability":
            change: dict[str, Any] | None = {"online": payload == b"online"}
        elif kind == "state":
            change = self._state(payload)
        else:
            return
        if change is None:
            return
        with self._lock:
            now = self.clock()
            self._forget(now)
            entry = self.tables.get(table)
            if entry is None:
                if len(self.tables) >= MAX_TABLES:
                    self._ignored += 1
                    if self._ignored == 1:
                        log.warning("the café keeps %d tables: %s and others are ignored until "
                                    "a table is silent for %g h", MAX_TABLES, table,
                                    FORGET_SECONDS / 3600)
                    return
                entry = {"id": table, "name": table, "online": None, "game": None}
            entry = {**entry, **change, "received": now}
            self.tables[table] = entry
            self._streams.push(frame("table", entry))

    def _forget(self, now: float) -> None:
        """Forget the tables silent for :data:`FORGET_SECONDS` and tell the pages (under the
        lock)."""
        silent = [t for t, entry in self.tables.items()
                  if entry["received"] < now - FORGET_SECONDS]
        for table in silent:
            del self.tables[table]
            self._streams.push(frame("gone", {"id": table}))
        if silent:
            self._ignored = 0

    @staticmethod
    def _state(payload: bytes) -> dict[str, Any] | None:
        """The fields of a table's state the page shows, or None when it is not a state."""
        if len(payload) > MAX_STATE:
            return None
        try:
            state = json.loads(payload)
        except (UnicodeDecodeError, ValueError):
            return None
        if not isinstance(state, dict):
            return None
        game = state.get("game")
        return {"name": str(state.get("table") or "")[:MAX_TEXT], "game": _text(game),
                "game_name": game_names(game) if isinstance(game, str) and
                len(game) <= MAX_ID else None,
                "status": _text(state.get("status")), "phase": _text(state.get("phase")),
                "round": _text(state.get("round")), "active": _text(state.get("active")),
                "waiting": {lang: _text(state.get(f"waiting_{lang}")) for lang in LANGUAGES},
                "at": _text(state.get("at")), "version": _text(state.get("version"))}

    def snapshot(self) -> list[dict[str, Any]]:
        """Every table, by name."""
        with self._lock:
            return self._sorted()

    def _sorted(self) -> list[dict[str, Any]]:
        """Every table still heard of, by name (under the lock)."""
        self._forget(self.clock())
        return sorted(self.tables.values(), key=lambda t: (t["name"] or t["id"]).lower())

    def connect(self, address: str = "") -> tuple[Client, bytes]:
        """Register a page's stream from ``address``; return it with its first frame, the whole
        board. Raises :class:`StreamsFull` when a cap is reached."""
        with self._lock:
            client = self._streams.admit(address)
            if self._closed:
                client.close()
            else:
                self._streams.add(client)
            tables = self._sorted()
        return client, frame("snapshot", tables)

    def ping(self) -> bytes:
        """The frame an idle stream gets now and then: the café's time."""
        return frame("ping", {"now": self.clock()})

    def disconnect(self, client: Client) -> None:
        """Forget a page's stream."""
        with self._lock:
            self._streams.discard(client)

    @property
    def streams(self) -> int:
        """How many pages' streams are open."""
        with self._lock:
            return len(self._streams)

    def close(self) -> None:
        """End every stream (new ones end at once): the server is stopping."""
        with self._lock:
            self._closed = True
            clients = self._streams.clients()
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
    :func:`web.server.serve` streams from and closes when the server stops; the server's
    settings (pings, stream caps) are the phone page's defaults."""

    hub: Board
    lang: str
    config: WebConfig = field(default_factory=WebConfig)


def create_cafe_app(board: Board, lang: str = "en", hosts: tuple[str, ...] = ()) -> Flask:
    """The café's Flask app: ``/`` (the page), ``/api/tables`` and ``/api/stream``. ``hosts``
    are the names it may be reached by besides this machine's own (``[web] hosts``)."""
    app = Flask(__name__)
    app.json.ensure_ascii = False
    cafe = Cafe(board, lang)
    app.extensions[EXTENSION] = cafe

    @app.errorhandler(ApiError)
    def refused(error: ApiError) -> Response:
        """A refusal as JSON, in the café's language (it has no game to say it in)."""
        chosen = pick_language(request.args.get("lang"), request.accept_languages, lang)
        response = jsonify({"error": error.key, "params": error.params, "message": render(
            Message(error.key, error.params), texts=texts(chosen))})
        response.status_code = error.status
        if "seconds" in error.params:
            response.headers["Retry-After"] = str(error.params["seconds"])
        return response

    security.install(app, hosts)

    @app.get("/")
    def page() -> str:
        """The page, in the language asked (``?lang=``), else the browser's, else the café's."""
        chosen = pick_language(request.args.get("lang"), request.accept_languages, lang)
        words = {code: {k: v for k, v in texts(code).items() if k.startswith("cafe.")}
                 for code in LANGUAGES}
        return render_template("cafe.html", lang=chosen, words=words, next=next_language(chosen),
                               languages=LANGUAGES)

    @app.get("/api/tables")
    def tables() -> Response:
        """Every table's latest picture, as JSON."""
        return jsonify({"tables": board.snapshot(), "now": time.time()})

    @app.get("/api/stream")
    def stream() -> Response:
        """The board, then each table's change (``table``) or its end (``gone``), as
        Server-Sent Events; beyond the caps (per address, in all) 503 with ``Retry-After``."""
        try:
            client, first = board.connect(request.remote_addr or "")
        except StreamsFull as full:
            raise ApiError(503, "stream.busy_address" if full.per_address else "stream.busy",
                           open=full.open, limit=full.limit, seconds=RETRY_AFTER) from None
        return stream_response(client, first, cafe.config.heartbeat, board.ping,
                               board.disconnect,
                               {"Cache-Control": "no-store", "X-Accel-Buffering": "no"})

    return app


def broker_address(text: str) -> tuple[str, int]:
    """``HOST:PORT`` (or ``HOST``, port 1883) as a pair; raises argparse's error otherwise."""
    host, _, port = text.rpartition(":") if ":" in text else (text, "", "1883")
    if not host or not port.isdigit() or not 0 < int(port) < 65536:
        raise argparse.ArgumentTypeError(f"{text!r} is not HOST:PORT (such as 127.0.0.1:1883)")
    return host, int(port)


def cmd_cafe(args: argparse.Namespace) -> int:
    """Serve the café page until Ctrl-C or SIGTERM."""
    config = settings.load()
    lang = args.lang or config["general"]["language"]
    password = args.password_file.read_text().strip() if args.password_file else ""
    board = Board(args.topic_root)
    listener = Listener(board, *args.broker, args.username, password).start()
    app = create_cafe_app(board, lang, security.split_names(config["web"]["hosts"]))

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
                      help="server threads for the page and /api/tables (open streams hold "
                           "none)")
    cafe.add_argument("--lang", choices=LANGUAGES, default=None,
                      help="the page's language when the browser asks for none (default: the "
                           "config's)")
    cafe.set_defaults(func=cmd_cafe)
