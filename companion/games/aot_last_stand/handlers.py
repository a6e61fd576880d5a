"""Attack on Titan: what each accepted event does to the state (one handler per event type)."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from companion.engine import Message, RuleError
from companion.engine.catalog import learn

from . import board, steps, tactics
from .adjust import on_adjust
from .board import TITAN_LEVELS, TOWER_LEVELS, Out, State
from .catalog import DATA, check_definition
from .dice import has_power, spend, spend_all
from .effects import choose, effect_tasks
from .roles import TITAN_CHOICES

Handler = Callable[[State, dict[str, Any], Out], None]


def _hero(state: State, hero_id: str) -> dict[str, Any]:
    if hero_id not in state["heroes"]:
        raise RuleError("hero.unknown", hero=hero_id, known=sorted(state["heroes"]))
    return state["heroes"][hero_id]


def paid(pay: Mapping[str, Mapping[str, int]]) -> list[dict[str, Any]]:
    """A payment as the history says it: each hero with the symbols they gave, in words."""
    return [Message("history.paid", {"hero": h, "symbols": dict(needs)}).to_json()
            for h, needs in pay.items()]


def _check_payers(state: State, pay: Mapping[str, Any]) -> None:
    for hero_id in pay:
        _hero(state, hero_id)


def on_commit(state: State, fields: dict[str, Any], out: Out) -> None:
    """Step 1: the Titan's two Action cards; sent during step 6 from the shared page, the heroes
    are done with their dice and the round ends first (step 7, «Fin du tour et nettoyage»)."""
    if state["step"] == 6:
        steps.cleanup(state, out)
    steps.commit(state, fields["up"], fields["down"], out)
    out.label = Message("history.commit", {"up": fields["up"]})


def on_roll(state: State, fields: dict[str, Any], out: Out) -> None:
    """Step 2: a hero's roll or reroll."""
    _hero(state, fields["hero"])
    steps.roll(state, fields["hero"], fields["faces"], fields.get("reroll"), out)
    out.label = Message("history.roll", {"hero": fields["hero"], "faces": fields["faces"]})


def on_give(state: State, fields: dict[str, Any], out: Out) -> None:
    """End of step 2 with Eren's gifts."""
    steps.give(state, fields["gifts"], out)
    steps.end_rolls(state, out)
    out.label = Message("history.give", {"gifts": steps.gifts_said(fields["gifts"])})


def on_next(state: State, fields: dict[str, Any], out: Out) -> None:
    """The current step is over."""
    step = state["step"]
    if step == 2:
        steps.end_rolls(state, out)
    elif step == 3:
        steps.give_back(state, out)
    elif step == 4:
        steps.start_resolution(state, out)
    else:
        steps.cleanup(state, out)
    out.label = Message("history.next", {"step": step})


def on_ability(state: State, fields: dict[str, Any], out: Out) -> None:
    """Step 3: the Titan activates an ability of its card (taught on the spot with ``define``);
    sent once every hero has rolled, the heroes are satisfied and step 2 ends first («Une fois
    que tous les Héros sont satisfaits de leurs dés, l'étape 2 est terminée»)."""
    if state["step"] == 2:
        steps.end_rolls(state, out)
    item = f"{state['titan']['card']}.{fields['n']}"
    if "define" in fields:
        learn(state, "ability", item, check_definition("ability", item, fields["define"]), out)
    definition = state["catalog"]["ability"].get(item)
    state["queue"] += steps.ability(state, fields["n"], definition, out)
    out.label = Message("history.ability", {"n": fields["n"]})


def on_reroll(state: State, fields: dict[str, Any], out: Out) -> None:
    """Step 4: a hero rerolls dice the Titan gave back; sent in step 3, the dice are back in
    the heroes' hands, so the Titan has given them back («utilisés ou non, le Titan rend les dés
    aux Héros à la fin de cette étape»)."""
    _hero(state, fields["hero"])
    if state["step"] == 3:
        steps.give_back(state, out)
    steps.reroll(state, fields["hero"], fields["faces"], out)
    out.label = Message("history.reroll", {"hero": fields["hero"], "faces": fields["faces"]})


def on_resolve(state: State, fields: dict[str, Any], out: Out) -> None:
    """Step 5: the card turned up is countered or suffered (taught on the spot with ``define``).
    Sent in step 4, the heroes are done with their last chance to reroll; sent once every hero
    has rolled and the Titan has no Titan face, they are satisfied with their dice."""
    if state["step"] == 2:
        steps.end_rolls(state, out)
    elif state["step"] == 4:
        steps.start_resolution(state, out)
    card = steps.current(state)["card"]
    if "define" in fields:
        learn(state, "action", card, check_definition("action", card, fields["define"]), out)
    pay = fields.get("pay", {})
    _check_payers(state, pay)
    state["queue"] += steps.resolve(state, pay, fields.get("cancelled"), out)
    out.label = Message("history.resolve", {"card": card, "pay": paid(pay)})


def on_choose(state: State, fields: dict[str, Any], out: Out) -> None:
    """The answer to the waiting choice."""
    kind = state["queue"][0]["do"]
    choose(state, fields, out)
    shown = {k: v for k, v in fields.items() if k == "hero" or kind not in TITAN_CHOICES}
    out.label = Message("history.choose", {"choice": kind, "answer": shown})


def on_answer(state: State, fields: dict[str, Any], out: Out) -> None:
    """What a printed effect the companion could not apply did, in the vocabulary."""
    task = state["queue"][0]
    if task["do"] != "text":
        raise RuleError("event.not_expected", event="answer", expected=["choose"])
    state["queue"].pop(0)
    effects = fields.get("effects", [])
    state["queue"][:0] = effect_tasks(effects, task["source"])
    out.label = Message("history.answer", {"count": len(effects)})


def on_move(state: State, fields: dict[str, Any], out: Out) -> None:
    """Step 6: one Move symbol per level, the Tower reached from the ground in one («☞»)."""
    hero_id, to = fields["hero"], fields["to"]
    origin = _hero(state, hero_id)["level"]
    if to == origin:
        raise RuleError("move.same_level", hero=hero_id, level=to)
    moves = board.distance(origin, to)
    spend(state, hero_id, {"move": moves})
    state["heroes"][hero_id]["level"] = to
    out.say("hero.moved", hero=hero_id, level=to, moves=moves)
    out.label = Message("history.move", {"hero": hero_id, "origin": origin, "level": to})


def on_melee(state: State, fields: dict[str, Any], out: Out) -> None:
    """Step 6: on a platform of the Titan, 1 damage per Combat symbol."""
    hero_id, count = fields["hero"], fields["count"]
    level = _hero(state, hero_id)["level"]
    if level not in TITAN_LEVELS:
        raise RuleError("melee.not_on_titan", hero=hero_id, level=level, levels=list(TITAN_LEVELS))
    spend(state, hero_id, {"combat": count})
    board.damage(state, count * DATA["melee_damage"], out)
    out.label = Message("history.melee", {"hero": hero_id, "count": count})


def on_cannon(state: State, fields: dict[str, Any], out: Out) -> None:
    """Step 6: from the Tower (Hange anywhere), 2 damage per Cannon symbol; never more Cannon
    symbols in a round than Cannons on the Tower."""
    hero_id, count = fields["hero"], fields["count"]
    level = _hero(state, hero_id)["level"]
    if level not in TOWER_LEVELS and not has_power(state, hero_id, "cannon_anywhere"):
        raise RuleError("cannon.not_on_tower", hero=hero_id, level=level,
                        levels=list(TOWER_LEVELS))
    if state["cannon_used"] + count > state["cannons"]:
        raise RuleError("cannon.too_many", count=count, used=state["cannon_used"],
                        cannons=state["cannons"])
    spend(state, hero_id, {"cannon": count})
    state["cannon_used"] += count
    board.damage(state, count * DATA["cannon_damage"], out)
    out.label = Message("history.cannon", {"hero": hero_id, "count": count})


def on_cycle(state: State, fields: dict[str, Any], out: Out) -> None:
    """Step 6: Tactic symbols put the top Tactic card under the pile, one each."""
    _check_payers(state, fields["pay"])
    tactics.cycle(state, fields["pay"], out)
    out.label = Message("history.cycle", {"count": sum(fields["pay"].values())})


def on_search(state: State, fields: dict[str, Any], out: Out) -> None:
    """Step 6: Armin puts the Tactic card of his choice on top for one Tactic symbol."""
    hero_id = fields["hero"]
    _hero(state, hero_id)
    if not has_power(state, hero_id, "search"):
        raise RuleError("search.no_power", hero=hero_id)
    tactics.search(state, hero_id, fields["card"], out)
    out.label = Message("history.search", {"hero": hero_id, "card": fields["card"]})


def on_provide(state: State, fields: dict[str, Any], out: Out) -> None:
    """Step 6: a condition of the Tactic card in play is met."""
    _check_payers(state, fields["pay"])
    tactics.provide(state, fields["condition"], fields["pay"], out)
    out.label = Message("history.provide", {"condition": fields["condition"],
                                             "pay": paid(fields["pay"])})


def on_activate(state: State, fields: dict[str, Any], out: Out) -> None:
    """Step 6: the heroes say they met the printed conditions of a Tactic card the companion
    does not know yet; the dice they spent are taken off. A victory card still needs the KILL
    ZONE (and the level 8 hero with two heroes)."""
    card = tactics.known_top(state)
    if tactics.definition(state, card).get("conditions") is not None:
        raise RuleError("tactic.conditions_known", card=card, expected="provide")
    tactics.require_blow(state, card)
    pay = fields.get("pay", {})
    _check_payers(state, pay)
    spend_all(state, pay)
    state["queue"] += tactics.activate(state, card, out)
    out.label = Message("history.activate", {"card": card})


def on_top(state: State, fields: dict[str, Any], out: Out) -> None:
    """The table names the Tactic card on top of the pile."""
    tactics.identify(state, fields["card"], out)
    out.label = Message("history.top", {"card": fields["card"]})


def on_teach(state: State, fields: dict[str, Any], out: Out) -> None:
    """The owner completes a definition (a card, an ability, a hero's symbol, the track)."""
    kind, item = fields["kind"], fields["id"]
    learn(state, kind, item, check_definition(kind, item, fields["definition"]), out)
    if kind == "track" and item == "health":  # the real track replaces the assumed one now
        track = state["catalog"]["track"]["health"]
        state["track"] = {k: track[k] for k in ("length", "weak", "kill")}
        state["health"] = min(state["health"], track["length"])
    out.label = Message("history.teach", {"kind": kind, "id": item})


HANDLERS: dict[str, Handler] = {
    "commit": on_commit, "roll": on_roll, "give": on_give, "next": on_next,
    "ability": on_ability, "reroll": on_reroll, "resolve": on_resolve, "choose": on_choose,
    "answer": on_answer, "move": on_move, "melee": on_melee, "cannon": on_cannon,
    "cycle": on_cycle, "search": on_search, "provide": on_provide, "activate": on_activate,
    "top": on_top, "adjust": on_adjust, "teach": on_teach,
}
