"""The fields of every Runemasters event (docs/events-runemasters.md has an example of each)."""

from __future__ import annotations

from companion.engine import Field
from companion.engine.events import anything, boolean, integer, list_of, mapping, obj, one_of, text

from .catalog import (
    DATA,
    DIFFICULTIES,
    GUARDIANS,
    KINDS,
    PATHS,
    check_owner_definitions,
    path_colour,
    rune,
    weak_point_rune,
)

die = integer(0, 4)
space = integer(1, 5)
seat = obj({"guardian": Field(one_of(*GUARDIANS)), "path": Field(path_colour),
            "player": Field(text, required=False)})
space_name = one_of(*(f"{p}.{k}" for p in PATHS for k in range(1, DATA["spaces"] + 1)))
note = Field(text, required=False)

# What an ``adjust`` event may correct, by target (the field naming it is the key).
ADJUST_TARGETS = {
    "guardian": {
        "guardian": Field(one_of(*GUARDIANS)),
        "life": Field(integer(0, DATA["guardian"]["life"]), required=False),
        "mana": Field(integer(0, DATA["guardian"]["mana"]), required=False),
        "ultimate": Field(integer(0, DATA["guardian"]["ultimate_charged"]), required=False),
        "path": Field(path_colour, required=False),
        "shield": Field(boolean, required=False),
        "poison": Field(boolean, required=False),
        "note": note,
    },
    "temple": {"temple": Field(integer(0, max(DATA["temple_life"].values()))), "note": note},
    "space": {
        "space": Field(space_name),
        "card": Field(text, required=False),
        "wounds": Field(list_of(integer(0, 5), 0, 6), required=False),
        "to": Field(space_name, required=False),
        "remove": Field(boolean, required=False),
        "note": note,
    },
}

EVENTS = {
    "setup": {
        "guardians": Field(list_of(seat, 2, 4)),
        "difficulty": Field(one_of(*DIFFICULTIES)),
        "elder": Field(one_of(*GUARDIANS), required=False),
        "definitions": Field(check_owner_definitions, required=False),
    },
    "card": {"id": Field(text), "define": Field(mapping(text, anything), required=False)},
    "angel": {"guardian": Field(one_of(*GUARDIANS))},
    "dice": {"faces": Field(list_of(rune, 1, 5))},
    "hit": {"die": Field(die), "space": Field(space, required=False),
            "as_life": Field(boolean, required=False)},
    "move": {"to": Field(path_colour), "die": Field(die, required=False)},
    "block": {"dice": Field(list_of(die, 2, 2))},
    "charge": {"dice": Field(list_of(die, 1, 5))},
    "reroll": {"dice": Field(list_of(die, 1, 5))},
    "release": {"as_life": Field(boolean, required=False)},
    "mark": {"die": Field(die), "target": Field(one_of(*GUARDIANS), required=False),
             "rune": Field(weak_point_rune, required=False),
             "from": Field(path_colour, required=False), "space": Field(space, required=False),
             "to": Field(path_colour, required=False), "as_life": Field(boolean, required=False)},
    "ultimate": {"target": Field(one_of(*GUARDIANS), required=False),
                 "to": Field(path_colour, required=False),
                 "runes": Field(mapping(text, weak_point_rune), required=False),
                 "as_life": Field(boolean, required=False)},
    "end_turn": {},
    "adjust": {name: Field(spec.check, required=False)
               for schema in ADJUST_TARGETS.values() for name, spec in schema.items()},
    "teach": {"kind": Field(one_of(*KINDS)), "id": Field(text),
              "definition": Field(mapping(text, anything))},
}
