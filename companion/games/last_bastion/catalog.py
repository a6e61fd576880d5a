"""The game's data: the rulebook's numbers, the package catalog, and the owner's definitions.

Effects are written in a small vocabulary (see docs/cards.md). A timing (arrival, recurring,
exit, a tile action, a board power, a Corruption face) holds either a list of effects, which the
engine applies, or printed text, which becomes a prompt answered with a state correction.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from companion.engine import Field, RuleError
from companion.engine.catalog import Catalog, vocabulary
from companion.engine.events import boolean, integer, list_of, mapping, one_of, text

DATA = json.loads((Path(__file__).parent / "catalog.json").read_text(encoding="utf-8"))
KINDS = ("card", "tile", "hero", "board", "corruption")
COLOURS: tuple[str, ...] = tuple(DATA["colours"])
COMBAT_FACES: tuple[str, ...] = tuple(DATA["combat_faces"])
TIMINGS = ("arrival", "recurring", "permanent", "exit")

_colour = one_of(*COLOURS)
SLOTS = tuple(f"{board}.{k}" for board in ("red", "green", "blue", "yellow") for k in range(3))
slot_name = one_of(*SLOTS)

OPS: dict[str, dict[str, Field]] = {
    "gain": {"token": Field(one_of("life", "call_to_arms", "equipment")),
             "colour": Field(one_of(*COLOURS, "own"), required=False),
             "amount": Field(integer(1, 12), required=False)},
    "lose": {"token": Field(one_of("life", "call_to_arms", "equipment", "round")),
             "colour": Field(one_of(*COLOURS, "own"), required=False),
             "amount": Field(integer(1, 12), required=False)},
    "grip": {"target": Field(one_of("tile", "hero", "self"))},
    "ungrip": {"target": Field(one_of("tile", "hero", "card"))},
    "draw": {},
    "corruption": {},
    "resistance": {"amount": Field(integer(-9, 9))},
    "remove": {"slot": Field(slot_name)},
}


NEEDS: dict[str, tuple[str, str]] = {"colour": ("token", "equipment")}
"""A field an effect needs when another field has a value: an Equipment token's colour (without
it nobody knows which token moves)."""

_vocabulary = vocabulary(OPS)


def check_effect(value: Any, path: str) -> dict[str, Any]:
    """One effect of the vocabulary, refused (before any rule runs) when it lacks a field its
    other values call for, e.g. ``{"op": "gain", "token": "equipment"}`` without its colour."""
    effect = _vocabulary(value, path)
    for field, (other, wanted) in NEEDS.items():
        if effect.get(other) == wanted and field not in effect:
            raise RuleError("effect.needs", field=f"{path}.{field}", other=other, value=wanted)
    return effect


check_effect.vocabulary = _vocabulary  # type: ignore[attr-defined]
check_effect.needs = NEEDS  # type: ignore[attr-defined]
"""The plain vocabulary and the fields it needs, for forms (web/definitions.py)."""
effects = list_of(check_effect)


def effects_or_text(value: Any, path: str) -> list[dict[str, Any]] | str:
    """A timing: effects the engine applies, or the printed text it prompts with."""
    return text(value, path) if isinstance(value, str) else effects(value, path)


effects_or_text.either = {  # type: ignore[attr-defined]
    "text": text, "effects": effects, "nothing": list_of(check_effect, 0, 0)}
"""The shapes a timing takes, for forms that let the owner choose (web/definitions.py); a list
of no effects says the printed effect does nothing at this table (not asked about again)."""


def texts(value: Any, path: str) -> dict[str, str] | str:
    """Printed text, either one string or one per language."""
    return text(value, path) if isinstance(value, str) else mapping(text, text)(value, path)


_optional = {"text": Field(texts, required=False), "_about": Field(text, required=False)}
SCHEMAS: dict[str, dict[str, Field]] = {
    "card": {
        "name": Field(text),
        "type": Field(one_of("monster", "warlord")),
        "colour": Field(_colour),
        "resistance": Field(integer(0, 20)),
        **{timing: Field(effects_or_text, required=False) for timing in TIMINGS},
        "complete": Field(boolean, required=False),
        **_optional,
    },
    "tile": {
        "name": Field(mapping(text, text)),
        "action": Field(effects_or_text, required=False),
        "figure": Field(one_of("net", "trap", "standard"), required=False),
        "affects_warlords": Field(boolean, required=False),
        **_optional,
    },
    "hero": {"name": Field(texts), "power": Field(text, required=False), **_optional},
    "board": {"full": Field(effects_or_text, required=False), **_optional},
    "corruption": {"effects": Field(effects_or_text, required=False), **_optional},
}


CATALOG = Catalog({kind: DATA[kind] for kind in KINDS}, SCHEMAS)
check_definition = CATALOG.check
merged = CATALOG.merged
check_owner_definitions = CATALOG.check_owner


def timing_of(definition: Mapping[str, Any], timing: str) -> list[dict[str, Any]] | str | None:
    """What a card does at a timing: effects, printed text, or None (nothing or unknown)."""
    value = definition.get(timing)
    if value is None and not definition.get("complete", True):
        return "?"
    return value


def taught(effects: list[dict[str, Any]] | str | None, printed: Any) -> Any:
    """What a board power, Corruption face or tile action does: its taught effects (an empty
    list is taught too: it does nothing at this table), else its printed text to prompt with
    (one per language when the package gives several: each page says its own), else "?" (not
    taught yet: the table is asked)."""
    if effects is not None:
        return effects
    return printed or "?"
