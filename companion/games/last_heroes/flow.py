"""The turn machine: chargers first, then turns in seating order until the game ends.

Rulebook, «Le Plan de Bataille», «Fin de votre Tour» and «L'issue de la bataille». A turn is the
``play`` phase (one card, compulsory) and the ``act`` phase (kill, swap, powers, end of turn);
between turns the battlefield may wait for monsters to be revealed (``refill``).
"""

from __future__ import annotations

from .battlefield import plan_refill
from .chargers import empty_cards
from .record import Record, State


def chargers_ready(state: State) -> bool:
    """Whether every hero has put both charger cards in."""
    return all(None not in p["charger"].values() for p in state["players"].values())


def start_turn(state: State, hero: str, rec: Record) -> None:
    """Begin a hero's turn; a new round starts with the first player."""
    if hero == state["first"]:
        state["round"] += 1
    state["active"], state["phase"] = hero, "play"
    state["turn"] = {"kills": 0, "swaps": 0, "impact": False, "adrenaline": False,
                     "immunity": False}
    rec.say("turn.start", hero=hero, round=state["round"])


def next_turn(state: State, rec: Record) -> None:
    """Pass to the next hero in seating order (clockwise)."""
    order = state["order"]
    start_turn(state, order[(order.index(state["active"]) + 1) % len(order)], rec)


def end_turn(state: State, rec: Record) -> None:
    """End of the active hero's turn: −1 Charisma per empty charger card (Immunity aside), the
    pawn back if they killed nothing, then the game ends or the battlefield is refilled."""
    hero, turn = state["active"], state["turn"]
    player = state["players"][hero]
    empties = empty_cards(state, hero)
    if empties and turn["immunity"]:
        rec.say("immunity.saved", hero=hero, cards=empties)
    elif empties:
        player["charisma"] -= empties
        rec.say("charger.click", hero=hero, cards=empties, charisma=player["charisma"])
    if turn["kills"] == 0 and player["pawn"] is not None:
        column, level = player["pawn"]
        player["pawn"] = None
        rec.say("breach.closed", hero=hero, column=column, level=level)
    if all(p["hand"] == 0 for p in state["players"].values()):
        finish(state, "ten_turns", rec)
        return
    plan_refill(state, rec)
    if state["refill"]:
        state["phase"] = "refill"
        rec.say("refill.needed", voids=state["refill"])
    else:
        next_turn(state, rec)


def finish(state: State, reason: str, rec: Record) -> None:
    """The game is over: all artefacts taken (case A) or ten turns played (case B)."""
    state["status"], state["reason"], state["phase"] = "won", reason, "over"
    rec.say("game.over_artefacts" if reason == "artefacts" else "game.over_ten_turns")
