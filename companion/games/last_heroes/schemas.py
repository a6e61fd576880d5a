"""The fields of every Last Heroes event (documented with examples in docs/events-last-heroes.md).

A charger slot is named ``<hero>.left`` or ``<hero>.right``; a battlefield column is numbered
from 1, a level is 1 to 3.
"""

from __future__ import annotations

from typing import Any

from companion.engine import Field
from companion.engine.events import anything, integer, list_of, mapping, obj, one_of, text

from .catalog import HEROES, KINDS, MAX_JOKERS, POWERS, WEAPON_TYPES, check_owner_definitions

SIDES = ("left", "right")
SLOTS = tuple(f"{hero}.{side}" for hero in HEROES for side in SIDES)

slot = one_of(*SLOTS)
hero = one_of(*HEROES)
player = obj({"name": Field(text), "hero": Field(hero)})
define = Field(mapping(text, anything), required=False)


def column_of_monsters(value: Any, path: str) -> list[str]:
    """One battlefield column at setup: its level-1, level-2 and level-3 monster cards."""
    return list_of(text, 3, 3)(value, path)


def pawn_place(value: Any, path: str) -> list[int] | bool:
    """Where a hero's pawn stands: ``[column, level]``, or ``false`` when it is back in front of
    its hero (``null`` would read as a field left out)."""
    if value is False:
        return False
    return list_of(integer(1, 5), 2, 2)(value, path)


note = Field(text, required=False)

# What an ``adjust`` event may correct, by target (the field naming it is the key).
ADJUST_TARGETS = {
    "hero": {
        "hero": Field(hero),
        "jokers": Field(integer(0, MAX_JOKERS), required=False),
        "charisma": Field(integer(-99, 99), required=False),
        "loaded": Field(list_of(text, 0, 20), required=False),
        "pawn": Field(pawn_place, required=False),
        "note": note,
    },
    "slot": {"slot": Field(slot), "ammo": Field(integer(0, 9)), "note": note},
    "column": {"column": Field(integer(1, 5)), "level": Field(integer(1, 3)),
               "monster": Field(text), "define": define, "note": note},
}

EVENTS = {
    "setup": {
        "players": Field(list_of(player, 3, 5)),
        "weapons": Field(list_of(one_of(*WEAPON_TYPES), 3, 5)),
        "first": Field(hero),
        "battlefield": Field(list_of(column_of_monsters, 3, 5)),
        "artefacts": Field(list_of(one_of(*POWERS), 3, 5)),
        "definitions": Field(check_owner_definitions, required=False),
    },
    "charger": {"hero": Field(hero), "card": Field(text), "define": define},
    "play": {"card": Field(text), "as": Field(one_of("ammo", "weapon")),
             "slot": Field(one_of(*SIDES), required=False),
             "ammo": Field(list_of(slot, 0, 10), required=False),
             "jokers": Field(integer(0, 3), required=False), "define": define},
    "kill": {"monster": Field(text), "weapons": Field(list_of(text, 1, 4)), "define": define},
    "swap": {"card": Field(text), "slot": Field(slot), "define": define},
    "power": {"power": Field(one_of(*POWERS)), "card": Field(text, required=False),
              "discard": Field(text, required=False),
              "slot": Field(one_of(*SIDES), required=False)},
    "end_turn": {},
    "reveal": {"card": Field(text), "column": Field(integer(1, 5), required=False),
               "level": Field(integer(1, 3), required=False), "define": define},
    "adjust": {name: Field(spec.check, required=False)
               for schema in ADJUST_TARGETS.values() for name, spec in schema.items()},
    "teach": {"kind": Field(one_of(*KINDS)), "id": Field(text),
              "definition": Field(mapping(text, anything))},
}
