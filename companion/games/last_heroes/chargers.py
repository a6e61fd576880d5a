"""Chargers: the two ammo cards in front of each hero, the Joker wheel and ammo-taking.

Rulebook, «A - Partager des Munitions» and «B - Charger une Arme».
"""

from __future__ import annotations

from collections import Counter
from typing import Any

from companion.engine import RuleError

from .cards import put, weapon
from .catalog import MAX_JOKERS
from .record import Record, State


def playing(state: State, hero: str) -> dict[str, Any]:
    """A hero's side of the table, refusing a hero who is not at this table."""
    if hero not in state["players"]:
        raise RuleError("hero.not_playing", hero=hero, playing=state["order"])
    return state["players"][hero]


def slot_entry(state: State, slot: str) -> dict[str, Any]:
    """The card and remaining ammo in a charger slot ``<hero>.<left|right>``."""
    hero, side = slot.split(".")
    return playing(state, hero)["charger"][side]


def insert(state: State, hero: str, side: str, card_id: str, rec: Record,
           replaced_to: str = "discard") -> str | None:
    """Put a card into a charger slot with all its ammo up. The card it replaces goes to
    ``replaced_to``: the discard pile, with any ammo left on it («Ces Munitions sont perdues»),
    or a hand after a level-1 swap. Return the replaced card."""
    ammo = weapon(state, card_id, "ammo")["ammo"]
    charger = state["players"][hero]["charger"]
    old = charger[side]["card"] if charger[side] else None
    if old is not None:
        put(state, old, replaced_to)
    charger[side] = {"card": card_id, "ammo": ammo}
    put(state, card_id, f"charger:{hero}.{side}")
    if old is None:
        rec.say("charger.inserted", hero=hero, card=card_id, ammo=ammo)
    else:  # issue 39: it said "(replacing —)" for a card put into an empty slot
        rec.say("charger.replaced", hero=hero, card=card_id, ammo=ammo, replaced=old)
    return old


def gain_joker(state: State, hero: str, rec: Record) -> None:
    """One more Joker on the wheel, which stops at 3 («max. 3»)."""
    player = state["players"][hero]
    if player["jokers"] >= MAX_JOKERS:
        rec.say("joker.wheel_full", hero=hero, max=MAX_JOKERS)
        return
    player["jokers"] += 1
    rec.say("joker.gained", hero=hero, jokers=player["jokers"])


def take_ammo(state: State, hero: str, card_id: str, sources: list[str], jokers: int,
              rec: Record) -> dict[str, int]:
    """Load a weapon in one go: its whole cost from charger cards of its type (one ammo per
    card, any hero's) and the loader's Jokers. Return the Charisma earned by each other hero."""
    card = weapon(state, card_id, "cost", "impact")
    twice = [slot for slot, n in Counter(sources).items() if n > 1]
    if twice:
        raise RuleError("load.one_per_card", card=card_id, slot=twice[0])
    given = len(sources) + jokers
    if given < card["cost"]:
        raise RuleError("load.one_go", card=card_id, cost=card["cost"], given=given)
    if given > card["cost"]:
        raise RuleError("load.too_much", card=card_id, cost=card["cost"], given=given)
    if jokers > state["players"][hero]["jokers"]:
        raise RuleError("load.jokers_short", hero=hero, jokers=state["players"][hero]["jokers"],
                        wanted=jokers)
    for slot in sources:
        entry = slot_entry(state, slot)
        supplied = state["catalog"]["weapon"][entry["card"]]["type"]
        if supplied != card["type"]:
            raise RuleError("load.wrong_type", slot=slot, supplied=supplied, needed=card["type"])
        if entry["ammo"] < 1:
            raise RuleError("load.no_ammo", slot=slot, card=entry["card"])
    charisma: Counter[str] = Counter()
    for slot in sources:
        slot_entry(state, slot)["ammo"] -= 1
        supplier = slot.split(".")[0]
        if supplier != hero:
            charisma[supplier] += 1
            state["players"][supplier]["charisma"] += 1
    state["players"][hero]["jokers"] -= jokers
    return dict(charisma)


def empty_cards(state: State, hero: str) -> int:
    """How many of a hero's charger cards show no ammo any more («CLICK»)."""
    return sum(1 for entry in state["players"][hero]["charger"].values()
               if entry is not None and entry["ammo"] == 0)
