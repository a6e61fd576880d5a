"""What the owner may teach, per game: ``GET /api/definitions?game=ID`` describes each kind of
definition and its fields, so that the host page draws a "Teach a card" form for every game.

The description is read from the game's own schemas (``companion.engine.catalog.Catalog``): the
engine's checkers keep their bounds and choices in their closures, which are read here, never
evaluated. Besides text, numbers, choices, yes/no, lists and objects, an effect of a game's
vocabulary (``companion.engine.catalog.vocabulary``) is described as its ops and each op's
fields, and an object keyed by a fixed choice (``mapping(one_of(...), ...)``, e.g. symbols and
their counts) as an object with one optional field per choice. A checker that cannot be described
that way is either declared below (a printed text that may also be given per language is taught
here as one text), or offers its shapes in an ``either`` attribute (shape name -> checker: a
card's timing is printed text or effects, and the owner picks one), or is left out of the form and
listed as ``skipped``.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Mapping
from typing import Any

from flask import Blueprint, Response, jsonify, request

from companion.boxfile import export_box, import_box
from companion.cardphotos import CARD_ID, sync_pictures, taught_picture
from companion.engine import Game, Message, RuleError, find_game
from companion.engine.events import Checker, Schema, boolean, text
from companion.i18n import render

from .api import accepted_body
from .catalogs import game_list
from .context import current, request_lang
from .errors import ApiError, read_json
from .host import require_host, require_login
from .texts import texts

bp = Blueprint("definitions", __name__)

Description = dict[str, Any]

DECLARED: dict[str, Description] = {"texts": {"type": "text"}}
"""Game checkers (by function name) described by hand: printed text, taught as one text."""


def _closure(check: Checker) -> dict[str, Any]:
    """The values a checker factory closed over (its bounds, choices or item checker)."""
    cells = check.__closure__ or ()
    return dict(zip(check.__code__.co_freevars, (c.cell_contents for c in cells), strict=True))


def _number(vars_: Mapping[str, Any]) -> Description:
    return {"type": "number", "min": vars_["low"], "max": vars_["high"]}


def _choice(vars_: Mapping[str, Any]) -> Description:
    return {"type": "choice", "options": list(vars_["choices"])}


def _list(vars_: Mapping[str, Any]) -> Description | None:
    """A list of known length bounds (``max`` None: as many items as the owner adds)."""
    item = describe(vars_["item"])
    if item is None:
        return None
    return {"type": "list", "item": item, "min": vars_["low"], "max": vars_["high"]}


def _object(vars_: Mapping[str, Any]) -> Description:
    return {"type": "object", **fields(vars_["schema"])}


def _keyed(vars_: Mapping[str, Any]) -> Description | None:
    """An object whose keys are a fixed choice: one optional field per choice."""
    keys, value = describe(vars_["key"]), describe(vars_["val"])
    if keys is None or keys["type"] != "choice" or value is None:
        return None
    return {"type": "object", "skipped": [],
            "fields": [{"name": str(k), "required": False, **value} for k in keys["options"]]}


def _either(shapes: Mapping[str, Checker]) -> Description | None:
    """A value of one of several shapes (``as``: which), each drawn as its own field."""
    choices = [{"as": name, **described} for name, check in shapes.items()
               if (described := describe(check)) is not None]
    return {"type": "either", "choices": choices} if choices else None


def _effect(vars_: Mapping[str, Any]) -> Description:
    """One effect of a game's vocabulary: which op, then that op's own fields."""
    return {"type": "effect",
            "ops": [{"op": op, **fields(schema)} for op, schema in vars_["ops"].items()]}


def _needing(effect: Description | None,
             needs: Mapping[str, tuple[str, str]]) -> Description | None:
    """An effect whose checker also needs a field when another has a value (a Last Bastion
    Equipment token's colour): that field says when (``needed_when``: the other field and its
    value), so the form shows it then, as a required field."""
    for op in effect["ops"] if effect else []:
        for field in op["fields"]:
            if field["name"] in needs:
                other, value = needs[field["name"]]
                field["needed_when"] = {"field": other, "value": value}
    return effect


FACTORIES: dict[str, Callable[[Mapping[str, Any]], Description | None]] = {
    "companion.engine.events.integer": _number, "companion.engine.events.one_of": _choice,
    "companion.engine.events.list_of": _list, "companion.engine.events.obj": _object,
    "companion.engine.events.mapping": _keyed, "companion.engine.catalog.vocabulary": _effect}
"""The engine's checker factories this page knows how to draw, by module and name."""


def describe(check: Checker) -> Description | None:
    """One checker as a form field (text, number, choice, yes/no, list, object, effect), or
    None."""
    if check is text:
        return {"type": "text"}
    if check is boolean:
        return {"type": "yes_no"}
    shapes = getattr(check, "either", None)
    if shapes is not None:
        return _either(shapes)
    plain = getattr(check, "vocabulary", None)
    if plain is not None:
        return _needing(describe(plain), getattr(check, "needs", {}))
    factory = check.__qualname__.removesuffix(".<locals>.check")
    if f"{check.__module__}.{factory}" in FACTORIES:
        return FACTORIES[f"{check.__module__}.{factory}"](_closure(check))
    return DECLARED.get(check.__name__)


def fields(schema: Schema) -> Description:
    """A schema's fields that a form can hold (notes starting with ``_`` aside), and the names of
    those it cannot."""
    shown, skipped = [], []
    for name, spec in schema.items():
        if name.startswith("_"):
            continue
        field = describe(spec.check)
        if field is None:
            skipped.append(name)
        else:
            shown.append({"name": name, "required": spec.required, **field})
    return {"fields": shown, "skipped": skipped}


def kinds(game: Game) -> list[Description]:
    """Every kind the owner may teach in ``game``, with its fields, in the game's order (a list:
    JSON objects are sent with sorted keys)."""
    return [{"kind": kind, **fields(schema)} for kind, schema in game.capabilities.schemas.items()]


@bp.get("/api/definitions")
def definitions() -> Response:
    """The kinds and fields ``?game=`` (default: the game on the table) lets the owner teach."""
    session = current().session
    game = find_game(request.args.get("game") or (session.game.id if session.game
                                                   else game_list()[0]))
    return jsonify({"game": game.id, "kinds": kinds(game)})


BOX_LIMIT = 4 * 1024 * 1024
"""The largest box file the host page may import: 4 MB, as a box carries the pictures of the
cards taught from photos (9.6 KB a card in base64, 16.1 KB at most on the 81 SET cards of
benchmarks/cards/: a box of 200 cards taught from photos is 1.9 to 3.2 MB, its definitions far
less)."""
PHOTO_LIMIT = 20 * 1024 * 1024
"""The largest photo a teach form may send (a phone's photo, as it took it)."""


def _owner_tags(ctx: Any) -> Any:
    """The running companion's tag map (its sensors hold it), or None to read the file."""
    return ctx.box.tags()


@bp.get("/api/definitions/export")
def export() -> Response:
    """Host: every definition and tag the owner taught for ``?game=`` (default: the game on
    the table), as a box file to download (docs/cards.md)."""
    require_login()
    ctx = current()
    game = find_game(request.args.get("game") or (ctx.session.game.id if ctx.session.game
                                                  else game_list()[0]))
    response = jsonify(export_box(ctx.session.data_dir, game, _owner_tags(ctx)))
    response.headers["Content-Disposition"] = f'attachment; filename="{game.id}-box.json"'
    return response


@bp.post("/api/definitions/import")
def import_file() -> Response:
    """Host: a box file, checked whole and written whole or not at all (``replace``: its values
    win where they differ from the owner's); the per-entry report, its reasons in the request's
    language. 422 when nothing was written. What it adds applies from the next new game."""
    require_host()
    request.max_content_length = BOX_LIMIT
    data = read_json({"box", "replace"}, {"box"}, limit=BOX_LIMIT)
    ctx = current()
    report = import_box(ctx.session.data_dir, data["box"], bool(data.get("replace")),
                        _owner_tags(ctx))
    table = texts(request_lang(), find_game(report.game))
    body = report.to_json()
    for entry, shown in zip(report.entries, body["entries"], strict=True):
        shown["reason"] = render(entry.reason, texts=table) if entry.reason else None
        shown["line"] = render(Message("box.entry", {"outcome": entry.outcome,
                                                     "kind": entry.kind, "id": entry.id}),
                               texts=table)
    body["message"] = render(report.summary(), texts=table)
    response = jsonify(body)
    response.status_code = 200 if report.written else 422
    return response


def _form_event() -> tuple[dict[str, Any], int | None]:
    """The ``teach`` event and ``based_on`` of a teach form sent with its photo."""
    try:
        event = json.loads(request.form.get("event", ""))
    except ValueError:
        event = None
    if not isinstance(event, dict) or event.get("type") != "teach" \
            or not isinstance(event.get("id"), str) or {"source", "at"} & set(event):
        raise ApiError(400, "request.bad_field", field="event", expected="a teach event")
    if not CARD_ID.match(event["id"]):
        raise ApiError(400, "request.bad_field", field="event.id",
                       expected="a card id (letters, digits, . _ + -)")
    based_on = request.form.get("based_on")
    if based_on is not None and not re.fullmatch(r"[0-9]{1,15}", based_on):
        raise ApiError(400, "request.bad_field", field="based_on", expected="a whole number")
    return event, None if based_on is None else int(based_on)


@bp.post("/api/definitions/photo")
def teach_photo() -> Response:
    """Host: a ``teach`` event sent with the card's photo (multipart: ``event``, ``based_on``,
    and ``photo``, a file, or ``camera=1``: what the table's camera sees): the card nearest the
    photo's centre is taught to the card camera, its picture journaled with the event. A file
    that is no image, or a photo with no card, is refused (422), no camera frame too (409), and
    nothing is taught; ``alike`` names taught cards the camera may not tell from it."""
    require_host()
    request.max_content_length = PHOTO_LIMIT
    event, based_on = _form_event()
    ctx = current()
    photo = request.files.get("photo")
    if photo is not None:
        picture = ctx.box.card_picture(photo.read(), photo.filename or "photo", event["id"])
    elif request.form.get("camera") == "1":
        picture = ctx.box.take_card_picture(event["id"])
        if picture is None:
            raise ApiError(409, "dice.no_camera")
    else:
        raise ApiError(400, "request.missing_field", field="photo")
    if "problem" in picture:
        problem = picture["problem"]
        raise ApiError(422, "teach.photo_refused",
                       detail=problem.get(request_lang(), problem["en"]))
    try:
        step = ctx.session.submit(event, source="web", based_on=based_on,
                                  taught=[taught_picture(event["id"], picture["jpeg"])])
    except RuleError as error:
        raise ApiError.from_rule(error) from None
    sync_pictures(ctx.session)
    return jsonify({**accepted_body([(None, step)]), "alike": picture["alike"]})
