"""The fields of every event of The Last Stand (documented with examples in
docs/events.md, Attack on Titan)."""

from __future__ import annotations

from companion.engine import Field
from companion.engine.events import anything, boolean, integer, list_of, mapping, obj, one_of, text

from .catalog import DATA, KINDS, check_owner_definitions, effects, face, level, symbol

needs = mapping(symbol, integer(1, 12))
pay = mapping(text, needs)
rolled = list_of(face, 1, 5)
definition = mapping(text, anything)

EVENTS = {
    "setup": {
        "titan": Field(obj({"name": Field(text), "card": Field(text)})),
        "heroes": Field(list_of(obj({
            "name": Field(text), "hero": Field(text),
            "level": Field(one_of(*DATA["levels"]["start"])),
            "colour": Field(one_of(*DATA["colours"]), required=False),
        }), 2, 4)),  # «JOUEURS : 2 à 5»: with two, the other «joue les rôles de plusieurs Héros»
        "tactics": Field(list_of(text, 1, 7), required=False),
        "definitions": Field(check_owner_definitions, required=False),
    },
    "commit": {"up": Field(text), "down": Field(text)},
    "roll": {"hero": Field(text), "faces": Field(rolled),
             "reroll": Field(rolled, required=False)},
    "give": {"gifts": Field(mapping(text, face))},
    "next": {},
    "ability": {"n": Field(integer(1, 3)), "define": Field(definition, required=False)},
    "reroll": {"hero": Field(text), "faces": Field(rolled)},
    "resolve": {"pay": Field(pay, required=False), "cancelled": Field(boolean, required=False),
                "define": Field(definition, required=False)},
    "choose": {"hero": Field(text, required=False), "card": Field(text, required=False),
               "face": Field(face, required=False), "replace": Field(text, required=False)},
    "answer": {"effects": Field(effects, required=False)},
    "move": {"hero": Field(text), "to": Field(level)},
    "melee": {"hero": Field(text), "count": Field(integer(1, 20))},
    "cannon": {"hero": Field(text), "count": Field(integer(1, 12))},
    "cycle": {"pay": Field(mapping(text, integer(1, 12)))},
    "search": {"hero": Field(text), "card": Field(text)},
    "provide": {"condition": Field(integer(1, 3)), "pay": Field(pay)},
    "activate": {"pay": Field(pay, required=False)},
    "top": {"card": Field(text)},
    "adjust": {
        "hero": Field(text, required=False),
        "hearts": Field(integer(0, 3), required=False),
        "level": Field(level, required=False),
        "health": Field(integer(0, 40), required=False),
        "devoured": Field(integer(0, DATA["citizens"]), required=False),
        "cannons": Field(integer(0, DATA["cannons"]), required=False),
        "dice": Field(list_of(face, 0, DATA["dice_per_hero"] + 1), required=False),  # + a gift
        "hand": Field(list_of(text, 0, 7), required=False),
        "set_aside": Field(list_of(text, 0, 7), required=False),
        "pile": Field(list_of(text, 1, 7), required=False),
        "top": Field(text, required=False),
        "step": Field(integer(1, 6), required=False),
        "note": Field(text, required=False),
    },
    "teach": {"kind": Field(one_of(*KINDS)), "id": Field(text), "definition": Field(definition)},
}
