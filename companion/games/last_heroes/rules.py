"""Last Heroes: the game object the session drives (setup, apply, view, expects)."""

from __future__ import annotations

import copy
import json
from functools import cache, cached_property
from pathlib import Path
from typing import Any

from companion.engine import (
    Blank,
    Capabilities,
    Expectation,
    Message,
    Prompt,
    Step,
    Tally,
    Template,
)
from companion.engine.catalog import localized
from companion.engine.rules import RulesGame

from .battlefield import breached, pawn_on, permanent_below
from .catalog import CATALOG, DATA, HEROES, merged
from .handlers import HANDLERS
from .picks import hand_faces, kills, pickers, printed_name, unseen_monsters, untaught
from .record import Record, State
from .schemas import EVENTS
from .scoring import missing_points, points_of, ranking, score, winners
from .setup import initial_state
from .simulated import invent

PHASE_EVENTS = {  # phase: (what is expected, events)
    "charger": ("card", ("charger",)),
    "play": ("action", ("play", "power")),
    "act": ("action", ("kill", "swap", "power", "end_turn")),
    "refill": ("card", ("reveal",)),
}


class LastHeroes(RulesGame):
    """The rules of Last Heroes (Ludonaute, 2018) as a pure state machine."""

    id = "last-heroes"
    catalog = CATALOG
    events = EVENTS
    messages_dir = Path(__file__).parent / "messages"
    handlers = HANDLERS

    @cached_property
    def capabilities(self) -> Capabilities:
        """The charts, names, page, set-up pickers of this game."""
        return Capabilities(page=Path(__file__).parent / "page.js", tally=self.tally,
                            names=self.names, schemas=CATALOG.schemas, invent=invent,
                            pickers=pickers)

    def setup(self, options: dict[str, Any]) -> Step:
        """Lay out the table from the setup event; the charger cards come next."""
        rec = Record()
        state = initial_state(options, rec)
        label = Message("history.setup", {"heroes": state["order"], "first": state["first"]})
        return Step(state, rec.messages, self.prompts(state), label)

    def names(self, lang: str, state: State | None = None) -> dict[str, str]:
        """Display names for the message catalogs: weapon types and cards, monsters, and with a
        state the names of this table's players (a hero is announced by its player's name).
        A weapon card without a printed name reads as what it prints: its type and its Impact
        ("Flamethrower BAM!"), never its id. A monster taught without a name keeps the one the
        game's messages give it (the new-game form's sample cards: "Ghoul", «Goule»)."""
        catalog = merged({}) if state is None else state["catalog"]
        printed = {card: localized(data.get("name"), lang) or _printed(data, lang)
                   for kind in ("weapon", "monster") for card, data in catalog[kind].items()}
        names = {card: shown for card, shown in printed.items() if shown}
        names.update({hero: hero.capitalize() for hero in HEROES})
        if state is not None:
            names.update({hero: p["name"] for hero, p in state["players"].items()})
        return names

    # -- reading -------------------------------------------------------------------------------

    def tally(self, state: State) -> Tally:
        """The history charts, round by round: monsters each hero has killed, the cards in each
        hero's hand, and the monsters left to come."""
        players = state["players"].values()
        return Tally(state["round"], {
            "chart.kills": {p["name"]: len(p["monsters"]) for p in players},
            "chart.hands": {p["name"]: p["hand"] for p in players},
            "chart.piles": {"": sum(state["piles"].values())},
        })


    def expects(self, state: State) -> Expectation:
        """What the table must provide next."""
        if state["status"] != "playing":
            missing = missing_points(state)
            if missing:
                return Expectation("choice", ("teach",), Message("expect.points",
                                                              {"monsters": missing}))
            return Expectation("nothing", ())
        kind, events = PHASE_EVENTS[state["phase"]]
        options = copy.deepcopy(state["refill"]) if state["phase"] == "refill" else None
        return Expectation(kind, events, _expect_message(state), options=options,
                           templates=_templates(state, events),
                           next={"type": "end_turn"} if "end_turn" in events else None)

    def prompts(self, state: State) -> list[Prompt]:
        """The questions waiting for a person."""
        return [Prompt(**p) for p in prompts(state)]

    def view(self, state: State) -> dict[str, Any]:
        """The shared page's picture of the table; hands appear only as a number of cards."""
        return {
            "game": self.id,
            "status": state["status"],
            "reason": state["reason"],
            "round": state["round"],
            "rounds": DATA["rounds"],
            "active": state["active"],
            "phase": state["phase"],
            "weapons": list(state["weapons"]),
            "expects": self.expects(state).to_json(),
            "prompts": prompts(state),
            "players": [player_view(state, hero) for hero in state["order"]],
            "battlefield": battlefield_view(state),
            "piles": dict(state["piles"]),
            "discard": list(state["discard"]),
            "hand": hand_faces(state, _holder(state)),
            "kills": kills(state),
            "swaps": state["turn"]["swaps"] if state["turn"] else 0,
            "monster_cards": unseen_monsters(state),
            "untaught": untaught(state),
            "score": {hero: score(state, hero)["total"] for hero in state["order"]},
            "ranking": ranking(state),
            "winners": winners(state),
        }


@cache
def _messages(lang: str) -> dict[str, str]:
    path = Path(__file__).parent / "messages" / f"{lang}.json"
    return json.loads(path.read_text(encoding="utf-8")) if path.exists() else {}


def _printed(card: dict[str, Any], lang: str) -> str:
    """A weapon card as its face reads: the type's name and the Impact's word."""
    texts = _messages(lang)
    kind, impact = card.get("type"), card.get("impact")
    if kind is None:
        return ""
    words = [texts.get(f"name.{kind}", kind), texts.get(f"name.impact_{impact}", "")]
    return " ".join(word for word in words if word)


def _holder(state: State) -> str | None:
    """The hero who puts a card down next: the first one still filling the charger, else the
    active hero."""
    if state["status"] != "playing":
        return None
    if state["phase"] == "charger":
        return next(h for h in state["order"] if None in state["players"][h]["charger"].values())
    return state["active"]


def _templates(state: State, events: tuple[str, ...]) -> tuple[Template, ...]:
    """The events of this phase: a card drawn into the first empty charger (a swipe fills
    it), a card revealed to refill the battlefield, or the active hero's actions (the phone)."""
    if state["phase"] == "charger":
        blank = Blank("card", "card", options=[])  # the simulated table makes one up
        return (Template("charger", {"hero": _holder(state)}, blank),)
    if state["phase"] == "refill":
        return (Template("reveal", blank=Blank("card", "card", options=[])),)
    return tuple(Template(e, blank=None if e == "end_turn" else Blank("form")) for e in events)


def _expect_message(state: State) -> Message:
    waiting = [h for h in state["order"] if None in state["players"][h]["charger"].values()]
    params = {"hero": state["active"], "heroes": waiting, "round": state["round"]}
    return {"charger": Message("expect.charger", params), "play": Message("expect.play", params),
            "act": Message("expect.act", params),
            "refill": Message("expect.reveal", params)}[state["phase"]]


def player_view(state: State, hero: str) -> dict[str, Any]:
    """One hero's side of the table: charger, wheels, loaded weapons, trophies; not the hand."""
    player = state["players"][hero]
    weapons = state["catalog"]["weapon"]
    charger = {side: None if entry is None else {
        "card": entry["card"], "type": weapons[entry["card"]]["type"], "ammo": entry["ammo"],
        "printed": weapons[entry["card"]]["ammo"]} for side, entry in player["charger"].items()}
    return {
        "hero": hero, "name": player["name"], "hand": player["hand"], "charger": charger,
        "jokers": player["jokers"], "charisma": player["charisma"],
        "loaded": [{"card": c, "type": weapons[c]["type"], "impact": weapons[c]["impact"]}
                   for c in player["loaded"]],
        "monsters": [{"card": m, "name": printed_name(state, m), "points": points_of(state, m)}
                     for m in player["monsters"]],
        "artefacts": list(player["artefacts"]), "powers": list(player["powers"]),
        "pawn": copy.deepcopy(player["pawn"]), "score": score(state, hero),
    }


def battlefield_view(state: State) -> list[dict[str, Any]]:
    """Each column from level 1 up: monster, breach and pawn; the artefact and who won it."""
    columns = []
    for c, col in enumerate(state["columns"], start=1):
        levels = []
        for level, monster in enumerate(col["monsters"], start=1):
            levels.append({
                "level": level, "monster": monster, "name": printed_name(state, monster),
                "pawn": pawn_on(state, c, level),
                "breach": monster is not None and breached(state, c, level),
                "permanent_breach": permanent_below(state, c, level),
                "permanent_void": [c, level] in state["permanent"],
            })
        columns.append({"column": c, "levels": levels, "artefact": col["artefact"],
                        "holder": col["holder"]})
    return columns


def prompts(state: State) -> list[dict[str, Any]]:
    """Questions for the table: a level-1 swap that may be made, monster points to teach."""
    waiting = []
    turn = state["turn"]
    if state["status"] == "playing" and turn and turn["swaps"]:
        waiting.append({"id": "swap", "key": "prompt.swap",
                        "params": {"hero": state["active"], "count": turn["swaps"]},
                        "options": [], "default": None, "answer": "swap"})
    missing = missing_points(state)
    if missing:
        waiting.append({"id": "points", "key": "prompt.monster_points",
                        "params": {"monsters": missing}, "options": [], "default": None,
                        "answer": "teach"})
    return waiting

