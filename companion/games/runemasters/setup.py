"""Setting up a game: guardians on their paths, the temple, the piles, the Elder.

Rulebook, "Mise en place": 4 Life and 4 Mana per guardian, the Ultimate token on space 1 (2 for
an initiation game), the temple at 6 Life for 2 guardians and 4 for 3-4, the yellow path unused
with 3 guardians, the monster pile (4: 32 - 8; 3: no yellow, 25 - 6; 2: the 16 two-player cards
and 1 Dragon, 17 - 4) with Dawn among the bottom four, the Event pile of five cards by difficulty.
The first three monsters are drawn after the setup event, onto spaces 1, 2 and 3.
"""

from __future__ import annotations

from typing import Any

from companion.engine import RuleError

from .catalog import DATA, PATHS, merged
from .table import Out, State


def _check(options: dict[str, Any]) -> None:
    seats = options["guardians"]
    guardians = [s["guardian"] for s in seats]
    paths = [s["path"] for s in seats]
    if len(set(guardians)) != len(guardians) or len(set(paths)) != len(paths):
        raise RuleError("setup.repeated", guardians=guardians, paths=paths)
    unused = DATA["unused_paths"][str(len(seats))]
    for path in paths:
        if path in unused:
            raise RuleError("setup.path_unused", path=path, count=len(seats))
    if options.get("elder", guardians[0]) not in guardians:
        raise RuleError("setup.elder_not_playing", elder=options["elder"], guardians=guardians)


def initial_state(options: dict[str, Any], out: Out) -> State:
    """The state of a new game, waiting for the first three monster cards."""
    _check(options)
    seats = options["guardians"]
    count = str(len(seats))
    guardians = [s["guardian"] for s in seats]
    elder = options.get("elder", guardians[0])
    start = guardians.index(elder)
    deck = DATA["deck"][count]
    rules = DATA["guardian"]
    track = rules["ultimate_start_initiation" if options["difficulty"] == "initiation"
                  else "ultimate_start"]
    state: State = {
        "game": "runemasters",
        "status": "playing",
        "reason": None,
        "difficulty": options["difficulty"],
        "catalog": merged(options.get("definitions", {})),
        "paths": {p: {"spaces": [None] * DATA["spaces"], "blocked": False}
                  for p in PATHS if p not in DATA["unused_paths"][count]},
        "guardians": {s["guardian"]: {
            "player": s.get("player"), "path": s["path"], "alive": True,
            "life": rules["life"], "mana": rules["mana"],
            "ultimate": {"track": track, "uses": 0},
            "shield": False, "poison": False, "angel": False,
        } for s in seats},
        "order": guardians[start:] + guardians[:start],
        "elder": elder,
        "temple": {"life": DATA["temple_life"][count], "max": DATA["temple_life"][count]},
        "deck": {"monsters": deck["from"] - deck["removed"], "drawn": 0, "seen": [],
                 "discard": []},
        "events": {"quota": dict(DATA["difficulty"][options["difficulty"]]), "revealed": [],
                   "current": None},
        "round": {"number": 0, "index": -1},
        "phase": "setup_monsters",
        "active": None,
        "turn": {"dice": [], "rerolling": [], "free_move": False},
        "petrified": False,
    }
    out.say("game.setup", guardians=guardians, difficulty=options["difficulty"],
            temple=state["temple"]["life"], cards=state["deck"]["monsters"])
    return state
