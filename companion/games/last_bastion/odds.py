"""Exact odds for the dice about to be rolled, and advice once they are.

Rulebook, "Combat": the fighter rolls 3 combat dice (Kazgin with his power adds the grey die);
each face is red, green, blue, yellow, black or white, white being a joker; Equipment of the
fighter and of the heroes on the same tile completes the dice; two cards from a corner need their
summed resistance, and if only one can fall the fighter picks which. The Market rolls 2 dice and
takes the matching Equipment, a white face as any colour the reserve still holds.

Every outcome of the dice is enumerated (as multisets, weighted by how many ordered rolls give
them), so the probabilities are exact fractions, not samples. Who may fall for a given roll is
decided by :func:`combat.suggestion` and :func:`combat.cheapest_spend`, the same functions the
rules use, so the odds can never disagree with what the companion will accept.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator
from fractions import Fraction
from itertools import combinations_with_replacement
from math import factorial, prod
from typing import Any

from . import combat
from .catalog import COLOURS, COMBAT_FACES
from .flow import card_def
from .tokens import State, slot_entry

MARKET_DICE = 2
FIGHT_DICE = 3


def outcomes(dice: int) -> Iterator[tuple[tuple[str, ...], int]]:
    """Every distinct roll of ``dice`` combat dice and how many of the 6**dice ordered rolls
    give it."""
    for faces in combinations_with_replacement(COMBAT_FACES, dice):
        counts = Counter(faces).values()
        yield faces, factorial(dice) // prod(factorial(n) for n in counts)


def fraction(value: Fraction) -> dict[str, Any]:
    """A probability as JSON: exact numerator and denominator, and a float for display."""
    return {"num": value.numerator, "den": value.denominator, "p": float(value)}


def dice_count(roll: dict[str, Any]) -> int:
    """How many dice a pending roll throws: 2 at the Market, 3 in a fight, 4 with the grey die."""
    if roll["kind"] == "market":
        return MARKET_DICE
    return FIGHT_DICE + bool(roll.get("grey_die"))


def target_info(state: State, slot: str) -> dict[str, Any]:
    """One fought card: its colour, printed and current resistance, and what changes it."""
    entry = slot_entry(state, slot)
    definition = card_def(state, entry["card"])
    return {"slot": slot, "name": definition["name"], "type": definition["type"],
            "colour": definition["colour"], "printed": definition["resistance"],
            "modifier": entry["modifier"], "enchanted": "enchantment" in entry["items"],
            "resistance": combat.resistance(state, slot)}


def equipment(state: State, fighter: str) -> dict[str, dict[str, int]]:
    """The Equipment that may be spent: the fighter's and their tile-mates', by hero."""
    return {hero: {c: n for c, n in state["heroes"][hero]["equipment"].items() if n}
            for hero in combat.helpers(state, fighter)}


def fight_odds(state: State, roll: dict[str, Any]) -> dict[str, Any]:
    """The exact chance that the dice about to be rolled win a declared fight.

    ``all`` is the chance every target falls, ``any`` that at least one does, ``each`` the chance
    each target can be made to fall (alone, if the fighter picks it).
    """
    targets = roll["targets"]
    dice = dice_count(roll)
    total = 6 ** dice
    wins_all = wins_any = 0
    wins_each = dict.fromkeys(targets, 0)
    for faces, weight in outcomes(dice):
        trial = {**roll, "faces": list(faces)}
        falls = combat.suggestion(state, trial)["falls"]
        wins_all += weight * (len(falls) == len(targets))
        wins_any += weight * bool(falls)
        for slot in targets:
            if combat.cheapest_spend(state, trial, [slot]) is not None:
                wins_each[slot] += weight
    return {"dice": dice, "outcomes": total,
            "all": fraction(Fraction(wins_all, total)),
            "any": fraction(Fraction(wins_any, total)),
            "each": {slot: fraction(Fraction(n, total)) for slot, n in wins_each.items()}}


def shortfalls(state: State, roll: dict[str, Any]) -> dict[str, int]:
    """For each target, how many faces the rolled dice and every spendable token leave it short
    (0 when it can fall on its own)."""
    held: Counter[str] = Counter()
    for colours in equipment(state, roll["fighter"]).values():
        held.update(colours)
    return {slot: combat.shortfall(combat.needs(state, [slot]), roll["faces"], held)
            for slot in roll["targets"]}


def fight_advice(state: State, roll: dict[str, Any]) -> dict[str, Any]:
    """After the roll: the cheapest way to win (the companion's suggestion), or why it cannot."""
    best = combat.suggestion(state, roll)
    return {"falls": best["falls"], "spend": best["spend"],
            "tokens": combat.spent_tokens(best["spend"]),
            "short": shortfalls(state, roll),
            "complete": len(best["falls"]) == len(roll["targets"])}


def market_odds(state: State) -> dict[str, Any]:
    """The exact chance the Market's 2 dice bring at least one token of each colour.

    A coloured face gives that colour if the reserve still holds one; a white face gives any
    colour the reserve holds, so it counts for every colour still available.
    """
    reserve = state["reserve"]["equipment"]
    total = 6 ** MARKET_DICE
    chance = {}
    for colour in COLOURS:
        hits = sum(weight for faces, weight in outcomes(MARKET_DICE)
                   if reserve[colour] and (colour in faces or "white" in faces))
        chance[colour] = fraction(Fraction(hits, total))
    return {"dice": MARKET_DICE, "outcomes": total, "colour": chance}


def helper(state: State) -> dict[str, Any] | None:
    """What the phone's combat helper shows for the pending roll, or None if none is pending."""
    roll = state.get("combat")
    if not roll or state["status"] != "playing":
        return None
    info: dict[str, Any] = {"kind": roll["kind"], "fighter": roll["fighter"],
                            "dice": dice_count(roll), "faces": roll["faces"]}
    if roll["kind"] == "market":
        info["odds"] = market_odds(state)
        return info
    info["targets"] = [target_info(state, s) for s in roll["targets"]]
    info["equipment"] = equipment(state, roll["fighter"])
    if roll["faces"] is None:
        info["odds"] = fight_odds(state, roll)
    else:
        info["advice"] = fight_advice(state, roll)
    return info
