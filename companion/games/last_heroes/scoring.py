"""The final count and the winner (rulebook, «Décompte final»).

Monster points, plus 5 per artefact only if all were taken (case A), plus the Charisma wheel;
the highest total wins, ties going to the most monsters killed among the tied.
"""

from __future__ import annotations

from typing import Any

from .battlefield import all_artefacts_taken
from .catalog import DATA
from .record import State


def points_of(state: State, monster: str) -> int | None:
    """The points printed on a monster card, if the owner has taught them."""
    return state["catalog"]["monster"].get(monster, {}).get("points")


def missing_points(state: State) -> list[str]:
    """Killed monsters whose points are not known yet (the count waits for them)."""
    return [m for p in state["players"].values() for m in p["monsters"]
            if points_of(state, m) is None]


def score(state: State, hero: str) -> dict[str, Any]:
    """One hero's count, line by line; unknown monster points count as 0 until taught."""
    player = state["players"][hero]
    artefacts = DATA["artefact_points"] * len(player["artefacts"])
    sheet = {
        "monsters": sum(points_of(state, m) or 0 for m in player["monsters"]),
        "artefacts": artefacts if all_artefacts_taken(state) else 0,
        "charisma": player["charisma"],
    }
    sheet["total"] = sum(sheet.values())
    sheet["kills"] = len(player["monsters"])
    return sheet


def ranking(state: State) -> list[dict[str, Any]]:
    """Heroes from best to worst: total, then monsters killed («celui qui a vaincu le plus de
    monstres parmi les joueurs à égalité»)."""
    sheets = [{"hero": h, **score(state, h)} for h in state["order"]]
    return sorted(sheets, key=lambda s: (s["total"], s["kills"]), reverse=True)


def winners(state: State) -> list[str]:
    """The winner, or those still tied after the tie-break; none while the game goes on or
    while points are missing."""
    if state["status"] == "playing" or missing_points(state):
        return []
    ranks = ranking(state)
    best = (ranks[0]["total"], ranks[0]["kills"])
    return [s["hero"] for s in ranks if (s["total"], s["kills"]) == best]
