"""Last Bastion: the dashboard's picture of the table and the score sheet."""

from __future__ import annotations

import copy
from typing import Any

from . import combat
from .catalog import DATA, timing_of
from .flow import active_hero, card_def, is_neutral, round_number
from .prompts import expects, prompts
from .tokens import State, gripped_tiles, has_power, hero_able


def view(state: State) -> dict[str, Any]:
    """The dashboard's picture of the table."""
    deck = state["deck"]
    remaining = deck["size"] - deck["drawn"]
    upcoming = [p for p in deck["warlords"] if p >= deck["drawn"]]
    boards = {colour: [None if e is None else {
        "slot": f"{colour}.{k}", "id": e["card"], "name": card_def(state, e["card"])["name"],
        "colour": card_def(state, e["card"])["colour"],
        "type": card_def(state, e["card"])["type"],
        "resistance": combat.resistance(state, f"{colour}.{k}"),
        "printed_resistance": card_def(state, e["card"])["resistance"],
        "items": list(e["items"]),
        "permanent": timing_of(card_def(state, e["card"]), "permanent"),
    } for k, e in enumerate(slots)] for colour, slots in state["slots"].items()}
    heroes = {h: {key: copy.deepcopy(hero[key]) for key in (
        "name", "player", "side", "colour", "life", "call_to_arms", "equipment", "tile",
        "state", "grip")} for h, hero in state["heroes"].items()}
    for hero_id, hero in heroes.items():
        hero["power"] = has_power(state["heroes"][hero_id])
    turn = state["turn"]
    return {
        "game": "last-bastion",
        "mode": state["mode"],
        "status": state["status"],
        "reason": state["reason"],
        "score": (sheet := score_sheet(state))["total"],
        "score_sheet": sheet,
        "turn": turn["number"],
        "round": round_number(state),
        "active": turn["side"],
        "active_hero": active_hero(state),
        "neutral": is_neutral(state, turn["side"]),
        "phase": turn["phase"],
        "expects": expects(state).to_json(),
        "deck": {"remaining": remaining, "size": deck["size"],
                 "warlords_remaining": len(deck["warlords"]) - deck["warlords_defeated"],
                 "warlords_in_deck": len(upcoming),
                 "next_warlord_in": upcoming[0] - deck["drawn"] + 1 if upcoming else None,
                 "seen": list(deck["seen"])},
        "sides": dict(state["boards"]),
        "boards": boards,
        "tiles": [[{"id": t["id"], "grip": t["grip"], "items": list(t["items"])} for t in row]
                  for row in state["tiles"]],
        "heroes": heroes,
        "reserve": copy.deepcopy(state["reserve"]),
        "discard": list(state["discard"]),
        "combat": copy.deepcopy(state["combat"]),
        "allowed": allowed(state),
        "prompts": prompts(state),
        "players": [{"name": h["player"], "hero": hid, "side": h["side"]}
                    for hid, h in state["heroes"].items()],
    }


def allowed(state: State) -> dict[str, Any]:
    """What the rules still let the table do this turn, so that a page offers only that: a
    reroll (Feng Li, once in her Hero phase, with her power) and who may move (the active hero
    once; any hero in play with Elmer's extra move)."""
    hero_id = active_hero(state)
    hero = state["heroes"].get(hero_id) if hero_id else None
    turn = state["turn"]
    if hero is None or turn["phase"] != "hero" or not hero_able(hero):
        return {"reroll": False, "movers": []}
    movers = [] if turn["moved"] else [hero_id]
    if hero["power"] == "extra_move" and has_power(hero) and not turn["extra_move"]:
        movers += [h for h, other in state["heroes"].items()
                   if h not in movers and hero_able(other)]
    return {"reroll": hero["power"] == "reroll" and has_power(hero) and not turn["rerolled"],
            "movers": movers}


def score_sheet(state: State) -> dict[str, int]:
    """The score sheet, line by line: win points by mode, +1 per Life, +2 per Call to Arms,
    -3 per dead hero, -4 per gripped tile (rulebook, "Score"), and the total."""
    heroes = state["heroes"].values()
    sheet = {
        "victory": DATA["win_points_by_mode"][state["mode"]] if state["status"] == "won" else 0,
        "life": sum(h["life"] for h in heroes),
        "call_to_arms": 2 * sum(h["call_to_arms"] for h in heroes),
        "dead": -3 * sum(h["state"] == "dead" for h in heroes),
        "grip": -4 * gripped_tiles(state),
    }
    sheet["total"] = sum(sheet.values())
    return sheet


CARD_FIELDS = ("name", "type", "colour", "resistance", "complete")


def pickers(definitions: dict[str, Any], seen: list[str]) -> dict[str, Any]:
    """The host page's pickers: cards (colour and resistance shown, those seen this game
    marked), heroes and tiles."""
    return {
        "cards": {cid: {k: c.get(k) for k in CARD_FIELDS}
                  for cid, c in definitions["card"].items()},
        "seen": seen,
        "heroes": {hid: h.get("name", hid) for hid, h in definitions["hero"].items()},
        "tiles": {tid: t.get("name", tid) for tid, t in definitions["tile"].items()}}
