"""Last Bastion: what the table must provide next (complete event templates and the "next"
button's event) and the questions waiting for a person."""

from __future__ import annotations

import copy
from collections.abc import Mapping
from typing import Any

from companion.engine import Blank, Expectation, Message, Template

from . import combat
from .catalog import COMBAT_FACES
from .flow import active_hero, card_def, legal_slots
from .tokens import State, slot_entry

FREE_EVENTS = ("move", "activate", "fight", "power", "end_turn")
COMBAT = "last-bastion/combat"
CORRUPTION = "last-bastion/corruption"
#: The field of a prompt's answer event that its default fills, by answer event type.
ANSWER_FIELDS = {"assign": "hero", "answer": "choice"}


def expects(state: State) -> Expectation:
    """What the table must provide next, read from the head of the task queue."""
    if state["status"] != "playing":
        return Expectation("nothing", ())
    if not state["queue"]:
        hero = active_hero(state)
        templates = tuple(Template(t, blank=None if t == "end_turn" else Blank("form"))
                          for t in FREE_EVENTS)
        return Expectation("action", FREE_EVENTS, Message("expect.hero_phase", {"hero": hero}),
                           templates=templates, next={"type": "end_turn"})
    task = state["queue"][0]
    kind = task["do"]
    if kind == "draw":
        return Expectation("card", ("card",), Message("expect.card"), templates=(
            Template("card", blank=Blank("card", "id", options=drawable(state))),))
    if kind == "place":
        options = legal_slots(state, card_def(state, task["card"]))
        return _choice(state, "place", "slot", options, Message("expect.place", {
            "card": card_def(state, task["card"])["name"]}))
    if kind in ("fight", "market"):
        roll = state["combat"]
        if roll["faces"] is None:
            count = 2 if kind == "market" else 3
            grey = roll.get("grey_die", False)
            blank = Blank("dice", "faces", COMBAT, count, list(COMBAT_FACES),
                          ("grey",) if grey else ())
            return Expectation("dice", ("dice",), Message(f"expect.dice_{kind}", {
                "count": count, "grey": grey}), profile=COMBAT, count=count,
                templates=(Template("dice", blank=blank),))
        return _resolve(state, Message(f"expect.resolve_{kind}"), COMBAT, len(roll["faces"]))
    if kind == "corruption":
        faces = sorted(state["catalog"]["corruption"])
        if task.get("face") is None:
            return Expectation("dice", ("dice",), Message("expect.dice_corruption"),
                               profile=CORRUPTION, count=1, templates=(
                                   Template("dice", blank=Blank("dice", "faces", CORRUPTION, 1,
                                                                faces)),))
        return _resolve(state, Message("expect.keep_corruption"), CORRUPTION, 1)
    if kind == "effect" and task.get("who") is None and "candidates" in task:
        return _choice(state, "assign", "hero", task["candidates"], Message("expect.assign", {
            "op": task["effect"]["op"]}))
    options = task.get("options")
    return _choice(state, "answer", "choice" if options else "effects", options,
                   Message("expect.answer"))


def _choice(state: State, event: str, field: str, options: list[Any] | None,
            message: Message) -> Expectation:
    """A choice a person makes, answered by ``event``'s ``field``: the "next" button takes the
    waiting prompt's default, or the only legal option."""
    template = Template(event, blank=Blank("choice" if options is not None else "form", field,
                                           options=options))
    prompt = next((p for p in _waiting_prompts(state) if p["answer"] == event), None)
    suggested = None
    if prompt is not None:
        suggested = template.fill(prompt["default"])
    elif options is not None and len(options) == 1:
        suggested = template.fill(options[0])
    return Expectation("choice", (event,), message, options=options, templates=(template,),
                       next=suggested)


def _resolve(state: State, message: Message, profile: str, count: int) -> Expectation:
    """A roll on the table: "next" keeps it as the companion suggests (an empty ``resolve``),
    or the dice are rolled again."""
    faces = list(COMBAT_FACES) if profile == COMBAT else sorted(state["catalog"]["corruption"])
    return Expectation("choice", ("resolve", "dice"), message, templates=(
        Template("resolve"), Template("dice", blank=Blank("dice", "faces", profile, count, faces))),
        next={"type": "resolve"})


def drawable(state: State) -> list[str]:
    """The known cards the deck may give now: not drawn yet, of the type it calls for (a Warlord
    at a Warlord's place), with the colour and resistance a card needs to be played."""
    deck = state["deck"]
    kind = "warlord" if deck["drawn"] in deck["warlords"] else "monster"
    return sorted(card_id for card_id, card in state["catalog"]["card"].items()
                  if card_id not in deck["seen"] and card.get("type") == kind
                  and card.get("colour") and card.get("resistance") is not None)


def prompts(state: State) -> list[dict[str, Any]]:
    """The question waiting at the head of the queue, if a human must answer one (a copy: the
    caller may keep or change it without touching the state)."""
    return copy.deepcopy(_waiting_prompts(state))


def _waiting_prompts(state: State) -> list[dict[str, Any]]:
    if state["status"] != "playing" or not state["queue"]:
        return []
    task = state["queue"][0]
    source = task.get("source", {})
    if task["do"] == "text":
        name = _source_name(state, source)
        return [{"id": "text", "key": "prompt.printed_effect" if task["text"] else
                 "prompt.unknown_effect",
                 "params": {"source": name, "timing": source.get("timing"), "text": task["text"],
                            "hero": task.get("who")},
                 "options": [], "default": [], "answer": "answer"}]
    if task["do"] == "effect" and task.get("who") is None and "candidates" in task:
        return [{"id": "assign", "key": "prompt.assign",
                 "params": {"op": task["effect"]["op"], "source": _source_name(state, source)},
                 "options": task["candidates"], "default": task["candidates"][0],
                 "answer": "assign"}]
    if task["do"] == "order":
        names = [card_def(state, slot_entry(state, s)["card"])["name"] for s in task["options"]]
        return [{"id": "order", "key": "prompt.choose_order", "params": {"cards": names},
                 "options": task["options"], "default": task["options"], "answer": "answer"}]
    if task.get("options"):
        return [{"id": task["do"], "key": f"prompt.choose_{task['effect']['op']}"
                 if task["do"] == "effect" else f"prompt.choose_{task['do']}",
                 "params": {"hero": task.get("who")}, "options": task["options"],
                 "default": task["options"][0], "answer": "answer"}]
    if task["do"] in ("fight", "market") and state["combat"]["faces"] is not None:
        default = _default_resolution(state, task["do"])
        return [{"id": task["do"], "key": f"prompt.resolve_{task['do']}", "params": {},
                 "options": [], "default": default, "answer": "resolve"}]
    return []


def _source_name(state: State, source: Mapping[str, Any]) -> str:
    if "card" in source:
        return card_def(state, source["card"])["name"]
    if "tile" in source:
        return state["catalog"]["tile"][source["tile"]]["name"]  # one per language
    if "board" in source:
        return source["board"]
    return source.get("face") or source.get("rule", "")


def _default_resolution(state: State, kind: str) -> dict[str, Any]:
    if kind == "market":
        return {"gains": market_default(state)}
    return combat.suggestion(state, state["combat"])


def market_default(state: State) -> list[str]:
    """The Equipment a Market roll takes: the faces rolled, a white face as the colour the
    reserve holds most of."""
    pool = state["reserve"]["equipment"]
    best = max(pool, key=lambda c: pool[c])
    return [best if f == "white" else f for f in state["combat"]["faces"]]

