"""Setting up a game (rulebook, «Installation»): the Titan card and its 7 Action cards, heroes with
3 hearts and 5 dice on level 0, 3 or 5, the Tactic pile, 12 Citizens, 6 Cannons, health on Start."""

from __future__ import annotations

from typing import Any

from companion.engine import RuleError

from .board import Out, State
from .catalog import DATA, merged


def _check(options: dict[str, Any], catalog: dict[str, Any]) -> None:
    titan = options["titan"]["card"]
    if titan not in catalog["titan"]:
        raise RuleError("setup.unknown_titan", titan=titan, known=sorted(catalog["titan"]))
    heroes = [h["hero"] for h in options["heroes"]]
    for hero in heroes:
        if hero not in catalog["hero"]:
            raise RuleError("setup.unknown_hero", hero=hero, known=sorted(catalog["hero"]))
    colours = [h["colour"] for h in options["heroes"] if "colour" in h]
    if len(set(heroes)) != len(heroes) or len(set(colours)) != len(colours):
        raise RuleError("setup.heroes_repeated", heroes=heroes, colours=colours)
    tactics = options.get("tactics", [])
    for card in tactics:
        if card not in catalog["tactic"]:
            raise RuleError("setup.unknown_tactic", card=card, known=sorted(catalog["tactic"]))
    if len(set(tactics)) != len(tactics):
        raise RuleError("setup.tactics_repeated", tactics=tactics)


def initial_state(options: dict[str, Any], out: Out) -> State:
    """The state of a new game, at step 1 of the first round."""
    catalog = merged(options.get("definitions", {}))
    _check(options, catalog)
    titan = options["titan"]
    given = list(options.get("tactics", []))
    free_colours = [c for c in DATA["colours"]
                    if c not in {h.get("colour") for h in options["heroes"]}]
    heroes = {}
    for player in options["heroes"]:
        colour = player.get("colour") or free_colours.pop(0)
        heroes[player["hero"]] = {
            "name": catalog["hero"][player["hero"]]["name"], "player": player["name"],
            "colour": colour, "hearts": DATA["hearts"], "level": player["level"],
            "held": [], "rolled": False, "returned": 0, "lost": 0,
        }
    state: State = {
        "game": "aot-last-stand",
        "status": "playing", "reason": None, "winner": None,
        "catalog": catalog,
        "track": {k: catalog["track"]["health"][k] for k in ("length", "weak", "kill")},
        "round": 1, "step": 1,
        "health": 0, "devoured": 0, "cannons": DATA["cannons"], "cannon_used": 0,
        "titan": {"player": titan["name"], "card": titan["card"],
                  "hand": list(catalog["titan"][titan["card"]]["actions"]),
                  "set_aside": [], "removed": [], "pool": [], "spent": [], "blind": False},
        "play": [],
        "heroes": heroes,
        "tactics": {"pile": given + [None] * (len(catalog["tactic"]) - len(given)),
                    "unknown": sorted(set(catalog["tactic"]) - set(given)),
                    "used": [], "met": []},
        "gift": False,
        "queue": [],
    }
    out.say("game.setup", titan=titan["card"], heroes=list(heroes), length=state["track"]
            ["length"])
    return state
