"""Host corrections (``adjust``): any count the table could get wrong, kept consistent.

A hero's hearts, level and the faces of the dice in front of them; the health marker, the
Citizens devoured, the Cannons left; the Titan's hand and set-aside cards; the Tactic pile's
order or its top card; the step of the round. Each value is checked against what the game allows
(a marker inside the track, each of the Titan's seven Action cards in exactly one place, every
card of the pile once, ...) and a refusal names it; ``LastStand.apply`` works on a copy, so a
refusal keeps nothing. The Titan still wins if a count reaches its limit.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

from companion.engine import Message, RuleError

from . import board, tactics
from .board import Out, State
from .catalog import DATA
from .dice import has_power

HERO_FIELDS = ("hearts", "level", "dice")
Fields = dict[str, Any]


def on_adjust(state: State, fields: Fields, out: Out) -> None:
    """Apply a host correction; ``note`` says why (kept in the history label)."""
    note = fields.pop("note", None)
    changed = sorted(k for k in fields if k != "hero")
    if not changed:
        raise RuleError("adjust.nothing", fields=sorted(ADJUSTABLE))
    if "hero" in fields:
        _hero(state, fields)
    elif any(k in fields for k in HERO_FIELDS):
        raise RuleError("event.missing_field", event="adjust", field="hero")
    if "health" in fields:
        _bounded("health", fields["health"], state["track"]["length"])
        state["health"] = fields["health"]
    state.update({k: fields[k] for k in ("devoured", "cannons") if k in fields})
    if "hand" in fields or "set_aside" in fields:
        _titan_cards(state, fields.get("hand"), fields.get("set_aside"))
    if "pile" in fields:
        _pile(state, fields["pile"])
    if "top" in fields:
        tactics.bring_to_top(state, fields["top"])
    if "step" in fields:
        _step(state, fields["step"])
    _limits(state, out)
    out.say("adjust.done", what=changed, note=note)
    out.label = Message("history.adjust", {"what": changed, "note": note})


ADJUSTABLE = ("hero", *HERO_FIELDS, "health", "devoured", "cannons", "hand", "set_aside", "pile",
              "top", "step")
"""The fields a correction may give (besides ``note``)."""


def _bounded(field: str, value: int, high: int) -> None:
    if value > high:
        raise RuleError("adjust.above_max", field=field, value=value, max=high)


def _hero(state: State, fields: Fields) -> None:
    """A hero's hearts, level and held dice."""
    hero_id = fields["hero"]
    if hero_id not in state["heroes"]:
        raise RuleError("hero.unknown", hero=hero_id, known=sorted(state["heroes"]))
    hero = state["heroes"][hero_id]
    hero.update({k: fields[k] for k in ("hearts", "level") if k in fields})
    if "dice" in fields:
        hero["held"] = _dice(state, hero_id, fields["dice"])


def _dice(state: State, hero_id: str, faces: list[str]) -> list[dict[str, Any]]:
    """The dice in front of a hero showing these faces. A die already there with the same face
    keeps its owner (Eren's gifts go back to him at the end of the round); a Titan face stays in
    front of Levi only; a hero never has more than their five dice out (those with the Titan,
    given back or obstructed count)."""
    hero = state["heroes"][hero_id]
    if "titan" in faces and not has_power(state, hero_id, "keep_titan"):
        raise RuleError("adjust.titan_face", hero=hero_id)
    away = state["titan"]["pool"].count(hero_id) + hero["returned"] + hero["lost"]
    gifts = sum(1 for d in hero["held"] if d["owner"] != hero_id)
    if len(faces) + away > DATA["dice_per_hero"] + gifts:
        raise RuleError("adjust.too_many_dice", hero=hero_id, dice=len(faces),
                        most=DATA["dice_per_hero"] + gifts - away)
    spare, held = list(hero["held"]), []
    for face in faces:
        die = next((d for d in spare if d["face"] == face), None)
        if die is None:
            die = {"face": face, "owner": hero_id}
        else:
            spare.remove(die)
        held.append(die)
    return held


def _titan_cards(state: State, hand: list[str] | None, set_aside: list[str] | None) -> None:
    """The Titan's hand and the cards it set aside last round: its seven Action cards must each
    be in exactly one place (hand, set aside, in play, removed by Mutilation)."""
    titan = state["titan"]
    if hand is not None:
        titan["hand"] = list(hand)
    if set_aside is not None:
        titan["set_aside"] = list(set_aside)
    placed = Counter(titan["hand"] + titan["set_aside"] + titan["removed"]
                     + [e["card"] for e in state["play"]])
    deck = state["catalog"]["titan"][titan["card"]]["actions"]
    twice = sorted(c for c, n in placed.items() if n > 1)
    foreign = sorted(set(placed) - set(deck))
    missing = sorted(set(deck) - set(placed))
    if twice or foreign or missing:
        raise RuleError("adjust.titan_cards", twice=twice, foreign=foreign, missing=missing)


def _pile(state: State, pile: list[str]) -> None:
    """The whole Tactic pile from the top: every card still in it, once each."""
    known = sorted(tactics.in_pile(state))
    if sorted(pile) != known:
        raise RuleError("adjust.pile_cards", pile=pile, cards=known)
    if pile[:1] != [tactics.top(state)]:
        state["tactics"]["met"] = []
    state["tactics"]["pile"], state["tactics"]["unknown"] = list(pile), []


def _step(state: State, step: int) -> None:
    """Step 1 has no Action card in play and steps 2 to 6 have them; step 5 needs a card still
    to resolve; a waiting choice is answered (or undone) first."""
    if state["queue"]:
        raise RuleError("adjust.step_choice_waiting", step=step,
                        choice=state["queue"][0]["do"])
    in_play = len(state["play"])
    if (step == 1) != (in_play == 0):
        raise RuleError("adjust.step_cards", step=step, in_play=in_play)
    if step == 5 and all(e["done"] for e in state["play"]):
        raise RuleError("adjust.step_nothing_to_resolve", step=step)
    state["step"] = step


def _limits(state: State, out: Out) -> None:
    """The Titan wins if a corrected count reaches its limit («Fin de la partie»)."""
    if any(h["hearts"] == 0 for h in state["heroes"].values()):
        board.end(state, "hero_devoured", out)
    if state["devoured"] >= DATA["citizens"]:
        board.end(state, "citizens", out)
    if state["cannons"] == 0:
        board.end(state, "cannons", out)
