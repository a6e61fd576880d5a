"""What the host's phone offers to point at: the weapon cards a hero may put down, by what is
printed on them, and the monsters the loaded weapons can kill now.

A weapon card's id (``pistol-3``) is printed nowhere: the table sees its type, its Impact (HIT!,
BAM!, POW!), the ammo it costs and the ammo it shows in a charger. Cards that print the same are
the same to the rules, so the phone offers one chip per printed face and the event names the
first card of that face that may be in the hero's hand; a card whose cost or ammo nobody taught
is offered too, and the phone asks those values with the event (its ``define`` field).
Rulebook, «Attaquer un Monstre» for the kills.
"""

from __future__ import annotations

import re
from typing import Any

from .battlefield import breached
from .catalog import KINDS
from .record import State

FACE = ("type", "impact", "cost", "ammo")


def printed_name(state: State, monster: str | None) -> Any:
    """A monster card's printed name as the owner taught it (one text, or one per language),
    for a page whose names were loaded before the card was taught; None when there is none."""
    return state["catalog"]["monster"].get(monster, {}).get("name") if monster else None


def _order(card: str) -> tuple[str, int, str]:
    """Cards in their packaged order (``pistol-2`` before ``pistol-10``)."""
    number = re.search(r"(\d+)$", card)
    return (card.rsplit("-", 1)[0], int(number.group(1)) if number else 0, card)


def in_hand(state: State, hero: str) -> list[str]:
    """The weapon cards of the types in play that may be in ``hero``'s hand: those never seen
    first, then those known to be back in that hand (a level-1 swap, an Exchange)."""
    back = f"hand:{hero}"
    cards = [card for card, data in state["catalog"]["weapon"].items()
             if data.get("type") in state["weapons"]
             and state["where"].get(card) in (None, back)]
    return sorted(cards, key=lambda card: (state["where"].get(card) == back, _order(card)))


def hand_faces(state: State, hero: str | None) -> list[dict[str, Any]]:
    """One entry per printed face among the cards ``hero`` may hold: its type, impact, cost and
    ammo (None: not taught yet) and the card the event names, in the order of the weapon types
    at the table, then by impact, cost and ammo. A card known to be back in a hand is named
    only when no card never seen prints the same: the shared view does not tell which cards a
    hand holds."""
    if hero is None or state["players"][hero]["hand"] < 1:
        return []
    faces: dict[tuple[Any, ...], dict[str, Any]] = {}
    for card in in_hand(state, hero):
        data = state["catalog"]["weapon"][card]
        key = tuple(data.get(name) for name in FACE)
        faces.setdefault(key, {**dict(zip(FACE, key, strict=True)), "card": card})
    types = state["weapons"]
    return sorted(faces.values(), key=lambda f: (
        types.index(f["type"]), f["impact"] or 0, f["cost"] is None, f["cost"] or 0,
        f["ammo"] is None, f["ammo"] or 0))


def _assign(needed: list[int], loaded: list[tuple[str, int]]) -> list[str] | None:
    """The weakest loaded weapons that cover ``needed`` one to one (the strongest impact served
    first, each by the weakest weapon strong enough: it finds a match whenever one exists)."""
    free, chosen = sorted(loaded, key=lambda w: w[1]), []
    for impact in sorted(needed, reverse=True):
        weapon = next((w for w in free if w[1] >= impact), None)
        if weapon is None:
            return None
        free.remove(weapon)
        chosen.append(weapon[0])
    return chosen


def _upgraded(needed: list[int], loaded: list[tuple[str, int]]) -> list[str] | None:
    """The same once the Impact power lets one weapon count one force higher."""
    for i, (card, force) in enumerate(loaded):
        if force < 3:
            chosen = _assign(needed, [*loaded[:i], (card, force + 1), *loaded[i + 1:]])
            if chosen is not None:
                return chosen
    return None


def _needed(state: State, monster: str, column: int, level: int) -> list[int] | None:
    """The impacts a kill needs where the monster stands, None while some are not taught."""
    data = state["catalog"]["monster"].get(monster, {})
    light, dark = data.get("light"), data.get("dark")
    if light is None:
        return None
    if breached(state, column, level):
        return list(light)
    if dark is None:
        return list(light) if level == 1 else None
    return [*light, *dark]


def kills(state: State) -> list[dict[str, Any]]:
    """The monsters the active hero may kill now: each with the loaded weapons the phone
    proposes (the weakest that cover its impacts), or, when its impacts are not taught yet,
    with ``needed`` None (the phone asks them and the weapons). Empty outside the acting phase
    or once this turn's kill is made (two with Adrenaline)."""
    turn, hero = state["turn"], state["active"]
    if state["status"] != "playing" or state["phase"] != "act" or not turn:
        return []
    if turn["kills"] >= (2 if turn["adrenaline"] else 1):
        return []
    weapons = state["catalog"]["weapon"]
    loaded = [(card, weapons[card]["impact"]) for card in state["players"][hero]["loaded"]]
    if not loaded:
        return []
    found = []
    for column, col in enumerate(state["columns"], start=1):
        for level, monster in enumerate(col["monsters"], start=1):
            if monster is None:
                continue
            needed = _needed(state, monster, column, level)
            entry = {"monster": monster, "name": printed_name(state, monster), "column": column,
                     "level": level, "needed": needed, "weapons": None}
            if needed is not None:
                chosen = _assign(needed, loaded)
                if chosen is None and turn["impact"]:
                    chosen = _upgraded(needed, loaded)
                if chosen is None:
                    continue
                entry["weapons"] = chosen
            found.append(entry)
    return found


def pickers(definitions: dict[str, Any], seen: list[str]) -> dict[str, Any]:
    """The host page's picker data (``/api/catalog``): every card id by kind (an unknown tag is
    named after one), and each monster card's printed name and level, which the set-up form
    offers on the levels of the battlefield that take it (its printed level, or any)."""
    return {"ids": {kind: sorted(definitions[kind]) for kind in KINDS}, "seen": seen,
            "monsters": {card: {"name": data.get("name"), "level": data.get("level")}
                         for card, data in definitions["monster"].items()}}


def unseen_monsters(state: State) -> list[dict[str, Any]]:
    """The monster cards the owner has taught that have not come into play: what a void may be
    filled with (its level, when printed, must be the void's)."""
    return [{"card": card, "name": data.get("name"), "level": data.get("level")}
            for card, data in sorted(state["catalog"]["monster"].items())
            if card not in state["monsters_seen"]]


def untaught(state: State) -> dict[str, dict[str, list[str]]]:
    """The weapon cards of the box whose cost or ammo nobody taught yet, by type and Impact:
    teaching a pile card after card names each one as the next of its face."""
    found: dict[str, dict[str, list[str]]] = {}
    for card, data in sorted(state["catalog"]["weapon"].items(), key=lambda i: _order(i[0])):
        if data.get("type") and data.get("impact") and (data.get("cost") is None
                                                         or data.get("ammo") is None):
            found.setdefault(data["type"], {}).setdefault(str(data["impact"]), []).append(card)
    return found
