"""The game's data: the rulebook's numbers, the package catalog, and the owner's definitions.

Titan abilities and Action cards are written in a small effect vocabulary (docs/cards.md, Attack
on Titan), one op per keyword of the rulebook's "Capacités du Titan" plus the attack of "Attaquer
les Héros". What the package does not know (most cards, the health track) is completed by the
owner; until then the companion asks the table.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from companion.engine import Field, RuleError
from companion.engine.catalog import Catalog, vocabulary
from companion.engine.events import boolean, integer, list_of, mapping, obj, one_of, text

DATA = json.loads((Path(__file__).parent / "catalog.json").read_text(encoding="utf-8"))
KINDS = ("titan", "ability", "action", "tactic", "hero", "track")
FACES: tuple[str, ...] = tuple(DATA["faces"])
SYMBOLS = tuple(f for f in FACES if f != "titan")
LEVELS = tuple(range(9))

face = one_of(*FACES)
symbol = one_of(*SYMBOLS)
level = one_of(*LEVELS)
amount = integer(1, 12)

OPS: dict[str, dict[str, Field]] = {
    "heal": {"amount": Field(amount)},
    "devour": {"amount": Field(amount)},
    "destroy": {"amount": Field(amount)},
    "strike": {},
    "crush": {},
    "obstruct": {},
    "sudden_change": {},
    "frenzy": {},
    "attack": {"levels": Field(list_of(level, 1, 9)), "hearts": Field(integer(1, 3))},
}


check_effect = vocabulary(OPS)
effects = list_of(check_effect)


def effects_or_nothing(value: Any, path: str) -> list[dict[str, Any]]:
    """What a printed ability or Action card does, in the vocabulary; no effect at all says it
    does nothing at this table (the companion stops asking about it)."""
    return effects(value, path)


effects_or_nothing.either = {  # type: ignore[attr-defined]
    "effects": effects, "nothing": list_of(check_effect, 0, 0)}
"""The shapes the teaching forms offer (web/definitions.py): effects, or "does nothing here"."""


def texts(value: Any, path: str) -> dict[str, str] | str:
    """A printed text or name, either one string or one per language."""
    return text(value, path) if isinstance(value, str) else mapping(text, text)(value, path)


COUNTER = {"type": Field(one_of("collective", "dodge", "symbols", "none")),
           "dodge": Field(integer(1, 5), required=False),
           "symbols": Field(mapping(symbol, integer(1, 12)), required=False)}
CONDITION = {"level": Field(level, required=False), "symbol": Field(symbol),
             "count": Field(integer(1, 6))}

_optional = {"text": Field(texts, required=False), "_about": Field(text, required=False)}
SCHEMAS: dict[str, dict[str, Field]] = {
    "titan": {"name": Field(texts), "actions": Field(list_of(text, 7, 7)), **_optional},
    "ability": {"cost": Field(integer(1, 15)),
                "effects": Field(effects_or_nothing, required=False),
                **_optional},
    "action": {"name": Field(texts), "titan": Field(text, required=False),
               "effects": Field(effects_or_nothing, required=False),
               "counter": Field(obj(COUNTER), required=False), **_optional},
    "tactic": {"name": Field(texts),
               "effect": Field(one_of("blind", "mutilate", "fall", "heal_hero", "rescue",
                                      "victory"), required=False),
               "conditions": Field(list_of(obj(CONDITION), 3, 3), required=False), **_optional},
    "hero": {"name": Field(text),
             "power": Field(one_of("give", "wild", "swap", "double", "keep_titan", "search",
                                   "cannon_anywhere"), required=False),
             "symbols": Field(list_of(face, 1, 2), required=False), **_optional},
    "track": {"length": Field(integer(3, 40)), "weak": Field(integer(1, 40)),
              "kill": Field(integer(1, 40)), "assumed": Field(boolean, required=False),
              **_optional},
}


def _refine(kind: str, item: str, clean: dict[str, Any]) -> None:
    """A track must have its zones in order inside its length; one taught whole (length and
    both zones) is the owner's, no longer the package's assumption."""
    if kind == "track":
        if item not in DATA["track"]:
            raise RuleError("definition.unknown_track", id=item, known=sorted(DATA["track"]))
        track = {**DATA["track"][item], **clean}
        if not 0 < track["weak"] < track["kill"] <= track["length"]:
            raise RuleError("definition.track_order", weak=track["weak"], kill=track["kill"],
                            length=track["length"])
        if all(k in clean for k in ("length", "weak", "kill")):
            clean.setdefault("assumed", False)


CATALOG = Catalog({kind: DATA[kind] for kind in KINDS}, SCHEMAS, _refine)
check_definition = CATALOG.check
merged = CATALOG.merged
check_owner_definitions = CATALOG.check_owner
