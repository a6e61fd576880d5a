"""Secret roles: a player whose phone may see more than the shared page, e.g. the Titan of
Attack on Titan, who alone may see the face-down Action card.

The host (cookie and CSRF) issues a role token; the role's phone opens the link with it and sends
it in the ``X-Role-Token`` header (a header, never a cookie: no other site can make a browser send
it). A new token replaces the previous one. ``GET /api/role`` gives the role's own view
(``GAME.titan_view``); ``POST /api/role/events`` submits the role's own events. Nothing of the
role's view ever goes to the shared stream or to the host's responses.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from flask import Blueprint, Response, jsonify, request

from companion.engine import Game

from .context import current
from .errors import ApiError, read_json
from .host import require_host
from .texts import all_texts, say

HEADER = "X-Role-Token"
ROLES: dict[str, dict[str, tuple[str, ...]]] = {"aot-last-stand": {"titan": (
    "commit", "ability", "choose")}}
"""Per game, its secret roles and the events each role may submit from its own phone."""
VIEWS: dict[str, Callable[[Game, dict[str, Any]], dict[str, Any]]] = {
    "titan": lambda game, state: game.titan_view(state)}
"""Per role, the view its phone gets."""

bp = Blueprint("roles", __name__)


def _roles_now() -> dict[str, tuple[str, ...]]:
    game = current().session.game
    return ROLES.get(game.id, {}) if game is not None else {}


def require_role() -> str:
    """The role of this request's token, if the game on the table has it; else 403."""
    role = current().roles.role_of(request.headers.get(HEADER))
    if role is None or role not in _roles_now():
        raise ApiError(403, "role.required")
    return role


@bp.post("/api/role/<role>")
def issue(role: str) -> Response:
    """Host: a token (and the page link) for a secret role of the game on the table."""
    require_host()
    read_json(())
    if role not in _roles_now():
        raise ApiError(404, "role.unknown", role=role)
    token = current().roles.issue(role)
    return jsonify({"role": role, "token": token, "link": f"/#role={token}"})


@bp.get("/api/role")
def own_view() -> Response:
    """The role's own picture: its view with the version, and what it is asked, in every
    language."""
    role = require_role()
    session = current().session
    view = VIEWS[role](session.game, session.state)
    catalogs = all_texts(session.game, session.state)
    message = view["expects"].get("message")
    return jsonify({"role": role, "version": session.version, "view": view, "texts": {
        "expects": say(message, catalogs) if message else None,
        "prompts": [say(p, catalogs) for p in view.get("prompts", [])]}})


@bp.post("/api/role/events")
def role_event() -> Response:
    """Submit one of the role's own events (``{"event": {...}, "based_on": n}``)."""
    role = require_role()
    data = read_json({"event", "based_on"}, {"event"})
    event = data["event"]
    if not isinstance(event, dict) or event.get("type") not in _roles_now()[role]:
        raise ApiError(403, "role.event_refused", role=role,
                       allowed=list(_roles_now()[role]))
    based_on = data.get("based_on")
    step = current().session.submit(event, source="web",
                                    based_on=based_on if isinstance(based_on, int) else None)
    return jsonify({"version": current().session.version,
                    "said": [say(m, all_texts(current().session.game, step.state))
                             for m in step.announcements]})
