"""Runemasters: the game object the session drives (setup, apply, view, expects)."""

from __future__ import annotations

from collections.abc import Callable
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
from companion.engine.catalog import OwnerTaught, learn, working_copy

from . import actions, adjust, powers
from .catalog import CATALOG, DATA, DAWN, card_name, check_definition
from .flow import deck_size, dice_count, draw_monster, give_angel, next_turn, reveal_event
from .schemas import EVENTS
from .setup import initial_state
from .table import Out, State
from .view import prompts, view

ACTIONS = ("hit", "move", "block", "charge", "reroll", "release", "mark", "ultimate",
           "end_turn")
PHASE_EVENTS = {"setup_monsters": ("card",), "event": ("card",), "appear": ("card",),
                "angel": ("angel",), "roll": ("dice",), "reroll": ("dice",),
                "actions": ACTIONS, "over": ()}
ALWAYS = ("teach",)
CORRECTIONS = ("adjust",)  # accepted in every phase while playing; like teach, not in expects
PROFILE = "runemasters/rune"


class Runemasters(OwnerTaught):
    """The rules of Runemasters (Funforge, 2024) as a pure state machine."""

    id = "runemasters"
    catalog = CATALOG
    events = EVENTS
    messages_dir = Path(__file__).parent / "messages"

    def setup(self, options: dict[str, Any]) -> Step:
        """Build the table from the setup event; the first three monsters are drawn next."""
        out = Out()
        state = initial_state(options, out)
        label = Message("history.setup", {"guardians": list(state["order"]),
                                          "difficulty": state["difficulty"]})
        return Step(state, out.messages, self._prompts(state), label)

    def apply(self, state: State, event: Event) -> Step:
        """Apply one event to a copy of the state; the given state is never modified."""
        check_accepted(state, event, self.expects(state).events, ALWAYS,
                       (*ALWAYS, *CORRECTIONS))
        new = working_copy(state)
        out = Out()
        fields = dict(event.fields)
        label = LABELS[event.type](state, fields)
        HANDLERS[event.type](new, fields, out)
        return Step(new, out.messages, self._prompts(new), label, out.learned)

    def expects(self, state: State) -> Expectation:
        """What the table must provide next."""
        phase = state["phase"]
        events = PHASE_EVENTS[phase]
        if phase == "over":
            return Expectation("nothing", ())
        if phase in ("setup_monsters", "appear"):
            return Expectation("card", events, Message("expect.monster", {
                "guardian": state["active"], "setup": phase == "setup_monsters"}))
        if phase == "event":
            return Expectation("card", events, Message("expect.event", {
                "elder": state["elder"], "round": state["round"]["number"]}))
        if phase == "angel":
            options = [g for g in state["order"] if state["guardians"][g]["alive"]]
            return Expectation("choice", events, Message("expect.angel"), options=options)
        if phase == "roll":
            count = dice_count(state)
            return Expectation("dice", events, Message("expect.roll", {
                "guardian": state["active"], "count": count}), profile=PROFILE, count=count)
        if phase == "reroll":
            count = len(state["turn"]["rerolling"])
            return Expectation("dice", events, Message("expect.reroll", {
                "guardian": state["active"], "count": count}), profile=PROFILE, count=count)
        return Expectation("action", events, Message("expect.actions", {
            "guardian": state["active"]}))

    def view(self, state: State) -> dict[str, Any]:
        """The dashboard's picture of the table."""
        return view(state, self.expects(state).to_json())

    def tally(self, state: State) -> Tally:
        """The history charts, round by round: each guardian's Life, the Temple's Life and the
        monster cards left in the pile."""
        return Tally(state["round"]["number"], {
            "chart.life": {g["player"] or DATA["guardians"][gid]["name"]: g["life"]
                           for gid, g in state["guardians"].items()},
            "chart.temple": {"": state["temple"]["life"]},
            "chart.monsters": {"": deck_size(state) - state["deck"]["drawn"]},
        }, {"chart.temple": state["temple"]["max"], "chart.monsters": deck_size(state)})

    def names(self, lang: str, state: State | None = None) -> dict[str, str]:
        """Display names for the message catalogs: guardians, monster cards, monster types and
        Events (with a state, the cards the owner taught too)."""
        names = {g: spec["name"] for g, spec in DATA["guardians"].items()}
        names.update({e: spec["name"][lang] for e, spec in DATA["events"].items()})
        names.update({t: spec["name"][lang] for t, spec in DATA["types"].items()})
        cards = state["catalog"]["monster"] if state is not None else DATA["monster"]
        names.update({c: card_name(c, spec, lang) for c, spec in cards.items()})
        names[DAWN] = card_name(DAWN, {}, lang)
        return names

    def _prompts(self, state: State) -> list[Prompt]:
        return [Prompt(**p) for p in prompts(state)]


# -- handlers ----------------------------------------------------------------------------------

Handler = Callable[[State, dict[str, Any], Out], None]


def on_card(state: State, fields: dict[str, Any], out: Out) -> None:
    """A card is revealed: the round's Event, or a monster (taught on the spot with
    ``define`` the first time the owner sees it)."""
    card_id = fields["id"]
    if state["phase"] == "event":
        reveal_event(state, card_id, out)
        return
    if "define" in fields:
        learn(state, "monster", card_id,
              check_definition("monster", card_id, fields["define"]), out)
    draw_monster(state, card_id, out)


def on_angel(state: State, fields: dict[str, Any], out: Out) -> None:
    """The Guardian Angel marker goes to a living guardian; the turns begin."""
    give_angel(state, fields["guardian"], out)
    next_turn(state, out)


def on_teach(state: State, fields: dict[str, Any], out: Out) -> None:
    """The owner completes a card: its weak points, rewards, type or colour."""
    definition = check_definition(fields["kind"], fields["id"], fields["definition"])
    old = state["catalog"]["monster"].get(fields["id"], {})
    changed = [k for k in ("type", "colour") if old.get(k) not in (None, definition.get(k, old[k]))]
    if fields["id"] in state["deck"]["seen"] and changed:
        raise RuleError("teach.in_play", card=fields["id"], fields=changed)
    learn(state, "monster", fields["id"], definition, out)
    out.say("card.taught", card=fields["id"])


HANDLERS: dict[str, Handler] = {
    "card": on_card, "angel": on_angel, "teach": on_teach,
    "dice": actions.on_dice, "hit": actions.on_hit,
    "move": actions.on_move, "block": actions.on_block,
    "charge": actions.on_charge, "reroll": actions.on_reroll,
    "release": actions.on_release, "end_turn": actions.on_end_turn,
    "mark": powers.on_mark, "ultimate": powers.on_ultimate, "adjust": adjust.on_adjust,
}


def _face(state: State, fields: dict[str, Any], name: str = "die") -> Any:
    dice = state["turn"]["dice"]
    index = fields.get(name)
    return dice[index]["face"] if index is not None and index < len(dice) else None


LABELS: dict[str, Callable[[State, dict[str, Any]], Message]] = {
    "card": lambda s, f: Message("history.card", {"card": f["id"]}),
    "angel": lambda s, f: Message("history.angel", {"guardian": f["guardian"]}),
    "dice": lambda s, f: Message("history.dice", {"guardian": s["active"], "faces": f["faces"]}),
    "hit": lambda s, f: Message("history.hit", {"guardian": s["active"], "rune": _face(s, f)}),
    "move": lambda s, f: Message("history.move", {"guardian": s["active"], "to": f["to"]}),
    "block": lambda s, f: Message("history.block", {"guardian": s["active"]}),
    "charge": lambda s, f: Message("history.charge", {"guardian": s["active"],
                                                      "count": len(f["dice"])}),
    "reroll": lambda s, f: Message("history.reroll", {"guardian": s["active"],
                                                      "count": len(f["dice"])}),
    "release": lambda s, f: Message("history.release", {"guardian": s["active"]}),
    "mark": lambda s, f: Message("history.mark", {"guardian": s["active"]}),
    "ultimate": lambda s, f: Message("history.ultimate", {"guardian": s["active"]}),
    "end_turn": lambda s, f: Message("history.end_turn", {"guardian": s["active"]}),
    "teach": lambda s, f: Message("history.teach", {"card": f["id"]}),
    "adjust": lambda s, f: adjust.label(f),
}
