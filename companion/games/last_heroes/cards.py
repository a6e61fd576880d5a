"""Cards: their definitions (what the owner taught), and where each weapon card is.

A weapon card never seen is in someone's hand; once seen it is in a charger slot, loaded in front
of a hero, in the discard pile or back in a known hand (``state["where"]``). A hand is never
shown: the view reads only how many cards it holds.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from companion.engine import RuleError
from companion.engine.catalog import learn

from .catalog import check_definition
from .record import Record, State


def learn_define(state: State, kind: str, item: str, fields: Mapping[str, Any],
                 rec: Record) -> None:
    """Learn the ``define`` field of the event that reveals a card, if it has one."""
    if "define" in fields:
        learn(state, kind, item, check_definition(kind, item, fields["define"]), rec)


def definition(state: State, kind: str, item: str, *needed: str) -> dict[str, Any]:
    """A card's definition, refused with the printed values a rule needs and nobody taught yet."""
    found = state["catalog"][kind].get(item, {})
    missing = [name for name in needed if found.get(name) is None]
    if missing:
        raise RuleError("card.incomplete", card=item, kind=kind, missing=missing)
    return found


def weapon(state: State, card_id: str, *needed: str) -> dict[str, Any]:
    """A weapon card of a type in play, with the values ``needed`` known."""
    found = definition(state, "weapon", card_id, "type", *needed)
    if found["type"] not in state["weapons"]:
        raise RuleError("card.type_not_in_play", card=card_id, type=found["type"],
                        in_play=state["weapons"])
    return found


def from_hand(state: State, hero: str, card_id: str, keep_count: bool = False) -> None:
    """A card leaves a hero's hand (one card fewer unless another takes its place)."""
    where = state["where"].get(card_id)
    if where not in (None, f"hand:{hero}"):
        raise RuleError("card.elsewhere", card=card_id, where=place(where))
    player = state["players"][hero]
    if not keep_count:
        if player["hand"] < 1:
            raise RuleError("hand.empty", hero=hero)
        player["hand"] -= 1
    state["where"].pop(card_id, None)


def place(where: str) -> dict[str, Any]:
    """Where a card lies as a message to show (``charger:echo.left`` reads "in the charger of
    Ben, left")."""
    kind, _, at = where.partition(":")
    hero, _, side = at.partition(".")
    return {"key": f"where.{kind}", "params": {"hero": hero, "side": side}}


def put(state: State, card_id: str, where: str) -> None:
    """Record where a weapon card now lies (``discard`` also adds it to the discard pile)."""
    state["where"][card_id] = where
    if where == "discard":
        state["discard"].append(card_id)
