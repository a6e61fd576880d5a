"""The one-tap moves of a round: every complete event a phone may send now, each tried on a copy
of the state so that the page offers only what the rules take (issue 39: «Every control the page
offers, tapped, is accepted»).

The shared page gets the heroes' moves (step 6: «Se déplacer», «Attaque au corps à corps»,
«Tirer au canon», the Tactic pile), their counters of an Action card (step 5: «Annuler une action
du Titan»), the end of a step, the heroes' choices and the Tactic on top; the Titan's own phone
gets its abilities, giving the dice back, applying an Action nobody counters and its own choices.
What has too many answers for buttons (the Titan's two cards, Eren's gifts, a printed effect)
stays a picker form on the page.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from itertools import combinations, permutations
from typing import Any

from . import steps, tactics
from .board import State, distance
from .catalog import FACES, LEVELS
from .dice import capacity, has_power
from .effects import options
from .roles import TITAN_TASKS

Event = dict[str, Any]
Takes = Callable[[Event], bool]
PAYMENTS = 4
"""At most this many ways of sharing one payment among the heroes are offered."""


def taps(state: State, takes: Takes, titan: bool) -> list[Event]:
    """The complete events of this moment that ``takes`` (the rules, tried on a copy) accepts,
    for the shared page or (``titan``) the Titan's own phone, each once."""
    if state["status"] != "playing":
        return []
    found: list[Event] = []
    for event in _candidates(state, titan):
        if event not in found and takes(event):
            found.append(event)
    return found


def _candidates(state: State, titan: bool) -> Iterator[Event]:
    if state["queue"]:
        task = state["queue"][0]
        if task["do"] != "text" and (task["do"] in TITAN_TASKS) == titan:
            yield from _choices(state, task)
        return
    step = state["step"]
    if titan:
        if step == 3:
            yield from ({"type": "ability", "n": a["n"]} for a in steps.abilities(state))
            yield {"type": "next"}
        if step == 5:
            yield {"type": "resolve"}
        return
    yield from ({"type": "top", "card": c} for c in state["tactics"]["unknown"]
                if tactics.top(state) is None)
    if step in (2, 3, 4):
        yield {"type": "next"}
    if step == 3:
        yield from ({"type": "ability", "n": a["n"]} for a in steps.abilities(state))
    if step in (2, 4, 5):  # sent in step 2 or 4, a counter ends the step (see rules._folded)
        yield from _counters(state)
    if step == 6:
        yield from _heroes_moves(state)
        yield {"type": "next"}


def _choices(state: State, task: dict[str, Any]) -> Iterator[Event]:
    """Each answer of a waiting choice (a hero; with Obstruct each of their dice; a card; a card
    to replace and its replacement), and declining where the card allows it."""
    kind = task["do"]
    for option in options(state, task):
        if isinstance(option, dict):
            yield {"type": "choose", **option}
        elif kind == "obstruct":
            yield from ({"type": "choose", "hero": option, "face": f} for f in FACES)
        elif kind in ("frenzy", "mutilate"):
            yield {"type": "choose", "card": option}
        else:
            yield {"type": "choose", "hero": option}
    if kind in ("frenzy", "sudden_change"):
        yield {"type": "choose"}


def _counters(state: State) -> Iterator[Event]:
    """Step 5: suffer the card, or counter it with each payment its counter takes (a known card:
    the symbols shared out among the heroes, or each group of hit heroes dodging; a card not
    taught: the table says it was countered)."""
    yield {"type": "resolve"}
    entry = steps.current(state)
    if entry is None:
        return
    definition = state["catalog"]["action"].get(entry["card"], {})
    counter = definition.get("counter")
    if counter is None:
        yield {"type": "resolve", "cancelled": True}
        return
    kind = counter["type"]
    if kind == "dodge":
        dodgers = [h for h, hero in state["heroes"].items()
                   if capacity(state, h, "dodge") >= (2 if hero["level"] == 0
                                                      else counter.get("dodge", 1))]
        for size in range(len(dodgers), 0, -1):
            for group in combinations(dodgers, size):
                yield {"type": "resolve", "pay": {h: {"dodge": 2 if state["heroes"][h]["level"]
                                                       == 0 else counter.get("dodge", 1)}
                                                  for h in group}}
    elif kind in ("collective", "symbols"):
        wanted = ({"tactic": len(state["heroes"])} if kind == "collective"
                  else dict(counter["symbols"]))
        for pay in _shares(state, list(state["heroes"]), wanted):
            yield {"type": "resolve", "pay": pay}


def _shares(state: State, heroes: list[str], wanted: dict[str, int]) -> list[dict[str, Any]]:
    """A few ways the heroes may pay ``wanted`` together: each the heroes taken in another
    order, each giving as much as their dice can before the next one."""
    found: list[dict[str, Any]] = []
    for order in permutations(heroes):
        pay: dict[str, dict[str, int]] = {}
        for symbol, count in wanted.items():
            left = count
            for hero in order:
                give = min(left, capacity(state, hero, symbol))
                if give:
                    pay.setdefault(hero, {})[symbol] = give
                    left -= give
            if left:
                return found
        if pay not in found:
            found.append(pay)
        if len(found) == PAYMENTS:
            break
    return found


def _heroes_moves(state: State) -> Iterator[Event]:
    """Step 6: each hero's move to each level their Move symbols reach, a melee or cannon shot
    with one or all of their symbols, a Tactic card put under the pile, Armin's search, and each
    condition of the Tactic on top met (or, not taught, its printed conditions)."""
    for hero_id, hero in state["heroes"].items():
        moves = capacity(state, hero_id, "move")
        yield from ({"type": "move", "hero": hero_id, "to": level} for level in LEVELS
                    if level != hero["level"] and distance(hero["level"], level) <= moves)
        for kind, symbol in (("melee", "combat"), ("cannon", "cannon")):
            most = capacity(state, hero_id, symbol)
            if kind == "cannon":
                most = min(most, state["cannons"] - state["cannon_used"])
            yield from ({"type": kind, "hero": hero_id, "count": n} for n in sorted({1, most})
                        if n >= 1)
        if capacity(state, hero_id, "tactic"):
            yield {"type": "cycle", "pay": {hero_id: 1}}
            if has_power(state, hero_id, "search"):
                yield from ({"type": "search", "hero": hero_id, "card": card}
                            for card in tactics.in_pile(state) if card != tactics.top(state))
    yield from _conditions(state)
    yield {"type": "activate"}


def _conditions(state: State) -> Iterator[Event]:
    """Each condition of the Tactic on top not met yet, with each way of paying it (a hero on
    its level alone, or the heroes together)."""
    card = tactics.top(state)
    conditions = tactics.definition(state, card).get("conditions") if card else None
    for index, wanted in enumerate(conditions or [], start=1):
        need = {wanted["symbol"]: wanted["count"]}
        if wanted.get("level") is not None:
            for hero_id, hero in state["heroes"].items():
                if hero["level"] == wanted["level"]:
                    yield {"type": "provide", "condition": index, "pay": {hero_id: need}}
        else:
            for pay in _shares(state, list(state["heroes"]), need):
                yield {"type": "provide", "condition": index, "pay": pay}

