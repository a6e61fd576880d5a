"""The Last Stand: the game object the session drives (setup, apply, views, expects), and the
handlers of its events, step 6 (the heroes' dice) included."""

from __future__ import annotations

import copy
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

from companion.engine import (
    Event,
    Expectation,
    Message,
    Prompt,
    RuleError,
    Step,
    Tally,
    check_accepted,
)
from companion.engine.catalog import OwnerTaught, learn, localized, working_copy

from . import board, steps, tactics
from .adjust import on_adjust
from .board import TITAN_LEVELS, TOWER_LEVELS, Out, State
from .catalog import CATALOG, DATA, check_definition, merged
from .dice import has_power, power_off, spend, spend_all
from .effects import choose, effect_tasks, options, run
from .notices import warnings
from .roles import ROLES, check_titan
from .schemas import EVENTS
from .setup import initial_state

ALWAYS = ("adjust", "teach", "top", "undo")
STEP_EVENTS = {
    1: ("commit",),
    2: ("roll", "give", "next"),
    3: ("ability", "next"),
    4: ("reroll", "next"),
    5: ("resolve",),
    6: ("move", "melee", "cannon", "cycle", "search", "provide", "activate", "next"),
}
TITAN_CHOICES = ("crush", "obstruct", "sudden_change", "frenzy")
PROMPT_KEYS = {
    "strike": "prompt.strike", "crush": "prompt.crush", "obstruct": "prompt.obstruct",
    "sudden_change": "prompt.sudden_change", "frenzy": "prompt.frenzy",
    "mutilate": "prompt.mutilate", "heal_hero": "prompt.heal_hero",
}


class LastStand(OwnerTaught):
    """The rules of Attack on Titan: The Last Stand (Cryptozoic / Don't Panic Games, 2017)."""

    id = "aot-last-stand"
    catalog = CATALOG
    events = EVENTS
    messages_dir = Path(__file__).parent / "messages"
    roles = ROLES
    """The secret roles: a player whose own phone sees and sends more than the shared page."""

    def setup(self, options: dict[str, Any]) -> Step:
        """Build the table from the setup event; the Titan commits its cards first."""
        out = Out()
        state = initial_state(options, out)
        out.say("step.commit", round=1, hand=len(state["titan"]["hand"]))
        label = Message("history.setup", {"titan": state["titan"]["card"],
                                          "heroes": list(state["heroes"])})
        return Step(state, out.messages, _prompts(state), label)

    def apply(self, state: State, event: Event) -> Step:
        """Apply one event to a copy of the state; the given state is never modified."""
        check_accepted(state, event, self.expects(state).events, ALWAYS, ALWAYS)
        new = working_copy(state)
        out = Out()
        HANDLERS[event.type](new, dict(event.fields), out)
        advance(new, out)
        return Step(new, out.messages, _prompts(new), out.label, out.learned)

    def names(self, lang: str, state: State | None = None) -> dict[str, str]:
        """Display names for the message catalogs: Titans, Action and Tactic cards, heroes."""
        catalog = state["catalog"] if state is not None else merged({})
        names = {}
        for kind in ("titan", "action", "tactic"):
            names.update({i: localized(d.get("name"), lang) or i for i, d in catalog[kind].items()})
        names.update({i: d["name"] for i, d in catalog["hero"].items()})
        return names

    def tally(self, state: State) -> Tally:
        """The history charts, round by round: the Titan's health marker, Citizens devoured,
        Cannons left and each hero's hearts."""
        return Tally(state["round"], {
            "chart.health": {"": state["health"]},
            "chart.devoured": {"": state["devoured"]},
            "chart.cannons": {"": state["cannons"]},
            "chart.hearts": {h["player"]: h["hearts"] for h in state["heroes"].values()},
        }, {"chart.health": state["track"]["length"], "chart.devoured": DATA["citizens"],
            "chart.cannons": DATA["cannons"], "chart.hearts": DATA["hearts"]})

    # -- reading -------------------------------------------------------------------------------

    def expects(self, state: State) -> Expectation:
        """What the table must provide next; the options of the Titan's own choices are left
        out (they would tell the hidden card): see :meth:`titan_expects`."""
        return _expects(state, titan=False)

    def titan_expects(self, state: State) -> Expectation:
        """What the table must provide next, with the options only the Titan may see."""
        return _expects(state, titan=True)

    def view(self, state: State) -> dict[str, Any]:
        """The shared picture of the table: never the face-down Action card nor the hand."""
        titan = state["titan"]
        top = tactics.top(state)
        return {
            "game": self.id,
            "status": state["status"],
            "reason": state["reason"],
            "winner": state["winner"],
            "round": state["round"],
            "step": state["step"],
            "expects": self.expects(state).to_json(),
            "prompts": _prompts_json(state),
            "health": {"marker": state["health"], "zone": board.zone(state), **state["track"],
                       "assumed": bool(state["catalog"]["track"]["health"].get("assumed"))},
            "citizens": {"left": DATA["citizens"] - state["devoured"],
                         "devoured": state["devoured"]},
            "cannons": {"left": state["cannons"], "used_this_round": state["cannon_used"]},
            "heroes": {h: {"name": hero["name"], "player": hero["player"],
                           "colour": hero["colour"], "hearts": hero["hearts"],
                           "level": hero["level"], "rolled": hero["rolled"],
                           "dice": sorted(d["face"] for d in hero["held"]),
                           "given_back": hero["returned"], "obstructed": hero["lost"],
                           "power_off": power_off(state, h)}
                       for h, hero in state["heroes"].items()},
            "titan": {"player": titan["player"], "card": titan["card"],
                      "hand_size": len(titan["hand"]), "set_aside": list(titan["set_aside"]),
                      "removed": list(titan["removed"]), "titan_dice": len(titan["pool"]),
                      "abilities": steps.abilities(state),
                      "blind": titan["blind"]},
            "actions": [{"card": e["card"] if e["up"] else None, "face_up": e["up"],
                         "resolved": e["done"]} for e in state["play"]],
            "tactic": {"top": top, "pile": len(state["tactics"]["pile"]),
                       "met": sorted(state["tactics"]["met"]), "needed": tactics.needed(state),
                       "conditions": copy.deepcopy(tactics.definition(state, top).get(
                           "conditions")) if top else None,
                       "used": list(state["tactics"]["used"])},
            "warnings": [m.to_json() for m in warnings(state)] if state["status"] == "playing"
            else [],
            "players": [{"name": titan["player"], "role": "titan"}] + [
                {"name": h["player"], "role": "hero", "hero": hid}
                for hid, h in state["heroes"].items()],
        }

    def role_view(self, role: str, state: State) -> dict[str, Any]:
        """A secret role's own picture (only the Titan's so far)."""
        return self.titan_view(state)

    def check_role(self, role: str, state: State, event: Event) -> None:
        """Refuse, naming the rule, an event that is not this role's to send now (the Titan's
        phone never sends the heroes' rolls, moves or payments, nor the host's corrections)."""
        check_titan(state, event)

    def titan_view(self, state: State) -> dict[str, Any]:
        """The Titan player's own picture: the shared one plus the hand, the face-down card and
        the options of the Titan's choices. Only the Titan's phone may be given it."""
        data = self.view(state)
        data["role"] = "titan"
        data["hand"] = list(state["titan"]["hand"])
        data["actions"] = [{"card": e["card"], "face_up": e["up"], "resolved": e["done"]}
                           for e in state["play"]]
        data["hidden"] = next((e["card"] for e in state["play"] if not e["up"]), None)
        data["expects"] = self.titan_expects(state).to_json()
        return data


def _expects(state: State, titan: bool) -> Expectation:
    if state["status"] != "playing":
        return Expectation("nothing", ())
    if state["queue"]:
        task = state["queue"][0]
        if task["do"] == "text":
            return Expectation("choice", ("answer",), Message("expect.answer"))
        shown = titan or task["do"] not in (*TITAN_CHOICES, "mutilate")
        if task["do"] in ("crush", "obstruct"):
            shown = True  # the heroes are no secret
        return Expectation("choice", ("choose",), Message("expect.choose", {"choice": task["do"]}),
                           options=options(state, task) if shown else None)
    step = state["step"]
    events = STEP_EVENTS[step]
    if step == 1:
        return Expectation("action", events, Message("expect.commit", {
            "blind": state["titan"]["blind"]}))
    if step == 2:
        waiting = [h for h, hero in state["heroes"].items() if not hero["rolled"]]
        first = state["heroes"][waiting[0]] if waiting else None
        return Expectation("dice", events, Message("expect.roll", {"heroes": waiting}),
                           profile="aot/hero",
                           count=DATA["dice_per_hero"] - first["lost"] if first else None)
    if step == 3:
        return Expectation("action", events, Message("expect.titan", {
            "dice": len(state["titan"]["pool"]), "zone": board.zone(state)}))
    if step == 4:
        count = sum(h["returned"] for h in state["heroes"].values())
        return Expectation("dice", events, Message("expect.reroll", {"count": count}),
                           profile="aot/hero", count=count)
    if step == 5:
        entry = steps.current(state)
        return Expectation("choice", events, Message("expect.resolve", {
            "card": entry["card"], "how": steps.counter_cost(state, entry).to_json()}))
    return Expectation("action", events, Message("expect.heroes"))


def _prompts_json(state: State) -> list[dict[str, Any]]:
    """The questions waiting for a person: a printed effect, a choice, an unnamed Tactic."""
    found: list[dict[str, Any]] = []
    if state["status"] != "playing":
        return found
    task = state["queue"][0] if state["queue"] else None
    if task and task["do"] == "text":
        source = task["source"]
        printed = _printed(state, source)
        found.append({"id": "text", "key": "prompt.printed_effect" if printed else
                      "prompt.unknown_effect",
                      "params": {"card": source.get("card"), "ability": source.get("ability"),
                                 "titan": state["titan"]["card"], "text": printed},
                      "options": [], "default": [], "answer": "answer"})
    elif task:
        found.append({"id": task["do"], "key": PROMPT_KEYS[task["do"]], "params": {},
                      "options": [], "default": None, "answer": "choose"})
    if tactics.top(state) is None and state["tactics"]["pile"]:
        found.append({"id": "top", "key": "prompt.tactic_top", "params": {},
                      "options": list(state["tactics"]["unknown"]), "default": None,
                      "answer": "top"})
    return found


def _prompts(state: State) -> list[Prompt]:
    return [Prompt(**p) for p in _prompts_json(state)]


def _printed(state: State, source: Mapping[str, Any]) -> str | None:
    catalog = state["catalog"]
    if "card" in source:
        item = catalog["action"].get(source["card"], {})
    else:
        item = catalog["ability"].get(f"{state['titan']['card']}.{source['ability']}", {})
    return localized(item.get("text")) or None


def advance(state: State, out: Out) -> None:
    """After an event: work through the effects, activate a Tactic whose conditions are met,
    and in step 5 turn over the next card or, all resolved, hand over to the heroes (step 6)."""
    run(state, out)
    while state["status"] == "playing" and not state["queue"]:
        if state["step"] == 6:
            state["queue"] = tactics.check(state, out)
            run(state, out)
            return
        if state["step"] != 5:
            return
        if steps.current(state) is not None:
            steps.reveal(state, out)
            return
        state["step"] = 6
        out.say("step.heroes")


# -- handlers ----------------------------------------------------------------------------------

Handler = Callable[[State, dict[str, Any], Out], None]


def _hero(state: State, hero_id: str) -> dict[str, Any]:
    if hero_id not in state["heroes"]:
        raise RuleError("hero.unknown", hero=hero_id, known=sorted(state["heroes"]))
    return state["heroes"][hero_id]


def _check_payers(state: State, pay: Mapping[str, Any]) -> None:
    for hero_id in pay:
        _hero(state, hero_id)


def on_commit(state: State, fields: dict[str, Any], out: Out) -> None:
    """Step 1: the Titan's two Action cards."""
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
    out.label = Message("history.give", {"gifts": fields["gifts"]})


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
    """Step 3: the Titan activates an ability of its card (taught on the spot with ``define``)."""
    item = f"{state['titan']['card']}.{fields['n']}"
    if "define" in fields:
        learn(state, "ability", item, check_definition("ability", item, fields["define"]), out)
    definition = state["catalog"]["ability"].get(item)
    state["queue"] += steps.ability(state, fields["n"], definition, out)
    out.label = Message("history.ability", {"n": fields["n"]})


def on_reroll(state: State, fields: dict[str, Any], out: Out) -> None:
    """Step 4: a hero rerolls dice the Titan gave back."""
    _hero(state, fields["hero"])
    steps.reroll(state, fields["hero"], fields["faces"], out)
    out.label = Message("history.reroll", {"hero": fields["hero"], "faces": fields["faces"]})


def on_resolve(state: State, fields: dict[str, Any], out: Out) -> None:
    """Step 5: the card turned up is countered or suffered (taught on the spot with ``define``)."""
    card = steps.current(state)["card"]
    if "define" in fields:
        learn(state, "action", card, check_definition("action", card, fields["define"]), out)
    pay = fields.get("pay", {})
    _check_payers(state, pay)
    state["queue"] += steps.resolve(state, pay, fields.get("cancelled"), out)
    out.label = Message("history.resolve", {"card": card, "pay": pay})


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
                                             "pay": fields["pay"]})


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
