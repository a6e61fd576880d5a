"""Setting up a game: players, weapon types, the battlefield and its artefacts.

Rulebook, «Les Forces en présence (mise en place)», «Le Champ de bataille» and «Les Derniers
Héros». Dealing, the first player and the power tiles are decided at the table and entered here;
the two charger cards of each hero follow as ``charger`` events.
"""

from __future__ import annotations

from typing import Any

from companion.engine import RuleError

from .battlefield import check_new_monster
from .catalog import DATA, merged
from .record import Record, State


def _check(options: dict[str, Any]) -> None:
    heroes = [p["hero"] for p in options["players"]]
    count = len(heroes)
    if len(set(heroes)) != count:
        raise RuleError("setup.heroes_repeated", heroes=heroes)
    weapons = options["weapons"]
    if len(weapons) != count or len(set(weapons)) != count:
        raise RuleError("setup.weapons", weapons=weapons, expected=count)
    for name in ("battlefield", "artefacts"):
        if len(options[name]) != count:
            raise RuleError("setup.one_per_player", field=name, given=len(options[name]),
                            expected=count)
    if len(set(options["artefacts"])) != count:
        raise RuleError("setup.artefacts_repeated", artefacts=options["artefacts"])
    if options["first"] not in heroes:
        raise RuleError("setup.first_not_playing", first=options["first"], playing=heroes)


def initial_state(options: dict[str, Any], rec: Record) -> State:
    """A new game waiting for the charger cards: hands dealt, wheels at 0, monsters revealed."""
    _check(options)
    count = len(options["players"])
    state: State = {
        "game": "last-heroes",
        "status": "playing",
        "reason": None,
        "catalog": merged(options.get("definitions", {})),
        "weapons": list(options["weapons"]),
        "order": [p["hero"] for p in options["players"]],
        "first": options["first"],
        "players": {p["hero"]: {
            "name": p["name"], "hand": DATA["hand"], "charger": {"left": None, "right": None},
            "jokers": 0, "charisma": 0, "loaded": [], "monsters": [], "artefacts": [],
            "powers": [], "pawn": None,
        } for p in options["players"]},
        "columns": [{"monsters": [None, None, None], "artefact": power, "holder": None}
                    for power in options["artefacts"]],
        "piles": {level: n - count for level, n in DATA["monsters_per_level"].items()},
        "permanent": [],
        "refill": [],
        "monsters_seen": [],
        "where": {},
        "discard": [],
        "round": 0,
        "active": None,
        "phase": "charger",
        "turn": None,
    }
    for c, column in enumerate(options["battlefield"]):
        for level, monster in enumerate(column, start=1):
            check_new_monster(state, monster, level)
            state["columns"][c]["monsters"][level - 1] = monster
    rec.say("game.setup", players=count, weapons=state["weapons"], first=options["first"])
    return state
