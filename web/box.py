"""The box on the host page: what the sensors are doing, ``companion doctor``'s report, and
naming an unknown RFID tag.

Reading needs the host login (``GET /api/box``, which the page polls while sensors run, and
``GET /api/doctor``); naming a tag changes things, so it needs the CSRF token too. When no sensor
runs (a plain ``--simulate``) the box shows the last tag a previous run saw, and the doctor opens
the devices itself, as ``companion doctor`` does.
"""

from __future__ import annotations

from typing import Any

from flask import Blueprint, Response, jsonify

from hardware import doctor
from hardware.status import last_tag
from hardware.tags import TagMap

from .catalogs import known_ids
from .context import Companion, current, request_lang
from .errors import ApiError, read_json
from .host import require_host, require_login

bp = Blueprint("box", __name__)


def box_status(ctx: Companion) -> dict[str, Any]:
    """Whether sensors run, the devices failing now, the recent changes (``problem`` None: it
    came back), the last raw tag read (``card``: what it is enrolled as, or None) and the unknown
    tag waiting to be named."""
    session, table = ctx.session, ctx.table
    status = (table.status.snapshot(request_lang()) if table is not None
              else {"problems": {}, "events": []})
    seen = last_tag(session.data_dir)
    if seen is not None:
        tags = table.tags if table is not None else TagMap(session.data_dir)
        seen = {**seen, "card": tags.card(seen["uid"], session.game.id if session.game else None)}
    pending = table.pending() if table is not None else None
    return {"running": table is not None, "problems": status["problems"],
            "events": status["events"], "last_tag": seen,
            "pending_tag": None if pending is None else {"uid": pending[0],
                                                          "seconds_left": round(pending[1])}}


@bp.get("/api/box")
def box() -> Response:
    """The box's live status (see :func:`box_status`)."""
    require_login()
    return jsonify(box_status(current()))


@bp.get("/api/doctor")
def doctor_report() -> Response:
    """``companion doctor``'s checks, with the box's live status; the devices the running
    companion holds are judged by their status instead of being opened a second time."""
    require_login()
    ctx = current()
    live = ctx.table.status if ctx.table is not None else None
    checks = doctor.run(ctx.settings, ctx.session.data_dir, live=live)
    return jsonify({"checks": [c.to_json(request_lang()) for c in checks],
                    "ok": not any(c.ok is False for c in checks), "box": box_status(ctx)})


@bp.post("/api/box/enroll")
def enroll() -> Response:
    """Name the unknown tag just swiped: remember that it is ``card`` and, when the game waits
    for a card, give it that card (a refused card leaves the tag waiting)."""
    require_host()
    card = read_json({"card"}, {"card"})["card"]
    if not isinstance(card, str) or not card:
        raise ApiError(400, "request.bad_field", field="card", expected="a card id")
    ctx = current()
    session, table = ctx.session, ctx.table
    pending = table.pending() if table is not None else None
    if table is None or pending is None:
        raise ApiError(409, "tags.none_pending")
    if session.expects().kind == "card":
        session.submit({"type": "card", "id": card}, source="web")
    elif card not in known_ids(session):
        raise ApiError(422, "tags.unknown_card", card=card)
    table.enroll(card)  # when the card was given, the table may have named the tag already
    return jsonify({"uid": pending[0], "card": card, "version": session.version})
