"""The game's data: the rulebook's numbers, the known cards, and the owner's definitions.

Weapon ammo and monster impacts and points are printed on the cards but not public. Every field
of a definition is optional: the engine asks for a missing value (refusal ``card.incomplete``)
only when a rule needs it, and the owner completes it once, with a ``define`` field on the event
that reveals the card or with a ``teach`` event (docs/cards-last-heroes.md).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from companion.engine import Field
from companion.engine.catalog import Catalog
from companion.engine.events import integer, list_of, mapping, one_of, text

DATA = json.loads((Path(__file__).parent / "catalog.json").read_text(encoding="utf-8"))
KINDS = ("weapon", "monster")
HEROES: tuple[str, ...] = tuple(DATA["heroes"])
WEAPON_TYPES: tuple[str, ...] = tuple(DATA["weapon_types"])
POWERS: tuple[str, ...] = tuple(DATA["powers"])
MAX_JOKERS: int = DATA["max_jokers"]


def texts(value: Any, path: str) -> dict[str, str] | str:
    """A printed name, either one string or one per language."""
    return text(value, path) if isinstance(value, str) else mapping(text, text)(value, path)


_impacts = list_of(integer(1, 3), 0, 4)


def impacts(value: Any, path: str) -> list[int]:
    """A monster's impacts in one zone, light or dark: their forces (1 HIT!, 2 BAM!, 3 POW!),
    or none (a level-1 monster prints no dark impact)."""
    return _impacts(value, path)


impacts.either = {  # type: ignore[attr-defined]
    "impacts": list_of(integer(1, 3), 1, 4), "nothing": list_of(integer(1, 3), 0, 0)}
"""The shapes the teach form offers (web/definitions.py): the impacts as printed, or none."""
_common = {"name": Field(texts, required=False), "_about": Field(text, required=False)}
SCHEMAS: dict[str, dict[str, Field]] = {
    "weapon": {
        "type": Field(one_of(*WEAPON_TYPES), required=False),
        "impact": Field(integer(1, 3), required=False),
        "cost": Field(integer(0, 9), required=False),
        "ammo": Field(integer(0, 9), required=False),
        **_common,
    },
    "monster": {
        "level": Field(integer(1, 3), required=False),
        "light": Field(impacts, required=False),
        "dark": Field(impacts, required=False),
        "points": Field(integer(0, 30), required=False),
        **_common,
    },
}


def packaged_weapons() -> dict[str, dict[str, Any]]:
    """The 12 cards of each weapon type, ``<type>-1`` to ``<type>-12``.

    Tagging convention (docs/cards-last-heroes.md): within a type, the HIT! cards are numbered
    first, then the BAM! cards, then the POW! cards (5, 4 and 3 of them, rulebook «Pour chaque
    type d'Arme, il y a : 5 cartes avec un Impact de Force 1, 4 [...] Force 2, 3 [...] Force 3»).
    """
    forces = [int(force) for force, count in DATA["cards_per_type"].items() for _ in range(count)]
    return {f"{kind}-{n}": {"type": kind, "impact": force, "cost": None, "ammo": None}
            for kind in WEAPON_TYPES for n, force in enumerate(forces, start=1)}


PACKAGED = {"weapon": packaged_weapons(), "monster": DATA["monster"]}


CATALOG = Catalog(PACKAGED, SCHEMAS)
check_definition = CATALOG.check
merged = CATALOG.merged
check_owner_definitions = CATALOG.check_owner
