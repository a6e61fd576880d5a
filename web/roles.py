"""Secret roles: a player whose phone may see more than the shared page, e.g. the Titan of
Attack on Titan, who alone may see the face-down Action card.

The host (cookie and CSRF) issues a role token; the role's phone opens the link with it and sends
it in the ``X-Role-Token`` header (a header, never a cookie: no other site can make a browser send
it). A new token replaces the previous one. ``GET /api/role`` gives the role's own view;
``POST /api/role/events`` submits the role's own decisions. Nothing of the role's view ever goes
to the shared stream or to the host's responses.

A game with secret roles declares them in its capabilities (:class:`companion.engine.Roles`):
their names, the view each one sees, and the check that raises a RuleError naming the rule when
an event is not the role's to send now (answered 403: e.g. the Titan's phone paying for the
heroes).
"""

from __future__ import annotations

from flask import Blueprint, Response, current_app, jsonify, request

from companion.engine import Event, RuleError

from .api import RESERVED
from .context import current
from .errors import ApiError, read_json
from .host import require_host
from .link import KEY as LINK
from .link import qr_svg
from .texts import all_texts, say

HEADER = "X-Role-Token"

bp = Blueprint("roles", __name__)


def _roles_now() -> tuple[str, ...]:
    game = current().session.game
    roles = game.capabilities.roles if game is not None else None
    return roles.names if roles is not None else ()


def require_role() -> str:
    """The role of this request's token, if the game on the table has it; else 403."""
    role = current().roles.role_of(request.headers.get(HEADER))
    if role is None or role not in _roles_now():
        raise ApiError(403, "role.required")
    return role


@bp.post("/api/role/<role>")
def issue(role: str) -> Response:
    """Host: a token (and the page link, with its QR code to scan) for a secret role of the game
    on the table."""
    require_host()
    read_json(())
    if role not in _roles_now():
        raise ApiError(404, "role.unknown", role=role)
    token = current().roles.issue(role)
    link = f"/#role={token}"
    return jsonify({"role": role, "token": token, "link": link,
                    "qr": qr_svg(_page_url() + link)})


def _page_url() -> str:
    """Where the role's phone opens the page: the address the table's link gives (the LAN one),
    else the one this request came to."""
    attached = current_app.extensions.get(LINK)
    return (attached.urls[0] if attached and attached.urls else request.host_url).rstrip("/")


@bp.get("/api/role")
def own_view() -> Response:
    """The role's own picture: its view with the version, and what it is asked, in every
    language."""
    role = require_role()
    session = current().session
    view = session.game.capabilities.roles.view(role, session.state)
    catalogs = all_texts(session.game, session.state)
    message = view["expects"].get("message")
    return jsonify({"role": role, "version": session.version, "view": view, "texts": {
        "expects": say(message, catalogs) if message else None,
        "prompts": [say(p, catalogs) for p in view.get("prompts", [])]}})


@bp.post("/api/role/events")
def role_event() -> Response:
    """Submit one of the role's own decisions (``{"event": {...}, "based_on": n}``); one that is
    not the role's to send now is refused with 403 and the rule's key."""
    role = require_role()
    data = read_json({"event", "based_on"}, {"event"})
    session = current().session
    version = session.version  # read before the state: a change in between makes it stale
    based_on = data.get("based_on")
    if isinstance(based_on, int) and not isinstance(based_on, bool) and based_on != version:
        raise RuleError("event.stale", based_on=based_on, version=version)
    event = Event.from_json(data["event"])
    for name in RESERVED:
        if name in data["event"]:
            raise ApiError(400, "request.reserved_field", field=name)
    try:
        session.game.capabilities.roles.check(role, session.state, event)
    except RuleError as error:
        raise ApiError(403, error.key, **error.params) from None
    step = session.submit(event, source="web", based_on=version)
    catalogs = all_texts(session.game, step.state)
    return jsonify({"version": session.version,
                    "said": [say(m, catalogs) for m in step.announcements]})
