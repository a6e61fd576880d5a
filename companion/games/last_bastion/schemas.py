"""The fields of every Last Bastion event (documented with examples in docs/events.md)."""

from __future__ import annotations

from typing import Any

from companion.engine import Field
from companion.engine.events import anything, boolean, integer, list_of, mapping, obj, one_of, text

from .catalog import COLOURS, KINDS, check_owner_definitions, effects, slot_name
from .geometry import SIDES

MODES = ("novice", "normal", "difficult", "heroic")
BOARD_COLOURS = ("red", "green", "blue", "yellow")


def position(value: Any, path: str) -> list[int]:
    """A tile position ``[row, col]``, each 0..2."""
    return list_of(integer(0, 2), 2, 2)(value, path)


side = one_of(*SIDES)
slot = slot_name
player = obj({"name": Field(text), "hero": Field(text), "side": Field(side)})

EVENTS = {
    "setup": {
        "mode": Field(one_of(*MODES)),
        "boards": Field(mapping(side, one_of(*BOARD_COLOURS))),
        "players": Field(list_of(player, 1, 4)),
        "tiles": Field(list_of(list_of(text, 3, 3), 3, 3)),
        "first": Field(side),
        "reserve": Field(obj({
            "life": Field(integer(0, 99), required=False),
            "call_to_arms": Field(integer(0, 99), required=False),
            "equipment": Field(mapping(one_of(*COLOURS), integer(0, 99)), required=False),
            "grip": Field(integer(0, 99), required=False),
        }), required=False),
        "definitions": Field(check_owner_definitions, required=False),
    },
    "card": {"id": Field(text), "slot": Field(slot, required=False),
             "define": Field(mapping(text, anything), required=False)},
    "place": {"slot": Field(slot)},
    "dice": {"faces": Field(list_of(text, 1, 6)), "grey": Field(text, required=False),
             "reroll": Field(boolean, required=False)},
    "move": {"hero": Field(text), "to": Field(position)},
    "activate": {"tile": Field(text), "call_to_arms": Field(boolean, required=False)},
    "fight": {"targets": Field(list_of(slot, 1, 2))},
    "resolve": {"falls": Field(list_of(slot, 0, 2), required=False),
                "spend": Field(mapping(text, mapping(one_of(*COLOURS), integer(0, 12))),
                               required=False),
                "gains": Field(list_of(one_of(*COLOURS), 0, 2), required=False)},
    "assign": {"hero": Field(text)},
    "answer": {"choice": Field(anything, required=False),
               "effects": Field(effects, required=False)},
    "power": {"hero": Field(text), "slot": Field(slot, required=False),
              "tile": Field(position, required=False), "target": Field(text, required=False)},
    "end_turn": {},
    "adjust": {
        "hero": Field(text, required=False),
        "life": Field(integer(0, 99), required=False),
        "call_to_arms": Field(integer(0, 99), required=False),
        "equipment": Field(mapping(one_of(*COLOURS), integer(0, 99)), required=False),
        "state": Field(one_of("healthy", "wounded", "knocked_out", "dead"), required=False),
        "to": Field(position, required=False),
        "tile": Field(position, required=False),
        "grip": Field(boolean, required=False),
        "slot": Field(slot, required=False),
        "card": Field(text, required=False),
        "remove": Field(boolean, required=False),
        "modifier": Field(integer(-9, 9), required=False),
        "note": Field(text, required=False),
    },
    "teach": {"kind": Field(one_of(*KINDS)), "id": Field(text),
              "definition": Field(mapping(text, anything))},
}
