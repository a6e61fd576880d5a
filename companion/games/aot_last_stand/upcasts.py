"""How Attack on Titan's events of earlier event formats read today (docs/events.md, «Event
formats»)."""

from __future__ import annotations

from typing import Any

from companion.engine import Event, Game
from companion.engine.upcast import inferred

State = dict[str, Any]

_OUT_OF_TURN = inferred("resolve", "next")


def round_inferred(game: Game, state: State | None, event: Event,
                   memory: dict[str, Any]) -> list[Event]:
    """Format 1 to 2: the round now does by itself what needs no decision (issue 17): a card
    nobody can counter resolves, step 6 ends when no hero holds a die. Format 1 sent a
    ``resolve`` for each Action card in turn, naming none: the old table's n-th ``resolve`` of
    a round was for the round's n-th card, so one for a card that has resolved by itself is
    dropped, and the next one is still for its own card. A ``resolve`` or ``next`` the game
    does not take now (the step is over, the game is) is dropped."""
    if event.type != "resolve" or state is None or state["status"] != "playing":
        return _OUT_OF_TURN(game, state, event, memory)
    if memory.get("round") != state["round"]:
        memory["round"], memory["told"] = state["round"], 0
    told = memory["told"]
    memory["told"] = told + 1
    if sum(entry["done"] for entry in state["play"]) > told:
        return []
    return _OUT_OF_TURN(game, state, event, memory)
