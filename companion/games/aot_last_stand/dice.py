"""The heroes' dice: what a rolled die is worth, and spending dice for symbols.

A die in front of a hero is ``{"face": ..., "owner": hero}``; the owner is whoever rolled it
(Eren's gifts keep their owner), because the symbol powers of Sasha, Erwin, Mikasa and Conny
apply to the dice they rolled («Pouvoirs des Héros»).
"""

from __future__ import annotations

from typing import Any

from companion.engine import RuleError

from .board import State

Die = dict[str, Any]
SYMBOL_POWERS = {"wild": 1, "double": 1, "swap": 2}
"""The powers that name symbols, and how many."""


def power_of(state: State, hero_id: str) -> tuple[str | None, list[str]]:
    """A hero's power and the symbols it names; no power while its symbols are not known."""
    hero = state["catalog"]["hero"].get(hero_id, {})
    power, symbols = hero.get("power"), hero.get("symbols") or []
    if power in SYMBOL_POWERS and len(symbols) != SYMBOL_POWERS[power]:
        return None, []
    return power, list(symbols)


def power_off(state: State, hero_id: str) -> bool:
    """Whether a hero's power is off because the symbols it names are not taught yet (Sasha's,
    Erwin's and Conny's are lost in the rulebook's text)."""
    power = state["catalog"]["hero"].get(hero_id, {}).get("power")
    return power in SYMBOL_POWERS and power_of(state, hero_id)[0] is None


def has_power(state: State, hero_id: str, power: str) -> bool:
    """Whether a hero has this power (and it is fully known)."""
    return power_of(state, hero_id)[0] == power


def worth(state: State, die: Die, symbol: str) -> tuple[int, int]:
    """How many ``symbol`` a die gives, and how far from its face it is read (0 natural, 1 by
    Erwin's swap, 2 by Sasha's wildcard); (0, 9) if it gives none."""
    power, symbols = power_of(state, die["owner"])
    face = die["face"]
    if symbol == "titan" or face == "titan":
        return (0, 9)
    if face == symbol:
        return (2 if power == "double" and face in symbols else 1, 0)
    if power == "swap" and face in symbols and symbol in symbols:
        return (1, 1)
    if power == "wild" and face in symbols:
        return (1, 2)
    return (0, 9)


def capacity(state: State, hero_id: str, symbol: str) -> int:
    """How many ``symbol`` a hero's dice can give at most (each die read as far as its owner's
    power allows): :func:`spend` takes up to this many and refuses more."""
    return sum(worth(state, die, symbol)[0] for die in state["heroes"][hero_id]["held"])


def spend(state: State, hero_id: str, needs: dict[str, int]) -> list[Die]:
    """Take from a hero's dice enough of each symbol, natural faces first; return the dice.

    Raises ``dice.not_enough`` (nothing taken) when the hero's dice cannot give them.
    """
    hero = state["heroes"][hero_id]
    held, used = list(hero["held"]), []
    for symbol, count in needs.items():
        remaining = count
        while remaining > 0:
            options = [(i, *worth(state, d, symbol)) for i, d in enumerate(held)]
            options = [o for o in options if o[1] > 0]
            if not options:
                raise RuleError("dice.not_enough", hero=hero_id, symbol=symbol, needed=count,
                                faces=faces(hero["held"]))
            index, value, _ = min(options, key=lambda o: (o[2], -min(o[1], remaining)))
            remaining -= value
            used.append(held.pop(index))
    hero["held"] = held
    return used


def spend_all(state: State, pay: dict[str, dict[str, int]]) -> None:
    """Several heroes pay at once; all or nothing (the caller works on a copy of the state)."""
    for hero_id, needs in pay.items():
        spend(state, hero_id, needs)


def faces(dice: list[Die]) -> list[str]:
    """The faces of some dice, sorted."""
    return sorted(d["face"] for d in dice)


def paid(pay: dict[str, dict[str, int]], symbol: str) -> int:
    """How many of a symbol a payment gives in all."""
    return sum(needs.get(symbol, 0) for needs in pay.values())
