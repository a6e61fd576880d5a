"""Host login with the PIN, the first-run PIN, and the guard every changing request passes.

A changing request needs the host cookie (else 403, nothing changes) and an unused CSRF token in
the ``X-CSRF-Token`` header; the token is consumed and the next one comes back in the response's
``X-CSRF-Token`` header. Cross-site requests are refused by their ``Origin``.
"""

from __future__ import annotations

import math
from urllib.parse import urlsplit

from flask import Blueprint, Response, g, jsonify, request

from .auth import CsrfError, PinError, check_pin_format
from .context import current
from .errors import ApiError, read_json

COOKIE = "companion_host"
CSRF_HEADER = "X-CSRF-Token"

bp = Blueprint("host", __name__)


def same_origin() -> None:
    """Refuse a browser request sent from another site."""
    origin = request.headers.get("Origin")
    if origin and urlsplit(origin).netloc != request.host:
        raise ApiError(403, "request.cross_origin", origin=origin)


def require_login() -> str:
    """The host session of a request that only reads host data; else 403 ``host.required``."""
    same_origin()
    host_id = request.cookies.get(COOKIE)
    if not current().hosts.valid(host_id):
        raise ApiError(403, "host.required")
    return host_id


def require_host() -> str:
    """The host session of a changing request, its CSRF token consumed; else a 403 naming why."""
    host_id = require_login()
    ctx = current()
    try:
        ctx.hosts.consume(host_id, request.headers.get(CSRF_HEADER))
    except CsrfError as error:
        raise ApiError(403, error.key) from None
    g.next_csrf = ctx.hosts.issue(host_id)
    return host_id


def attach_csrf(response: Response) -> Response:
    """Give the next CSRF token to a host whose token this request used."""
    token = g.get("next_csrf")
    if token:
        response.headers[CSRF_HEADER] = token
    return response


def _logged_in(status: int = 200) -> Response:
    ctx = current()
    host_id = ctx.hosts.open()
    response = jsonify({"host": True, "csrf": ctx.hosts.issue(host_id)})
    response.status_code = status
    response.set_cookie(COOKIE, host_id, max_age=int(ctx.config.host_hours * 3600),
                        httponly=True, samesite="Strict", secure=request.is_secure, path="/")
    return response


def _pin(data: dict) -> str:
    try:
        return check_pin_format(data["pin"])
    except PinError:
        raise ApiError(400, "pin.bad_format") from None


@bp.get("/api/host")
def status() -> Response:
    """Whether this browser is a logged-in host (with a fresh CSRF token), whether a PIN exists,
    whether the simulated table is on, and whether sensors run (the host page's "Box")."""
    ctx = current()
    host_id = request.cookies.get(COOKIE)
    body = {"host": ctx.hosts.valid(host_id), "pin_set": ctx.pins.is_set(),
            "simulate": ctx.simulator is not None, "sensors": ctx.box.running}
    if body["host"]:
        body["csrf"] = ctx.hosts.issue(host_id)
    return jsonify(body)


@bp.post("/api/pin")
def first_pin() -> Response:
    """Choose the host PIN on first run (later, only ``companion pin`` changes it)."""
    same_origin()
    ctx = current()
    data = read_json({"pin"}, {"pin"})
    if ctx.pins.is_set():
        raise ApiError(409, "pin.already_set")
    ctx.pins.set(_pin(data))
    return _logged_in(201)


@bp.post("/api/login")
def login() -> Response:
    """Log in as host with the PIN; wrong PINs are rate-limited per client and overall."""
    same_origin()
    ctx = current()
    data = read_json({"pin"}, {"pin"})
    client = request.remote_addr or "?"
    wait = ctx.limiter.retry_after(client)
    if wait > 0:
        raise ApiError(429, "pin.rate_limited", seconds=math.ceil(wait))
    if not ctx.pins.is_set():
        raise ApiError(409, "pin.not_set")
    if not ctx.pins.verify(data["pin"]):
        ctx.limiter.failed(client)
        raise ApiError(401, "pin.wrong")
    return _logged_in()


@bp.post("/api/logout")
def logout() -> Response:
    """End this host session."""
    host_id = require_host()
    current().hosts.close(host_id)
    g.next_csrf = None
    response = jsonify({"host": False})
    response.delete_cookie(COOKIE, path="/")
    return response
