"""Host login with the PIN, the first-run PIN (with the table's setup code), the host sessions'
list, and the guard every changing request passes.

A changing request needs the host cookie (else 403, nothing changes) and an unused CSRF token in
the ``X-CSRF-Token`` header; the token is consumed and the next one comes back in the response's
``X-CSRF-Token`` header. Cross-site requests are refused by their ``Origin``.
"""

from __future__ import annotations

import math
import time
from collections.abc import Iterator
from contextlib import contextmanager
from urllib.parse import urlsplit

from flask import Blueprint, Response, g, jsonify, request

from .auth import Attempt, CsrfError, PinError, RateLimited, check_pin_format
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
    cookie = request.cookies.get(COOKIE)
    if not current().hosts.valid(cookie):
        raise ApiError(403, "host.required")
    return cookie


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
    cookie = ctx.hosts.open(request.user_agent.string or "")
    response = jsonify({"host": True, "csrf": ctx.hosts.issue(cookie)})
    response.status_code = status
    response.set_cookie(COOKIE, cookie, max_age=int(ctx.hosts.expires(cookie) - time.time()),
                        httponly=True, samesite="Strict", secure=request.is_secure, path="/")
    return response


def _pin(data: dict) -> str:
    try:
        return check_pin_format(data["pin"])
    except PinError:
        raise ApiError(400, "pin.bad_format") from None


@contextmanager
def _checked() -> Iterator[Attempt]:
    """Count this request's PIN attempt before the costly check, and hold the check slot; too
    many attempts are refused with 429 and the wait. A host already logged in is not counted:
    guessers never lock the host out."""
    ctx = current()
    counted = not ctx.hosts.valid(request.cookies.get(COOKIE))
    try:
        with ctx.limiter.attempt(request.remote_addr or "?", counted) as attempt:
            yield attempt
    except RateLimited as limited:
        raise ApiError(429, "pin.rate_limited", seconds=math.ceil(limited.seconds)) from None


@bp.get("/api/host")
def status() -> Response:
    """Whether this browser is a logged-in host (with a fresh CSRF token), whether a PIN exists,
    whether the simulated table is on, and whether sensors run (the host page's "Box")."""
    ctx = current()
    cookie = request.cookies.get(COOKIE)
    body = {"host": ctx.hosts.valid(cookie), "pin_set": ctx.pins.is_set(),
            "simulate": ctx.simulator is not None, "sensors": ctx.box.running}
    if body["host"]:
        body["csrf"] = ctx.hosts.issue(cookie)
    return jsonify(body)


@bp.post("/api/pin")
def first_pin() -> Response:
    """Choose the host PIN on first run, with the setup code the table printed and spoke (later,
    only ``companion pin`` changes it)."""
    same_origin()
    ctx = current()
    data = read_json({"pin", "code"}, {"pin", "code"})
    if ctx.pins.is_set():
        raise ApiError(409, "pin.already_set")
    pin = _pin(data)
    with _checked():
        if not ctx.setup.matches(data["code"]):
            raise ApiError(401, "pin.setup_code_wrong")
        ctx.pins.set(pin)
        ctx.setup.spend()
    return _logged_in(201)


@bp.post("/api/login")
def login() -> Response:
    """Log in as host with the PIN; attempts are counted before the check, per client and
    overall, and checked one at a time."""
    same_origin()
    ctx = current()
    data = read_json({"pin"}, {"pin"})
    if not ctx.pins.is_set():
        raise ApiError(409, "pin.not_set")
    pin = _pin(data)
    with _checked() as attempt:
        right = ctx.pins.verify(pin)
        if right:
            attempt.refund()
    if not right:
        raise ApiError(401, "pin.wrong")
    return _logged_in()


@bp.post("/api/logout")
def logout() -> Response:
    """End this host session, or with ``{"all": true}`` every host session."""
    cookie = require_host()
    everywhere = read_json({"all"}).get("all", False)
    if not isinstance(everywhere, bool):
        raise ApiError(400, "request.bad_field", field="all", expected="true or false")
    ctx = current()
    if everywhere:
        ctx.hosts.close_all()
    else:
        ctx.hosts.close(cookie)
    g.next_csrf = None
    response = jsonify({"host": False})
    response.delete_cookie(COOKIE, path="/")
    return response


@bp.get("/api/sessions")
def sessions() -> Response:
    """Host: the logged-in host sessions (id, opened, expires, browser, this one?)."""
    cookie = require_login()
    return jsonify({"sessions": current().hosts.listing(cookie)})


@bp.post("/api/sessions/revoke")
def revoke() -> Response:
    """Host: end one host session by its id (``{"id": ...}``)."""
    require_host()
    sid = read_json({"id"}, {"id"})["id"]
    if not isinstance(sid, str):
        raise ApiError(400, "request.bad_field", field="id", expected="a session id")
    if not current().hosts.revoke(sid):
        raise ApiError(404, "host.unknown_session", id=sid)
    return jsonify({"sessions": current().hosts.listing(request.cookies.get(COOKIE))})
