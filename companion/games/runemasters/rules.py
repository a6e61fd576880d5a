"""Runemasters: the game object the session drives (setup, apply, view, expects)."""

from __future__ import annotations

from functools import cached_property
from pathlib import Path
from typing import Any

from companion.engine import (
    Blank,
    Capabilities,
    Event,
    Expectation,
    Message,
    Prompt,
    Step,
    Tally,
    Template,
)
from companion.engine.catalog import LANGUAGES
from companion.engine.rules import RulesGame

from .catalog import CATALOG, DATA, DAWN, EVENT_CARDS, RUNES, card_name
from .flow import deck_size, dice_count
from .handlers import HANDLERS, LABELS
from .powers import target_spaces
from .schemas import EVENTS
from .setup import initial_state
from .table import Out, State
from .view import prompts, view

ACTIONS = ("hit", "move", "block", "charge", "reroll", "release", "mark", "ultimate",
           "end_turn")
PHASE_EVENTS = {"setup_monsters": ("card",), "event": ("card",), "appear": ("card",),
                "angel": ("angel",), "roll": ("dice",), "reroll": ("dice",),
                "actions": ACTIONS, "over": ()}
PROFILE = "runemasters/rune"

#: Key prefixes of this game's warnings (see :class:`~companion.engine.Capabilities`).
WARNINGS = ("guardian.killed", "temple.wounded", "monster.cannot_enter")


class Runemasters(RulesGame):
    """The rules of Runemasters (Funforge, 2024) as a pure state machine."""

    id = "runemasters"
    catalog = CATALOG
    events = EVENTS
    messages_dir = Path(__file__).parent / "messages"
    handlers = HANDLERS

    @cached_property
    def capabilities(self) -> Capabilities:
        """The charts, names, page and warnings of this game."""
        return Capabilities(page=Path(__file__).parent / "page.js", tally=self.tally,
                            names=self.names, schemas=CATALOG.schemas, warnings=WARNINGS,
                            dice=(PROFILE,))

    def setup(self, options: dict[str, Any]) -> Step:
        """Build the table from the setup event; the first three monsters are drawn next."""
        out = Out()
        state = initial_state(options, out)
        label = Message("history.setup", {"guardians": list(state["order"]),
                                          "difficulty": state["difficulty"]})
        return Step(state, out.messages, self.prompts(state), label)

    def label(self, state: State, event: Event) -> Message:
        """The history label, read from the state before the event."""
        return LABELS[event.type](state, dict(event.fields))

    def expects(self, state: State) -> Expectation:
        """What the table must provide next."""
        phase = state["phase"]
        events = PHASE_EVENTS[phase]
        if phase == "over":
            return Expectation("nothing", ())
        card = (Template("card", blank=Blank("card", "id")),)
        if phase in ("setup_monsters", "appear"):
            return Expectation("card", events, Message("expect.monster", {
                "guardian": state["active"], "setup": phase == "setup_monsters"}),
                templates=card)
        if phase == "event":
            return Expectation("card", events, Message("expect.event", {
                "elder": state["elder"], "round": state["round"]["number"]}), templates=card)
        if phase == "angel":
            options = [g for g in state["order"] if state["guardians"][g]["alive"]]
            template = Template("angel", blank=Blank("choice", "guardian", options=options))
            return Expectation("choice", events, Message("expect.angel"), options=options,
                               templates=(template,),
                               next=template.fill(options[0]) if len(options) == 1 else None)
        if phase in ("roll", "reroll"):
            count = dice_count(state) if phase == "roll" else len(state["turn"]["rerolling"])
            key = "expect.roll" if phase == "roll" else "expect.reroll"
            return Expectation("dice", events, Message(key, {
                "guardian": state["active"], "count": count}), profile=PROFILE, count=count,
                templates=(Template("dice", blank=Blank("dice", "faces", PROFILE, count,
                                                        list(RUNES))),))
        return Expectation("action", events, Message("expect.actions", {
            "guardian": state["active"]}), templates=tuple(
                Template(e, blank=None if e == "end_turn" else Blank("form")) for e in events),
            next={"type": "end_turn"})

    def view(self, state: State) -> dict[str, Any]:
        """The dashboard's picture of the table, with the one-tap actions of the dice, the
        cards the table may reveal now, and the spaces a hit and a Mark point at."""
        return {**view(state, self.expects(state).to_json()), "taps": self.taps(state),
                "cards": self.cards(state), "free_moves": self.free_moves(state),
                "target_spaces": target_spaces(state)}

    def free_moves(self, state: State) -> list[str]:
        """The paths the active guardian may go to without spending a die now (an Event may
        ask for one: Pavise), each tried on a copy: the move form offers only those."""
        if state["phase"] != "actions":
            return []
        return [p for p in state["paths"] if self.takes(state, {"type": "move", "to": p})]

    def cards(self, state: State) -> list[dict[str, Any]]:
        """The cards the rules take as the one revealed now, each with its printed name in
        every language and its colour (a path's, or None for an Event and Dawn): the round's
        Event from the pile of this difficulty, else a monster of this table's pile not seen
        yet, or Dawn once it may come (rulebook, "Mise en place" and "L'Aube"). Each is tried
        on a copy; the table is not touched."""
        if self.expects(state).kind != "card":
            return []
        if state["phase"] == "event":
            return [{"id": e, "name": DATA["events"][e]["name"], "colour": None}
                    for e in EVENT_CARDS if self.takes(state, {"type": "card", "id": e})]
        monsters = state["catalog"]["monster"]
        shown = [{"id": c, "colour": spec.get("colour"),
                  "name": {lang: card_name(c, spec, lang) for lang in LANGUAGES}}
                 for c, spec in monsters.items()]
        shown.append({"id": DAWN, "colour": None,
                      "name": {lang: card_name(DAWN, {}, lang) for lang in LANGUAGES}})
        return [c for c in shown if self.takes(state, {"type": "card", "id": c["id"]})]

    def taps(self, state: State) -> list[dict[str, Any]]:
        """What each unused die may do now in one tap, the rules asked first: hit the monster in
        contact, go to another path, charge the Ultimate («Touchez ce point faible OU
        déplacez-vous sur ce chemin», «Chargez votre Pouvoir ultime», rulebook "Actions liées aux
        runes"); and releasing the Mana on the monster in contact («Libérer tout votre Mana»,
        "Actions spéciales"). Only the events the rules take from this very table are offered;
        a pair to block, a reroll or a mark stay in their forms."""
        if state["phase"] != "actions":
            return []
        taps = []
        for index, die in enumerate(state["turn"]["dice"]):
            if die["used"]:
                continue
            tries = [{"type": "hit", "die": index},
                     *({"type": "move", "die": index, "to": path} for path in state["paths"]),
                     {"type": "charge", "dice": [index]}]
            taps += [event for event in tries if self.takes(state, event)]
        return taps + [e for e in ({"type": "release"},) if self.takes(state, e)]

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

    def prompts(self, state: State) -> list[Prompt]:
        """The questions waiting for a person."""
        return [Prompt(**p) for p in prompts(state)]
