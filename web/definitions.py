"""What the owner may teach, per game: ``GET /api/definitions?game=ID`` describes each kind of
definition and its fields, so that the host page draws a "Teach a card" form for every game.

The description is read from the game's own schemas (``companion.engine.catalog.Catalog``): the
engine's checkers keep their bounds and choices in their closures, which are read here, never
evaluated. A checker that cannot be described that way is either declared below (a printed text
that may also be given per language or as effects is taught here as one text) or left out of the
form and listed as ``skipped`` (e.g. Last Bastion's effects, which keep their own editor).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from importlib import import_module
from typing import Any

from flask import Blueprint, Response, jsonify, request

from companion.engine import Game, find_game
from companion.engine.events import Checker, Schema, boolean, text

from .context import current

bp = Blueprint("definitions", __name__)

Description = dict[str, Any]

DECLARED: dict[str, Description] = {"texts": {"type": "text"}, "effects_or_text": {"type": "text"}}
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
    item = describe(vars_["item"])
    if item is None or vars_["high"] is None:
        return None
    return {"type": "list", "item": item, "min": vars_["low"], "max": vars_["high"]}


def _object(vars_: Mapping[str, Any]) -> Description:
    return {"type": "object", **fields(vars_["schema"])}


FACTORIES: dict[str, Callable[[Mapping[str, Any]], Description | None]] = {
    "integer": _number, "one_of": _choice, "list_of": _list, "obj": _object}
"""The engine's checker factories this page knows how to draw, by name."""


def describe(check: Checker) -> Description | None:
    """One checker as a form field (text, number, choice, yes/no, list, object), or None."""
    if check is text:
        return {"type": "text"}
    if check is boolean:
        return {"type": "yes_no"}
    factory = check.__qualname__.removesuffix(".<locals>.check")
    if factory in FACTORIES and check.__module__ == text.__module__:
        return FACTORIES[factory](_closure(check))
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
    catalog = import_module(type(game).__module__.rpartition(".")[0] + ".catalog").CATALOG
    return [{"kind": kind, **fields(schema)} for kind, schema in catalog.schemas.items()]


@bp.get("/api/definitions")
def definitions() -> Response:
    """The kinds and fields ``?game=`` (default: the game on the table) lets the owner teach."""
    session = current().session
    game = find_game(request.args.get("game") or (session.game.id if session.game
                                                   else "last-bastion"))
    return jsonify({"game": game.id, "kinds": kinds(game)})
