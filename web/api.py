"""The JSON API the page uses: the state, host events, the live stream, the games and their
catalogs, and the simulated table's buttons."""

from __future__ import annotations

from typing import Any

from flask import Blueprint, Response, jsonify, request

from companion.engine import Event, RuleError, Step

from .catalogs import game_list, table_catalog
from .context import current
from .errors import ApiError, game_named, read_json
from .host import require_host
from .hub import RETRY_AFTER, StreamsFull
from .streaming import stream_response
from .texts import all_texts, say

RESERVED = ("source", "at")

bp = Blueprint("api", __name__)


@bp.get("/api/state")
def state() -> Response:
    """The full picture: view, version, texts in every language, dice helper, recent log."""
    hub = current().hub
    return jsonify({**hub.current(), "log": hub.log()})


def accepted(done: list[tuple[Event | None, Step]]) -> Response:
    """The answer to what the table took (see :func:`accepted_body`)."""
    return jsonify(accepted_body(done))


def accepted_body(done: list[tuple[Event | None, Step]]) -> dict[str, Any]:
    """What the table took: the version, what each step said, the last step's label and, for
    the simulated table, the events it sent (``event``: the first)."""
    session = current().session
    catalogs = all_texts(session.game, done[-1][1].state)
    label = done[-1][1].label
    body: dict[str, Any] = {
        "version": session.version,
        "said": [say(m, catalogs) for _, step in done for m in step.announcements],
        "label": say(label, catalogs) if label else None}
    events = [event.to_json() for event, _ in done if event is not None]
    if events:
        body["event"], body["events"] = events[0], events
    return body


@bp.post("/api/events")
def post_event() -> Response:
    """Submit one host event. ``based_on`` (the version the host saw) makes a stale page's
    request fail with 409 instead of overwriting newer state."""
    require_host()
    data = read_json({"event", "based_on"}, {"event"})
    event, based_on = data["event"], data.get("based_on")
    if not isinstance(event, dict):
        raise ApiError(400, "request.bad_field", field="event", expected="an object")
    if based_on is not None and (isinstance(based_on, bool) or not isinstance(based_on, int)):
        raise ApiError(400, "request.bad_field", field="based_on", expected="a whole number")
    for name in RESERVED:
        if name in event:
            raise ApiError(400, "request.reserved_field", field=name)
    try:
        step = current().session.submit(event, source="web", based_on=based_on)
    except RuleError as error:  # a refused setup is said in the words of the game it names
        raise ApiError.from_rule(error, game_named(event)) from None
    return accepted([(None, step)])


@bp.get("/api/stream")
def stream() -> Response:
    """Server-Sent Events: a full ``snapshot`` first, then an ``update`` per accepted event,
    each with the state version as its id; a ``ping`` with the version when idle.

    Beyond the caps (per address, in all) the answer is 503 with ``Retry-After``. Under
    ``web.server`` the event loop writes the frames (no thread waits); under any other WSGI
    server this request's thread does."""
    ctx = current()
    try:
        client, first = ctx.hub.connect(request.remote_addr or "")
    except StreamsFull as full:
        raise ApiError(503, "stream.busy_address" if full.per_address else "stream.busy",
                       open=full.open, limit=full.limit, seconds=RETRY_AFTER) from None
    return stream_response(client, first, ctx.config.heartbeat, ctx.hub.ping,
                           ctx.hub.disconnect,
                           {"Cache-Control": "no-cache", "X-Accel-Buffering": "no"})


@bp.get("/api/games")
def games() -> Response:
    """The installed games the host may set up, the flagship first."""
    return jsonify({"games": game_list()})


@bp.get("/api/catalog")
def known() -> Response:
    """What the host may pick from for ``?game=`` (default: the game on the table)."""
    return jsonify(table_catalog(current().session, request.args.get("game")))


@bp.post("/api/simulate/<action>")
def simulate(action: str) -> Response:
    """The simulated table's buttons: ``roll`` the awaited dice (every player's, where each
    rolls their own colour: ``events`` lists one per player) or ``draw`` the awaited card."""
    require_host()
    simulator = current().simulator
    if simulator is None or action not in ("roll", "draw"):
        raise ApiError(404, "simulate.off", action=action)
    read_json(())
    return accepted(simulator.roll() if action == "roll" else [simulator.draw()])
