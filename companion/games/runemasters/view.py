"""What the dashboard shows: paths, guardians, temple, Event, pile, warnings and prompts."""

from __future__ import annotations

import copy
from typing import Any

from companion.engine.catalog import LANGUAGES

from .catalog import DATA, DAWN, card_name, missing
from .flow import dawn_earliest, dice_count, warnings
from .table import State, card, guardian_on, living, paths_in_play, spaces


def monster_view(state: State, space: int, monster: dict[str, Any]) -> dict[str, Any]:
    """One monster on its space: what it is, its weak points and which are wounded."""
    definition = card(state, monster["card"])
    points = definition.get("weak_points")
    return {
        "space": space, "card": monster["card"], "type": definition["type"],
        "colour": definition["colour"],
        "name": {lang: card_name(monster["card"], definition, lang) for lang in LANGUAGES},
        "weak_points": points, "wounds": sorted(monster["wounds"]),
        "open": None if points is None else [r for k, r in enumerate(points)
                                             if k not in monster["wounds"]],
        "rewards": definition.get("rewards"), "missing": missing(definition),
    }


def paths_view(state: State) -> dict[str, Any]:
    """Each path of the table: its guardian, Block marker and five spaces."""
    return {path: {
        "guardian": guardian_on(state, path), "blocked": state["paths"][path]["blocked"],
        "spaces": [None if m is None else monster_view(state, k + 1, m)
                   for k, m in enumerate(spaces(state, path))],
    } for path in paths_in_play(state)}


def guardians_view(state: State) -> dict[str, Any]:
    """Each guardian's Life, Mana, Ultimate track, path, Shield, Poison and Angel."""
    uses = DATA["guardian"]["ultimate_uses"]
    result = {}
    for guardian_id, guardian in state["guardians"].items():
        ultimate = guardian["ultimate"]
        result[guardian_id] = {
            "name": DATA["guardians"][guardian_id]["name"], "player": guardian["player"],
            "path": guardian["path"], "alive": guardian["alive"], "life": guardian["life"],
            "mana": guardian["mana"], "shield": guardian["shield"],
            "poison": guardian["poison"], "angel": guardian["angel"],
            "ultimate": {"track": ultimate["track"], "side": min(ultimate["uses"] + 1, uses),
                         "uses_left": uses - ultimate["uses"],
                         "charged": ultimate["track"] == DATA["guardian"]["ultimate_charged"]
                         and ultimate["uses"] < uses},
        }
    return result


def deck_view(state: State) -> dict[str, Any]:
    """The monster pile: size (Dawn included), what is left, and how many cards must still be
    drawn before Dawn can appear."""
    deck = state["deck"]
    size = deck["monsters"] + 1
    return {"size": size, "drawn": deck["drawn"], "remaining": size - deck["drawn"],
            "before_dawn": max(0, dawn_earliest(state) - deck["drawn"]),
            "dawn": DAWN in deck["seen"], "discard": list(deck["discard"])}


def prompts(state: State) -> list[dict[str, Any]]:
    """Questions for the table: who receives the Guardian Angel, and which monsters in play the
    owner must still teach (their weak points and rewards are printed on the card)."""
    if state["status"] != "playing":
        return []
    found: list[dict[str, Any]] = []
    if state["phase"] == "angel":
        options = living(state)
        found.append({"id": "angel", "key": "prompt.angel", "params": {}, "options": options,
                      "default": options[0], "answer": "angel"})
    for path in paths_in_play(state):
        for monster in spaces(state, path):
            if monster is None:
                continue
            gaps = missing(card(state, monster["card"]))
            if gaps:
                found.append({"id": f"teach:{monster['card']}", "key": "prompt.teach_card",
                              "params": {"card": monster["card"], "missing": gaps},
                              "options": [], "default": None, "answer": "teach"})
    return found


def view(state: State, expects: dict[str, Any]) -> dict[str, Any]:
    """The whole picture, JSON-ready."""
    turn = state["turn"]
    return {
        "game": "runemasters",
        "status": state["status"],
        "reason": state["reason"],
        "difficulty": state["difficulty"],
        "round": state["round"]["number"],
        "phase": state["phase"],
        "active": state["active"],
        "elder": state["elder"],
        "order": list(state["order"]),
        "event": state["events"]["current"],
        "events": {"revealed": list(state["events"]["revealed"]),
                   "left": sum(state["events"]["quota"].values())
                   - len(state["events"]["revealed"])},
        "temple": dict(state["temple"]),
        "paths": paths_view(state),
        "guardians": guardians_view(state),
        "dice": [{"index": k, **d} for k, d in enumerate(copy.deepcopy(turn["dice"]))],
        "rerolling": list(turn["rerolling"]),
        "dice_count": dice_count(state),
        "free_move": state["events"]["current"] == "vivacity" and not turn["free_move"],
        "petrified": state["petrified"],
        "deck": deck_view(state),
        "warnings": [m.to_json() for m in warnings(state)] if state["status"] == "playing"
        else [],
        "expects": expects,
        "prompts": prompts(state),
        "players": [{"guardian": g, "player": state["guardians"][g]["player"],
                     "path": state["guardians"][g]["path"]} for g in state["order"]],
    }
