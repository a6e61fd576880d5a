"""Titan abilities and Action cards at work: the effect vocabulary and the choices it leaves.

Each keyword of «Capacités du Titan» is an op; what needs a person's decision (Strike: the heroes
choose; Crush, Obstruct, Sudden Change, Frenzy: the Titan chooses) waits as a task answered by the
``choose`` event. A printed text the companion cannot apply waits as a prompt answered by the
effects that happened.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from companion.engine import RuleError

from . import board
from .board import Out, State

Task = dict[str, Any]
WAIT = "wait"


def effect_tasks(effects: list[dict[str, Any]] | None, source: dict[str, Any],
                 spared: list[str] | None = None) -> list[Task]:
    """Tasks for what a card or ability does: its effects, or a prompt if they are not known."""
    if effects is None:
        return [{"do": "text", "source": source}]
    return [{"do": "effect", "effect": e, "source": source, "spared": spared or []}
            for e in effects]


def _effect(state: State, task: Task, out: Out) -> Any:
    effect = task["effect"]
    op = effect["op"]
    if op == "heal":
        board.heal(state, effect["amount"], out)
    elif op == "devour":
        board.devour(state, effect["amount"], out)
    elif op == "destroy":
        board.destroy(state, effect["amount"], out)
    elif op == "attack":
        for hero_id, hero in state["heroes"].items():
            if hero["level"] in effect["levels"] and hero_id not in task["spared"]:
                board.lose_heart(state, hero_id, out, effect["hearts"])
    else:
        return [{"do": op, "source": task["source"]}]
    return []


def _wait(state: State, task: Task, out: Out) -> Any:
    return WAIT


def _frenzy(state: State, task: Task, out: Out) -> Any:
    return WAIT if state["titan"]["hand"] else []


def _obstruct(state: State, task: Task, out: Out) -> Any:
    """Obstruction waits for the Titan's choice, unless no hero has a die it could take: then
    nobody loses one and the effect is ignored (a loss of what one does not have)."""
    if options(state, task):
        return WAIT
    out.say("effect.no_die")
    return []


def _heal_hero(state: State, task: Task, out: Out) -> Any:
    hurt = options(state, task)
    if len(hurt) > 1:
        return WAIT
    for hero_id in hurt:
        heal_hero(state, hero_id, out)
    return []


HANDLERS: dict[str, Callable[[State, Task, Out], Any]] = {
    "effect": _effect, "text": _wait, "strike": _wait, "crush": _wait, "obstruct": _obstruct,
    "sudden_change": _wait, "frenzy": _frenzy, "mutilate": _wait, "heal_hero": _heal_hero,
}


def run(state: State, out: Out) -> None:
    """Work through the queue until a person must decide something or the game ends."""
    while state["status"] == "playing" and state["queue"]:
        task = state["queue"].pop(0)
        result = HANDLERS[task["do"]](state, task, out)
        if result == WAIT:
            state["queue"].insert(0, task)
            return
        state["queue"][:0] = result


def options(state: State, task: Task) -> list[Any]:
    """The legal answers of a waiting choice, as the Titan's own view shows them."""
    kind = task["do"]
    if kind in ("strike", "crush"):
        return list(state["heroes"])
    if kind == "obstruct":
        titan = state["titan"]
        return [h for h, hero in state["heroes"].items()
                if hero["held"] or hero["returned"] or h in titan["pool"] + titan["spent"]]
    if kind == "heal_hero":
        return [h for h, hero in state["heroes"].items() if hero["hearts"] < 3]
    if kind in ("frenzy", "mutilate"):
        return list(state["titan"]["hand"])
    if kind == "sudden_change":
        return [{"replace": e["card"], "card": c} for e in replaceable(state)
                for c in state["titan"]["hand"]]
    return []


def replaceable(state: State) -> list[dict[str, Any]]:
    """The Action cards in play that Sudden Change may still replace (not yet resolved)."""
    return [e for e in state["play"] if not e["done"]]


def heal_hero(state: State, hero_id: str, out: Out) -> None:
    """Guérison: a hero gets a heart back, never more than 3."""
    hero = state["heroes"][hero_id]
    hero["hearts"] = min(3, hero["hearts"] + 1)
    out.say("hero.healed", hero=hero_id, hearts=hero["hearts"])


def choose(state: State, fields: dict[str, Any], out: Out) -> None:
    """Answer the waiting choice (a hero, a card, a die's face, or a card to replace)."""
    task = state["queue"][0]
    kind = task["do"]
    if kind == "text":
        raise RuleError("event.not_expected", event="choose", expected=["answer"])
    if kind in ("strike", "crush", "obstruct", "heal_hero"):
        hero_id = fields.get("hero")
        if hero_id not in options(state, task):
            raise RuleError("choose.hero", hero=hero_id, options=options(state, task))
        if kind == "obstruct":
            obstruct(state, hero_id, fields.get("face"), out)
        elif kind == "heal_hero":
            heal_hero(state, hero_id, out)
        else:
            board.lose_heart(state, hero_id, out)
    elif kind in ("frenzy", "mutilate"):
        _choose_card(state, kind, fields.get("card"), out)
    else:
        sudden_change(state, fields.get("replace"), fields.get("card"), out)
    state["queue"].pop(0)


def _choose_card(state: State, kind: str, card: str | None, out: Out) -> None:
    hand = state["titan"]["hand"]
    if card is None and kind == "frenzy":
        out.say("titan.declined")
        return
    if card not in hand:
        raise RuleError("choose.not_in_hand", card=card, hand_size=len(hand))
    hand.remove(card)
    if kind == "frenzy":
        state["play"].append({"card": card, "up": True, "done": False})
        out.say("action.frenzy", card=card)
    else:
        state["titan"]["removed"].append(card)
        out.say("action.mutilated", card=card)


def sudden_change(state: State, replace: str | None, card: str | None, out: Out) -> None:
    """Changement soudain: one card in play is replaced by one from the hand, same facing; the
    first goes back to the hand. The Titan may decline (no ``replace``)."""
    if replace is None:
        out.say("titan.declined")
        return
    entry = next((e for e in replaceable(state) if e["card"] == replace), None)
    hand = state["titan"]["hand"]
    if entry is None:
        raise RuleError("choose.not_replaceable", card=replace, count=len(replaceable(state)))
    if card not in hand:
        raise RuleError("choose.not_in_hand", card=card, hand_size=len(hand))
    hand.remove(card)
    hand.append(replace)
    entry["card"] = card
    out.say("action.replaced", up=entry["up"], old=replace if entry["up"] else None,
            new=card if entry["up"] else None)


def obstruct(state: State, hero_id: str, face: str | None, out: Out) -> None:
    """Obstruction: one of the hero's dice is out for this round. ``titan`` names a die showing a
    Titan face (still with the Titan, spent on an ability and due back at step 4, given back, or
    kept by Levi)."""
    hero = state["heroes"][hero_id]
    pool, spent = state["titan"]["pool"], state["titan"]["spent"]
    if face == "titan" and hero_id in pool:
        pool.remove(hero_id)
    elif face == "titan" and hero_id in spent:
        spent.remove(hero_id)
    elif face == "titan" and hero["returned"]:
        hero["returned"] -= 1
    elif any(d["face"] == face for d in hero["held"]):
        hero["held"].remove(next(d for d in hero["held"] if d["face"] == face))
    else:
        raise RuleError("choose.no_such_die", hero=hero_id, face=face,
                        faces=sorted(d["face"] for d in hero["held"]))
    hero["lost"] += 1
    out.say("hero.obstructed", hero=hero_id, face=face)
