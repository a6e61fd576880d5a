"""The Last Stand: the game object the session drives (setup, apply, views, expects), and the
handlers of its events, step 6 (the heroes' dice) included."""

from __future__ import annotations

import copy
import json
from collections import Counter
from collections.abc import Mapping
from functools import cache, cached_property
from pathlib import Path
from typing import Any

from companion.engine import (
    Blank,
    Capabilities,
    Event,
    Expectation,
    Message,
    Prompt,
    Roles,
    Step,
    Tally,
    Template,
)
from companion.engine.catalog import localized
from companion.engine.rules import RulesGame

from . import board, steps, tactics
from .board import Out, State
from .catalog import CATALOG, DATA, FACES, merged
from .dice import power_off
from .effects import options, run
from .handlers import HANDLERS
from .notices import warnings
from .roles import ROLES, TITAN_TASKS, check_titan
from .schemas import EVENTS
from .setup import initial_state
from .taps import taps
from .upcasts import round_inferred

PHASE_EVENTS = {  # by step
    1: ("commit",),
    2: ("roll", "give", "next"),
    3: ("ability", "next"),
    4: ("reroll", "next"),
    5: ("resolve",),
    6: ("move", "melee", "cannon", "cycle", "search", "provide", "activate", "next"),
}
PROFILE = "aot/hero"
MESSAGES = Path(__file__).parent / "messages"
PROMPT_KEYS = {
    "strike": "prompt.strike", "crush": "prompt.crush", "obstruct": "prompt.obstruct",
    "sudden_change": "prompt.sudden_change", "frenzy": "prompt.frenzy",
    "mutilate": "prompt.mutilate", "heal_hero": "prompt.heal_hero",
}

#: Key prefixes of this game's warnings (see :class:`~companion.engine.Capabilities`).
WARNINGS = ("hero.hurt",)


class LastStand(RulesGame):
    """The rules of Attack on Titan: The Last Stand (Cryptozoic / Don't Panic Games, 2017)."""

    id = "aot-last-stand"
    catalog = CATALOG
    events = EVENTS
    messages_dir = MESSAGES
    handlers = HANDLERS
    anytime = ("adjust", "teach", "top")  # the Tactic pile's top may be named at any time

    @cached_property
    def capabilities(self) -> Capabilities:
        """The charts, names, page, warnings and secret roles of this game: the Titan's player,
        whose own phone sees and sends more than the shared page; and what an older journal holds
        that the round now does by itself."""
        return Capabilities(page=Path(__file__).parent / "page.js", tally=self.tally,
                            names=self.names, schemas=CATALOG.schemas, warnings=WARNINGS,
                            roles=Roles(ROLES, self.role_view, self.check_role), dice=(PROFILE,),
                            upcasters={1: round_inferred})

    def setup(self, options: dict[str, Any]) -> Step:
        """Build the table from the setup event; the Titan commits its cards first."""
        out = Out()
        state = initial_state(options, out)
        out.say("step.commit", round=1, hand=len(state["titan"]["hand"]))
        label = Message("history.setup", {"titan": state["titan"]["card"],
                                          "heroes": list(state["heroes"])})
        return Step(state, out.messages, self.prompts(state), label)

    def follow(self, state: State, out: Out) -> None:
        """Go through the steps that need nothing from the table."""
        advance(state, out)

    def prompts(self, state: State) -> list[Prompt]:
        """The questions waiting for a person: a printed effect, a choice, an unnamed Tactic."""
        return [Prompt(**p) for p in _prompts_json(state)]

    def names(self, lang: str, state: State | None = None) -> dict[str, str]:
        """Display names for the message catalogs: Titans, Action and Tactic cards, heroes."""
        catalog = state["catalog"] if state is not None else merged({})
        names = {}
        for kind in ("titan", "action", "tactic"):
            names.update({i: localized(d.get("name"), lang) or i for i, d in catalog[kind].items()})
        names.update({i: d["name"] for i, d in catalog["hero"].items()})
        unnamed = _unnamed(lang)
        for titan in catalog["titan"].values():  # a card not taught yet: its place in the deck
            names.update({card: unnamed.format(n=n) for n, card in
                          enumerate(titan["actions"], start=1) if card not in names})
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
            "gift_given": state["gift"],
            "heroes": {h: {"name": hero["name"], "player": hero["player"],
                           "colour": hero["colour"], "hearts": hero["hearts"],
                           "level": hero["level"], "rolled": hero["rolled"],
                           "dice": sorted(d["face"] for d in hero["held"]),
                           "given_back": hero["returned"], "obstructed": hero["lost"],
                           "power_off": power_off(state, h)}
                       for h, hero in state["heroes"].items()},
            "titan": {"player": titan["player"], "card": titan["card"],
                      # step 1: the hand is the seven cards less those set aside and removed,
                      # no secret; later a card in play is hidden, and so is the hand
                      "committable": sorted(titan["hand"]) if state["step"] == 1 else [],
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
            "taps": taps(state, lambda e: self.takes(state, e), titan=False),
        }

    def try_event(self, state: State, event: dict[str, Any], titan: bool = False) -> None:
        """Apply ``event`` to a copy of the state (raises the refusal; the table is not
        touched); ``titan``: as sent from the Titan's own phone."""
        self.attempt(state, event, check_titan if titan else None)

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
        data["taps"] = taps(state, lambda e: self.takes(state, e, check_titan),
                            titan=True)
        return data


@cache
def _unnamed(lang: str) -> str:
    """The name of an Action card the owner has not taught (its printed name is not public)."""
    path = MESSAGES / f"{lang}.json"
    texts = json.loads((path if path.exists() else MESSAGES / "en.json").read_text(
        encoding="utf-8"))
    return texts["card.unnamed"]


def _expects(state: State, titan: bool) -> Expectation:
    if state["status"] != "playing":
        return Expectation("nothing", ())
    if state["queue"]:
        task = state["queue"][0]
        if task["do"] == "text":
            answer = Template("answer", blank=Blank("form", "effects"))
            return Expectation("choice", ("answer",), Message("expect.answer"),
                               templates=(answer,), next=answer.fill([]))
        shown = titan or task["do"] not in TITAN_TASKS
        if task["do"] in ("crush", "obstruct"):
            shown = True  # the heroes are no secret
        choices = options(state, task) if shown else None
        return Expectation("choice", ("choose",), Message("expect.choose", {"choice": task["do"]}),
                           options=choices,
                           templates=(Template("choose", blank=Blank("form", options=choices)),))
    step = state["step"]
    folded = () if titan else _folded(state)
    # step 6: the next round's cards first, so the round ends in the first screen
    events = (*folded, *PHASE_EVENTS[step]) if step == 6 else (*PHASE_EVENTS[step], *folded)
    if step == 1:
        return Expectation("action", events, Message("expect.commit", {
            "blind": state["titan"]["blind"]}), templates=(*_forms(events), _shown(state)))
    if step == 2:
        waiting = {h: DATA["dice_per_hero"] - hero["lost"]
                   for h, hero in state["heroes"].items() if not hero["rolled"]}
        return _dice(state, events, "roll", waiting,
                     Message("expect.roll", {"heroes": list(waiting)}))
    if step == 3:
        params = {"dice": len(state["titan"]["pool"]), "zone": board.zone(state)}
        if titan:
            return Expectation("action", events, Message("expect.titan", params),
                               templates=_forms(events))
        return _dice(state, events, "reroll", _given_back(state),
                     Message("expect.titan_given_back", params))
    if step == 4:
        back = {h: hero["returned"] for h, hero in state["heroes"].items() if hero["returned"]}
        return _dice(state, events, "reroll", back, Message("expect.reroll", {
            "count": sum(back.values())}))
    if step == 5:
        entry = steps.current(state)
        return Expectation("choice", events, Message("expect.resolve", {
            "card": entry["card"], "how": steps.counter_cost(state, entry).to_json()}),
            templates=(Template("resolve", blank=Blank("form")),), next={"type": "resolve"})
    return Expectation("action", events, Message("expect.heroes" if titan else
                                                 "expect.heroes_next_round"),
                       templates=_forms(events))


def _folded(state: State) -> tuple[str, ...]:
    """The events of a later step the shared page may send now, each ending the steps before it
    as the rulebook says they end (see :mod:`.handlers`): the heroes are satisfied with their
    dice once the Titan uses its faces, or once they resolve a card when the Titan has none;
    the Titan has given the dice back once they are rerolled; the rerolls are over once a card
    is resolved; step 6 is over once the Titan commits the next round's cards. The Titan's own
    phone never ends the heroes' steps."""
    step = state["step"]
    if step == 2 and all(hero["rolled"] for hero in state["heroes"].values()):
        return ("ability",) if state["titan"]["pool"] else ("resolve",)
    return {3: ("reroll",), 4: ("resolve",), 6: ("commit",)}.get(step, ())


def _given_back(state: State) -> dict[str, int]:
    """How many dice each hero gets back at the end of step 3 (spent or not)."""
    return dict(Counter(state["titan"]["pool"] + state["titan"]["spent"]))


def _dice(state: State, events: tuple[str, ...], kind: str, counts: dict[str, int],
          message: Message) -> Expectation:
    """A step that waits for dice: a ``kind`` template per hero of ``counts`` (with their count
    of dice and the colour of the hero's dice, so that one photo of the heroes' dice thrown
    together fills each one's: «lancent une première fois tous leurs dés, simultanément»), and
    the forms of its other events; the count asked is the first hero's. With nobody left to
    roll (step 2 once every hero has rolled) it waits for an action."""
    dice = tuple(Template(kind, {"hero": h}, Blank("dice", "faces", PROFILE, n, list(FACES),
                                                   colour=state["heroes"][h]["colour"]))
                 for h, n in counts.items())
    return Expectation("dice" if counts else "action", events, message, profile=PROFILE,
                       count=next(iter(counts.values()), None),
                       templates=(*dice, *_forms(events, (kind,))))


def _shown(state: State) -> Template:
    """Step 1's two Action cards shown to the card camera, as the page's picker takes them: the
    face-up card first («face visible»), then the face-down one."""
    return Template("commit", blank=Blank("card", "up", options=sorted(state["titan"]["hand"]),
                                          extra=("down",)))


def _forms(events: tuple[str, ...], left_out: tuple[str, ...] = ()) -> tuple[Template, ...]:
    """Templates of the events a person fills in on a phone (``next`` is complete as it is)."""
    return tuple(Template(e, blank=None if e == "next" else Blank("form"))
                 for e in events if e not in left_out)


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





def _printed(state: State, source: Mapping[str, Any]) -> str | None:
    catalog = state["catalog"]
    if "card" in source:
        item = catalog["action"].get(source["card"], {})
    else:
        item = catalog["ability"].get(f"{state['titan']['card']}.{source['ability']}", {})
    return localized(item.get("text")) or None


def advance(state: State, out: Out) -> None:
    """After an event: work through the effects, activate a Tactic whose conditions are met,
    in step 5 turn over the next card and apply it when the heroes cannot counter it, all
    resolved hand over to the heroes (step 6), and end step 6 once nothing is left to do."""
    run(state, out)
    while state["status"] == "playing" and not state["queue"]:
        if state["step"] == 6:
            state["queue"] = tactics.check(state, out)
            run(state, out)
            if state["status"] == "playing" and not state["queue"] and steps.nothing_left(state):
                out.say("step.nothing_left")
                steps.cleanup(state, out)
            return
        if state["step"] != 5:
            return
        entry = steps.current(state)
        if entry is None:
            state["step"] = 6
            out.say("step.heroes")
        else:
            steps.reveal(state, out)
            if steps.counterable(state, entry):
                return
            out.say("action.no_counter", card=entry["card"])
            state["queue"] += steps.resolve(state, {}, None, out)
            run(state, out)
