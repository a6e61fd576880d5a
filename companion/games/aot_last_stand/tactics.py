"""The Tactic pile and its activation (rulebook, «Cartes Tactique», «Parties à 2 Héros»).

The pile lies face up: only its top card is seen. Positions the table has not seen yet are
``None`` until the card is named (at setup, with the ``top`` event, or as the last unknown one).
"""

from __future__ import annotations

from typing import Any

from companion.engine import RuleError

from . import board
from .board import Out, State
from .dice import spend, spend_all

Task = dict[str, Any]


def top(state: State) -> str | None:
    """The Tactic card in play, or None if the table has not named it yet."""
    pile = state["tactics"]["pile"]
    return pile[0] if pile else None


def definition(state: State, card: str) -> dict[str, Any]:
    """A Tactic card's definition."""
    return state["catalog"]["tactic"][card]


def _settle(state: State) -> None:
    """When a single card is still unplaced, it is the single unknown position."""
    tactics = state["tactics"]
    if len(tactics["unknown"]) == 1 and tactics["pile"].count(None) == 1:
        tactics["pile"][tactics["pile"].index(None)] = tactics["unknown"].pop()


def identify(state: State, card: str, out: Out) -> None:
    """The table names the card on top of the pile."""
    tactics = state["tactics"]
    if top(state) is not None:
        if card != top(state):
            raise RuleError("tactic.top_known", card=card, top=top(state))
        return
    if card not in tactics["unknown"]:
        raise RuleError("tactic.not_in_pile", card=card, possible=tactics["unknown"])
    tactics["pile"][0] = card
    tactics["unknown"].remove(card)
    _settle(state)
    out.say("tactic.top", card=card)


def cycle(state: State, pay: dict[str, int], out: Out) -> None:
    """Each Tactic symbol spent puts the top card under the pile (order never chosen)."""
    for hero_id, count in pay.items():
        spend(state, hero_id, {"tactic": count})
    pile = state["tactics"]["pile"]
    for _ in range(sum(pay.values())):
        pile.append(pile.pop(0))
    state["tactics"]["met"] = []
    out.say("tactic.cycled", count=sum(pay.values()), card=top(state))


def in_pile(state: State) -> list[str]:
    """Every card still in the pile, those whose position is not known yet included."""
    tactics = state["tactics"]
    return [c for c in tactics["pile"] if c] + tactics["unknown"]


def bring_to_top(state: State, card: str) -> None:
    """A card of the pile goes on top, the others' order kept; conditions met this round were
    for another card."""
    tactics = state["tactics"]
    if card in tactics["pile"]:
        tactics["pile"].remove(card)
    elif card in tactics["unknown"]:
        tactics["pile"].remove(None)
        tactics["unknown"].remove(card)
    else:
        raise RuleError("tactic.not_in_pile", card=card, possible=in_pile(state))
    tactics["pile"].insert(0, card)
    tactics["met"] = []
    _settle(state)


def search(state: State, hero_id: str, card: str, out: Out) -> None:
    """Armin: with one Tactic symbol, a card of the pile goes on top, the others' order kept."""
    bring_to_top(state, card)
    spend(state, hero_id, {"tactic": 1})
    out.say("tactic.searched", hero=hero_id, card=card)


def known_top(state: State) -> str:
    """The top card, refusing while the table has not named it."""
    card = top(state)
    if card is None:
        raise RuleError("tactic.top_unknown", expected=["top"])
    return card


def provide(state: State, index: int, pay: dict[str, dict[str, int]], out: Out) -> None:
    """Meet one condition of the top card: a hero on its level gives its symbols, or the heroes
    give them together («Condition 1 : Un Héros doit se trouver au niveau 4 et fournir 2...»)."""
    card = known_top(state)
    conditions = definition(state, card).get("conditions")
    if conditions is None:
        raise RuleError("tactic.conditions_unknown", card=card, expected=["activate", "teach"])
    if index in state["tactics"]["met"]:
        raise RuleError("tactic.condition_met", card=card, condition=index)
    wanted = conditions[index - 1]
    symbols = {s for needs in pay.values() for s in needs}
    given = sum(needs.get(wanted["symbol"], 0) for needs in pay.values())
    if symbols != {wanted["symbol"]} or given != wanted["count"]:
        raise RuleError("tactic.wrong_symbols", condition=index, symbol=wanted["symbol"],
                        count=wanted["count"], given=pay)
    if wanted.get("level") is not None:
        if len(pay) != 1:
            raise RuleError("tactic.one_hero", condition=index, level=wanted["level"])
        hero_id = next(iter(pay))
        if state["heroes"][hero_id]["level"] != wanted["level"]:
            raise RuleError("tactic.wrong_level", hero=hero_id, condition=index,
                            level=wanted["level"], at=state["heroes"][hero_id]["level"])
    spend_all(state, pay)
    state["tactics"]["met"].append(index)
    out.say("tactic.condition", card=card, condition=index, met=len(state["tactics"]["met"]),
            needed=needed(state))


def needed(state: State) -> int:
    """Conditions to meet: 3, any 2 of them with two heroes («Parties à 2 Héros»)."""
    return 2 if len(state["heroes"]) == 2 else 3


def missing_blow(state: State, card: str) -> str | None:
    """What a victory Tactic still lacks, or None: it needs the KILL ZONE (``zone``), and with
    two heroes a hero on level 8 (``level``) («Les Tactiques "Décapitation" et "Éradication"»)."""
    if definition(state, card).get("effect") != "victory":
        return None
    if board.zone(state) != "kill":
        return "zone"
    if len(state["heroes"]) == 2 and all(h["level"] != 8 for h in state["heroes"].values()):
        return "level"
    return None


def require_blow(state: State, card: str) -> None:
    """Refuse to activate a victory Tactic that lacks its finishing conditions."""
    missing = missing_blow(state, card)
    if missing is not None:
        raise RuleError("tactic.needs_kill_zone" if missing == "zone" else
                        "tactic.needs_level_8", card=card, zone=board.zone(state))


def check(state: State, out: Out) -> list[Task]:
    """Activate the top card if its conditions are met this round (and, for a victory card,
    the KILL ZONE and the level 8 hero); return what the table must still choose."""
    card = top(state)
    if card is None or state["status"] != "playing":
        return []
    conditions = definition(state, card).get("conditions")
    if conditions is None or len(state["tactics"]["met"]) < needed(state):
        return []
    if missing_blow(state, card):
        return []
    return activate(state, card, out)


def activate(state: State, card: str, out: Out) -> list[Task]:
    """The card's effect applies and the card leaves the game; the next one is in play."""
    tactics = state["tactics"]
    tactics["pile"].pop(0)
    tactics["used"].append(card)
    tactics["met"] = []
    out.say("tactic.activated", card=card)
    effect = definition(state, card).get("effect")
    if effect == "blind":
        state["titan"]["blind"] = True
    elif effect == "fall":
        state["health"] = state["track"]["length"]
        out.say("titan.fall", health=state["health"])
    elif effect == "rescue":
        state["devoured"] = max(0, state["devoured"] - 4)
        out.say("citizens.rescued", devoured=state["devoured"])
    elif effect == "victory":
        board.end(state, "beheading" if card == "decapitation" else "eradication", out)
    elif effect == "mutilate":
        return [{"do": "mutilate"}]
    elif effect == "heal_hero":
        return [{"do": "heal_hero"}]
    return []
