"""Last Bastion: the game object the session drives (setup, apply, view, expects)."""

from __future__ import annotations

from functools import cached_property
from pathlib import Path
from typing import Any

from companion.engine import (
    Capabilities,
    Expectation,
    Message,
    Prompt,
    Step,
    Tally,
)
from companion.engine.catalog import localized
from companion.engine.rules import RulesGame

from . import odds
from .catalog import CATALOG, DATA
from .flow import active_hero, round_number, run, start_turn
from .handlers import HANDLERS
from .prompts import COMBAT, CORRUPTION, expects, prompts
from .schemas import EVENTS
from .setup import initial_state
from .simulated import invent
from .tokens import Out, State
from .view import pickers, view

#: Key prefixes of Last Bastion's warnings (see :class:`~companion.engine.Capabilities`).
WARNINGS = ("grip.tile", "grip.hero", "grip.card", "hero.knocked_out", "hero.dead", "board.full",
            "token.reserve_empty", "draw.all_full")


class LastBastion(RulesGame):
    """The rules of Last Bastion (Repos Production, 2019) as a pure state machine."""

    id = "last-bastion"
    catalog = CATALOG
    events = EVENTS
    messages_dir = Path(__file__).parent / "messages"
    handlers = HANDLERS

    @cached_property
    def capabilities(self) -> Capabilities:
        """The combat helper, charts, names, page, warnings and card pickers of Last Bastion."""
        return Capabilities(
            flagship=True, page=Path(__file__).parent / "page.js", helper=odds.helper,
            tally=self.tally, names=self.names, warnings=WARNINGS, schemas=CATALOG.schemas,
            pickers=pickers, invent=invent, dice=(COMBAT, CORRUPTION))

    def setup(self, options: dict[str, Any]) -> Step:
        """Build the table from the setup event and play up to the first thing the table must do."""
        out = Out()
        state = initial_state(options, out)
        start_turn(state, state["turn"]["side"], out)
        run(state, out)
        label = Message("history.setup", {"mode": state["mode"],
                                          "heroes": [h["name"] for h in state["heroes"].values()]})
        return Step(state, out.messages, self.prompts(state), label)

    def follow(self, state: State, out: Out) -> None:
        """Run the task queue as far as it goes without the table."""
        run(state, out)

    def names(self, lang: str, state: State | None = None) -> dict[str, str]:
        """Display names for the message catalogs: tiles and heroes, and with a state the names
        of this table's players (a hero is announced by its player's name) and cards."""
        names = {tid: localized(t["name"], lang) for tid, t in DATA["tile"].items()}
        names.update({hid: localized(h["name"], lang) for hid, h in DATA["hero"].items()})
        if state is not None:
            names.update({cid: c.get("name", cid) for cid, c in state["catalog"]["card"].items()})
            names.update({hid: h["player"] for hid, h in state["heroes"].items()})
        return names

    # -- reading -------------------------------------------------------------------------------

    def tally(self, state: State) -> Tally:
        """The history charts, round by round (:func:`flow.round_number`): Life per hero, tiles
        under grip, Horde cards left."""
        grip = sum(tile["grip"] for row in state["tiles"] for tile in row)
        return Tally(round_number(state), {
            "ui.chart_life": {h["player"]: h["life"] for h in state["heroes"].values()},
            "ui.chart_grip": {"": grip},
            "ui.chart_cards": {"": state["deck"]["size"] - state["deck"]["drawn"]},
        }, {"ui.chart_grip": 3, "ui.chart_cards": state["deck"]["size"]})


    def expects(self, state: State) -> Expectation:
        """What the table must provide next (see :func:`prompts.expects`)."""
        return expects(state)

    def view(self, state: State) -> dict[str, Any]:
        """The dashboard's picture of the table (see :func:`view.view`), with what the Hero
        phase offers."""
        return {**view(state), "offers": self.offers(state)}

    def offers(self, state: State) -> dict[str, Any]:
        """What the active hero may do now by tapping the board, each event tried on a copy
        (the table is not touched), so that the page offers only what the rules take: the
        slots to fight alone, the tiles each hero may move to ("r,c"), the tiles whose Call to
        Arms may be activated, whether its own tile may be, and the tiles and slots of a power
        used as an action (a fight from the centre, a move to a far tile, a Dispensary with
        nobody to heal were offered, then refused)."""
        offers: dict[str, Any] = {"fight": [], "move": {}, "cta": [], "activate": False,
                                  "power": {"tiles": [], "slots": []}}
        hero_id = active_hero(state)
        if expects(state).kind != "action" or hero_id is None:
            return offers
        slots = [f"{colour}.{k}" for colour, row in state["slots"].items()
                 for k in range(len(row))]
        cells = [(r, c) for r in range(3) for c in range(3)]
        tile_of = {(r, c): state["tiles"][r][c]["id"] for r, c in cells}
        offers["fight"] = [s for s in slots if self.takes(state, {"type": "fight",
                                                                  "targets": [s]})]
        for mover in state["heroes"]:
            reach = [f"{r},{c}" for r, c in cells if self.takes(
                state, {"type": "move", "hero": mover, "to": [r, c]})]
            if reach:
                offers["move"][mover] = reach
        offers["cta"] = [tile_of[rc] for rc in cells if self.takes(
            state, {"type": "activate", "tile": tile_of[rc], "call_to_arms": True})]
        here = state["heroes"][hero_id].get("tile")
        offers["activate"] = bool(here) and self.takes(
            state, {"type": "activate", "tile": tile_of[tuple(here)]})
        offers["power"] = {
            "tiles": [f"{r},{c}" for r, c in cells if self.takes(
                state, {"type": "power", "hero": hero_id, "tile": [r, c]})],
            "slots": [s for s in slots if self.takes(state, {"type": "power", "hero": hero_id,
                                                             "slot": s})]}
        return offers

    def prompts(self, state: State) -> list[Prompt]:
        """The question waiting at the head of the task queue, if any."""
        return [Prompt(**p) for p in prompts(state)]
