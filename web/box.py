"""The box on the host page: what the sensors are doing, ``companion doctor``'s report, and
naming an unknown RFID tag.

The web app knows the box only through :class:`web.context.Box`, which the composition root hands to
:func:`web.create_app` (``hardware.box.HardwareBox`` on a real table). Reading needs the host login
(``GET /api/box``, which the page polls while sensors run, and ``GET /api/doctor``); naming a tag
changes things, so it needs the CSRF token too.
"""

from __future__ import annotations

from flask import Blueprint, Response, jsonify

from .catalogs import known_ids
from .context import current, request_lang
from .errors import ApiError, read_json
from .host import require_host, require_login

bp = Blueprint("box", __name__)


@bp.get("/api/box")
def box() -> Response:
    """The box's live status (see :meth:`web.context.Box.status`)."""
    require_login()
    return jsonify(current().box.status(request_lang()))


@bp.get("/api/doctor")
def doctor_report() -> Response:
    """``companion doctor``'s checks, with the box's live status."""
    require_login()
    box, lang = current().box, request_lang()
    checks = box.doctor(lang)
    return jsonify({"checks": checks, "ok": not any(c["ok"] is False for c in checks),
                    "box": box.status(lang)})


@bp.post("/api/box/enroll")
def enroll() -> Response:
    """Name the unknown tag just swiped: remember that it is ``card`` and, when the game waits
    for a card, give it that card (a refused card leaves the tag waiting)."""
    require_host()
    card = read_json({"card"}, {"card"})["card"]
    if not isinstance(card, str) or not card:
        raise ApiError(400, "request.bad_field", field="card", expected="a card id")
    ctx = current()
    session, box = ctx.session, ctx.box
    uid = box.pending_tag()
    if uid is None:
        raise ApiError(409, "tags.none_pending")
    template = session.expects().template("card")
    if template is not None and not template.blank.extra:  # one card, not AoT's two
        session.submit(template.fill(card), source="web")
    elif card not in known_ids(session):
        raise ApiError(422, "tags.unknown_card", card=card)
    box.enroll(card)  # when the card was given, the table may have named the tag already
    return jsonify({"uid": uid, "card": card, "version": session.version})
