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
    """Format 1 to 2: the round now does by itself what needs no decision (issue 17): step 4
    ends once every given-back die is rerolled, a card nobody can counter resolves, step 6 ends
    when no hero holds a die. A ``resolve`` or ``next`` the game does not take now (the step is
    over, the game is) is dropped, and two the game would still take are told apart by what the
    old table meant by them (:func:`_old_resolve`, :func:`_old_next`)."""
    if state is None or state["status"] != "playing":
        return _OUT_OF_TURN(game, state, event, memory)
    if event.type == "reroll":
        _note_last_reroll(state, event, memory)
    elif event.type == "resolve":
        return _old_resolve(game, state, event, memory)
    elif event.type == "next":
        return _old_next(game, state, event, memory)
    return [event]


def _note_last_reroll(state: State, event: Event, memory: dict[str, Any]) -> None:
    """A ``reroll`` of the last dice the Titan gave back: the old table stayed in step 4 until
    its ``next``, when the round now goes on to step 5 by itself."""
    left = sum(hero["returned"] for hero in state["heroes"].values())
    if state["step"] == 4 and left <= len(event.fields.get("faces", [])):
        memory["step_4_open"] = True


def _old_next(game: Game, state: State, event: Event, memory: dict[str, Any]) -> list[Event]:
    """The old table's ``next`` after its last reroll ended step 4, which the round has ended
    by itself since: dropped, even where a later step would take it (step 6 waiting for the
    heroes' dice, which it would end instead)."""
    if memory.pop("step_4_open", False) and state["step"] != 4:
        return []
    return _OUT_OF_TURN(game, state, event, memory)


def _old_resolve(game: Game, state: State, event: Event,
                 memory: dict[str, Any]) -> list[Event]:
    """Format 1 sent a ``resolve`` for each Action card in turn, naming none: the old table's
    n-th ``resolve`` of a round was for the round's n-th card, so one for a card that has
    resolved by itself is dropped, and the next one is still for its own card."""
    if memory.get("round") != state["round"]:
        memory["round"], memory["told"] = state["round"], 0
    told = memory["told"]
    memory["told"] = told + 1
    if sum(entry["done"] for entry in state["play"]) > told:
        return []
    return _OUT_OF_TURN(game, state, event, memory)
