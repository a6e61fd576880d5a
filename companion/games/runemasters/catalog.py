"""Runemasters' data: the rulebook's numbers, the package's monster cards, the owner's additions.

The weak-point runes and rewards printed on the monster cards are not public. A card the package
knows only by type and colour is still put in play; before a guardian can wound it, the owner
teaches what is printed on it (the ``card`` event's ``define`` or a ``teach`` event), once for
every later game (docs/cards-runemasters.md).
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from companion.engine import Field, RuleError
from companion.engine.catalog import Catalog
from companion.engine.events import boolean, integer, list_of, obj, one_of, text

DATA: dict[str, Any] = json.loads(
    (Path(__file__).parent / "catalog.json").read_text(encoding="utf-8"))
RUNES: tuple[str, ...] = tuple(DATA["runes"])
WEAK_POINT_RUNES: tuple[str, ...] = tuple(DATA["weak_point_runes"])
PATHS: tuple[str, ...] = tuple(DATA["paths"])
TYPES: tuple[str, ...] = tuple(DATA["types"])
GUARDIANS: tuple[str, ...] = tuple(DATA["guardians"])
EVENT_CARDS: tuple[str, ...] = tuple(DATA["events"])
DIFFICULTIES: tuple[str, ...] = tuple(DATA["difficulty"])
KINDS = ("monster",)
DAWN = "dawn"

rune = one_of(*RUNES)
weak_point_rune = one_of(*WEAK_POINT_RUNES)
path_colour = one_of(*PATHS)

MONSTER_SCHEMA: dict[str, Field] = {
    "name": Field(text, required=False),
    "type": Field(one_of(*TYPES)),
    "colour": Field(path_colour),
    "weak_points": Field(list_of(weak_point_rune, 1, 6), required=False),
    "rewards": Field(obj({"mana": Field(integer(0, 4), required=False),
                          "life": Field(integer(0, 4), required=False)}), required=False),
    "two_player": Field(boolean, required=False),
    "_about": Field(text, required=False),
}


def _refine(kind: str, item: str, clean: dict[str, Any]) -> None:
    """Dawn is not a monster the owner defines; a Dragon has three weak points ("vous devez lui
    infliger seul 3 blessures dans le même tour")."""
    if item == DAWN:
        raise RuleError("definition.reserved", id=item)
    card_type = clean.get("type") or DATA[kind].get(item, {}).get("type")
    count = DATA["types"]["dragon"]["weak_points"]
    if card_type == "dragon" and "weak_points" in clean and len(clean["weak_points"]) != count:
        raise RuleError("definition.dragon_weak_points", id=item, count=count,
                        got=clean["weak_points"])


CATALOG = Catalog({kind: DATA[kind] for kind in KINDS}, {"monster": MONSTER_SCHEMA}, _refine)
check_definition = CATALOG.check
merged = CATALOG.merged
check_owner_definitions = CATALOG.check_owner


def missing(card: Mapping[str, Any]) -> list[str]:
    """What must still be taught before a card can be wounded and killed."""
    return [name for name in ("weak_points", "rewards") if card.get(name) is None]


def card_name(card_id: str, card: Mapping[str, Any], lang: str) -> str:
    """A card's display name: its own, else its type and colour ("Troll vert", "green Troll")."""
    if card.get("name"):
        return card["name"]
    if card_id == DAWN:
        return {"fr": "Aube", "en": "Dawn", "es": "Alba"}[lang]
    spec = DATA["types"][card["type"]]
    kind = spec["name"][lang]
    if lang in DATA["colour_names"]:  # the colour after the noun, agreeing with it
        masculine, feminine = DATA["colour_names"][lang][card["colour"]]
        return f"{kind} {feminine if spec.get('feminine') else masculine}"
    return f"{card['colour'].capitalize()} {kind}"
