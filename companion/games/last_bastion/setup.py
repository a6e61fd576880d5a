"""Setting up a game: the deck from the table, the heroes, the tiles and the reserve.

Rulebook, "Mise en place", "Parties à moins de 4 joueurs" and "Modes de difficulté".
"""

from __future__ import annotations

from typing import Any

from companion.engine import RuleError

from .catalog import COLOURS, DATA, merged
from .geometry import CENTRE, SIDES, opposite
from .tokens import Out, State, gain


def deck_layout(mode: str, players: int) -> dict[str, Any]:
    """Size of the deck and the draw positions of its Warlords.

    From the top: the remaining monsters, then a Warlord and 8 monsters, as many times as the
    mode has Warlords (38/42/46/50 monsters for 1-4 players, 4 fewer in Novice).
    """
    monsters = DATA["monsters_by_players"][str(players)]
    if mode == "novice":
        monsters -= DATA["novice_removed"]
    warlords = DATA["warlords_by_mode"][mode]
    under = DATA["monsters_under_each_warlord"]
    top = monsters - warlords * under
    positions = [top + i * (under + 1) for i in range(warlords)]
    return {"size": monsters + warlords, "monsters": monsters, "warlords": positions,
            "drawn": 0, "warlords_defeated": 0, "seen": []}


def _check(options: dict[str, Any], catalog: dict[str, Any]) -> None:
    boards = options["boards"]
    if sorted(boards) != sorted(SIDES) or len(set(boards.values())) != 4:
        raise RuleError("setup.boards", expected="one board of each colour on N, E, S and W")
    layout = [tile for row in options["tiles"] for tile in row]
    for tile in layout:
        if tile not in catalog["tile"]:
            raise RuleError("setup.unknown_tile", tile=tile, known=sorted(catalog["tile"]))
    if len(set(layout)) != 9:
        raise RuleError("setup.tiles_repeated", tiles=layout)
    players = options["players"]
    sides = [p["side"] for p in players]
    heroes = [p["hero"] for p in players]
    for hero in heroes:
        if hero not in catalog["hero"]:
            raise RuleError("setup.unknown_hero", hero=hero, known=sorted(catalog["hero"]))
    if len(set(sides)) != len(sides) or len(set(heroes)) != len(heroes):
        raise RuleError("setup.players_repeated", sides=sides, heroes=heroes)
    if len(players) == 2 and opposite(sides[0]) != sides[1]:
        raise RuleError("setup.two_players_face", sides=sides)
    if options["first"] not in sides:
        raise RuleError("setup.first_not_seated", first=options["first"], seated=sides)


def initial_state(options: dict[str, Any], out: Out) -> State:
    """The state of a new game, heroes on the central tile with their starting tokens."""
    catalog = merged(options.get("definitions", {}))
    _check(options, catalog)
    reserve_conf = {**DATA["reserve"], **options.get("reserve", {})}
    reserve = {
        "life": reserve_conf["life"],
        "call_to_arms": reserve_conf["call_to_arms"],
        "equipment": {c: reserve_conf["equipment"].get(c, 0) for c in COLOURS},
        "grip": reserve_conf["grip"],
        "standard_tokens": DATA["reserve"]["standard_tokens"],
        "items": [],
    }
    tiles = [[{"id": tid, "grip": False,
               "items": [f] if (f := catalog["tile"][tid].get("figure")) else []}
              for tid in row] for row in options["tiles"]]
    state: State = {
        "game": "last-bastion",
        "mode": options["mode"],
        "status": "playing",
        "reason": None,
        "catalog": catalog,
        "boards": dict(options["boards"]),
        "slots": {colour: [None, None, None] for colour in options["boards"].values()},
        "tiles": tiles,
        "heroes": {},
        "reserve": reserve,
        "deck": deck_layout(options["mode"], len(options["players"])),
        "discard": [],
        "turn": {"number": 0, "side": options["first"], "phase": "horde"},
        "queue": [],
        "combat": None,
    }
    for player in options["players"]:
        hero_id = player["hero"]
        state["heroes"][hero_id] = {
            "name": catalog["hero"][hero_id]["name"], "player": player["name"],
            "side": player["side"], "colour": options["boards"][player["side"]],
            "power": catalog["hero"][hero_id].get("power"),
            "life": 0, "call_to_arms": 0, "equipment": {c: 0 for c in COLOURS},
            "tile": list(CENTRE), "state": "healthy", "grip": False,
        }
        start = DATA["start"]
        quiet = Out()
        gain(state, hero_id, "life", quiet, amount=start["life"])
        gain(state, hero_id, "call_to_arms", quiet, amount=start["call_to_arms"])
        gain(state, hero_id, "equipment", quiet, state["heroes"][hero_id]["colour"],
             start["own_equipment"])
        if options["mode"] == "novice":
            gain(state, hero_id, "equipment", quiet, "black", start["novice_black_equipment"])
    out.say("game.setup", mode=options["mode"], players=len(options["players"]),
            cards=state["deck"]["size"], warlords=len(state["deck"]["warlords"]))
    return state
