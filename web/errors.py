"""Refusals as JSON: a status, a message key naming the problem, its parameters and the sentence
in the request's language; and the strict reading of JSON request bodies."""

from __future__ import annotations

import errno
import json
from collections.abc import Collection
from pathlib import Path
from typing import Any

from flask import Flask, Response, jsonify, request
from werkzeug.exceptions import HTTPException

from companion.engine import Game, Message, RuleError, StoreError, find_game
from companion.engine.files import storage_error
from companion.i18n import render

from . import limits
from .context import current, request_lang
from .texts import texts

BAD_REQUEST_KEYS = {
    "event.bad_json", "event.not_object", "event.no_type", "event.bad_source",
    "event.unknown_field", "event.missing_field", "event.bad_field", "event.unknown_type",
    "effect.unknown", "effect.needs", "definition.unknown_kind", "box.not_a_box", "box.version",
}
"""Rule errors that mean the request itself is malformed (400); other refusals are 422, a stale
version 409."""


class ApiError(Exception):
    """A refused request: HTTP status, message key and parameters."""

    def __init__(self, status: int, key: str, /, **params: Any) -> None:
        super().__init__(key)
        self.status, self.key, self.params = status, key, params
        self.game: Game | None = None  # whose catalog says it, when not the game on the table

    @classmethod
    def from_rule(cls, error: RuleError, game: Game | None = None) -> ApiError:
        """The HTTP form of a refused event (``game``: the one it concerns, e.g. a refused
        setup's, whose catalog says the refusal, when no or another game is on the table)."""
        if error.key == "event.stale":
            status = 409
        elif error.key in BAD_REQUEST_KEYS:
            status = 400
        else:
            status = 422
        refused = cls(status, error.key, **error.params)
        refused.game = game
        return refused


STORAGE_ERRNOS = frozenset({errno.ENOSPC, errno.EDQUOT, errno.EROFS})
"""System errors that mean the data directory cannot take a write (full, over quota,
read-only): refused like a :class:`StoreError`, whatever wrote."""


def store_refusal(error: StoreError) -> ApiError:
    """The HTTP form of a write the data directory refused: a full disk 507, read-only or busy
    503; nothing was committed."""
    return ApiError(507 if error.key == "store.full" else 503, error.key, **error.params)


def game_named(event: Any) -> Game | None:
    """The installed game a setup event names (None for any other event or an unknown game)."""
    if not isinstance(event, dict) or event.get("type") != "setup":
        return None
    try:
        return find_game(event.get("game"))
    except RuleError:
        return None


def _safe(params: dict[str, Any]) -> dict[str, Any]:
    return json.loads(json.dumps(params, default=str))


def error_response(error: ApiError) -> Response:
    """The JSON body of a refusal, with the sentence in the request's language."""
    ctx = current()
    game = error.game or ctx.session.game
    table = texts(request_lang(), game, ctx.session.state if game is ctx.session.game else None)
    body = {"error": error.key, "message": render(Message(error.key, error.params), texts=table),
            "params": _safe(error.params), "version": ctx.session.version}
    response = jsonify(body)
    response.status_code = error.status
    if "seconds" in error.params:
        response.headers["Retry-After"] = str(error.params["seconds"])
    return response


def read_json(allowed: Collection[str], required: Collection[str] = (),
              limit: int | None = None) -> dict[str, Any]:
    """The request's JSON object, refusing a wrong content type, an oversized or malformed body
    (over ``limit`` bytes, by default the configured one), one over the depth, size and number
    limits (``web.limits``), a value that is not an object, unknown and missing fields."""
    limit = limit or current().config.max_body
    if request.content_length is not None and request.content_length > limit:
        raise ApiError(413, "request.too_large", size=request.content_length, limit=limit)
    if request.mimetype != "application/json":
        raise ApiError(415, "request.not_json", got=request.mimetype or None)
    raw = request.get_data(cache=False)
    if len(raw) > limit:
        raise ApiError(413, "request.too_large", size=len(raw), limit=limit)
    try:
        data = limits.parse(raw)
    except limits.LimitError as error:
        raise ApiError(400, error.key, **error.params) from None
    if not isinstance(data, dict):
        raise ApiError(400, "request.not_object", got=type(data).__name__)
    unknown = sorted(set(data) - set(allowed))
    if unknown:
        raise ApiError(400, "request.unknown_field", field=unknown[0], known=sorted(allowed))
    missing = sorted(set(required) - set(data))
    if missing:
        raise ApiError(400, "request.missing_field", field=missing[0])
    return data


def install(app: Flask) -> None:
    """Answer API errors, HTTP errors under /api, refused events and refused writes as
    JSON."""
    app.register_error_handler(ApiError, error_response)
    app.register_error_handler(RuleError, lambda e: error_response(ApiError.from_rule(e)))
    app.register_error_handler(StoreError, lambda e: error_response(store_refusal(e)))

    @app.errorhandler(OSError)
    def storage_failed(exc: OSError) -> Response:
        """A write the disk refused behind any request (a tag, a taught die face...) is a
        507 or 503 with the page's sentence, never a 500; another system error stays one."""
        if exc.errno not in STORAGE_ERRNOS:
            raise exc
        where = Path(exc.filename) if exc.filename else current().session.data_dir
        return error_response(store_refusal(storage_error(exc, where)))

    @app.errorhandler(HTTPException)
    def http_error(exc: HTTPException) -> Response | HTTPException:
        if not request.path.startswith("/api/"):
            return exc
        if exc.code == 413:
            limit = current().config.max_body
            return error_response(ApiError(413, "request.too_large",
                                           size=request.content_length, limit=limit))
        return error_response(ApiError(exc.code or 500, f"http.{exc.code}", path=request.path))
