"""Host corrections (``adjust``): any value the table got wrong, with the books kept consistent.

A hero's Jokers, Charisma, loaded weapons and pawn; the ammo still up on a charger card; the
monster card at a battlefield position. Cards stay where ``state["where"]`` and
``state["monsters_seen"]`` say: a weapon loaded by correction comes from the hero's hand (one
unloaded goes back to it), a monster named must be known and not in play or taken already. A
refusal is raised before anything is kept (``LastHeroes.apply`` works on a copy).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from companion.engine import Message, RuleError, validate

from .battlefield import check_new_monster, monster_at, pawn_on
from .cards import from_hand, learn_define, put, weapon
from .chargers import playing, slot_entry
from .record import Record, State
from .schemas import ADJUST_TARGETS

Fields = dict[str, Any]


def target(fields: Fields) -> str:
    """Which value is corrected (``hero``, ``slot`` or ``column``); a field that belongs to
    another target is refused, so a correction never passes half-read."""
    name = next((n for n in ADJUST_TARGETS if n in fields), None)
    if name is None:
        raise RuleError("event.missing_field", event="adjust", field="|".join(ADJUST_TARGETS))
    validate("adjust", fields, ADJUST_TARGETS[name])
    return name


def on_adjust(state: State, fields: Fields, rec: Record) -> None:
    """A host correction of one hero, one charger card or one battlefield position."""
    ADJUSTERS[target(fields)](state, fields, rec)
    what = [f"{k}={v}" for k, v in fields.items() if k not in ("note", "define")]
    rec.label = Message("history.adjust", {"what": what, "note": fields.get("note")})


def _adjust_hero(state: State, fields: Fields, rec: Record) -> None:
    """Set a hero's wheels, loaded weapons and pawn."""
    hero = fields["hero"]
    player = playing(state, hero)
    player.update({k: fields[k] for k in ("jokers", "charisma") if k in fields})
    if "loaded" in fields:
        _set_loaded(state, hero, fields["loaded"])
    if "pawn" in fields:
        _set_pawn(state, hero, fields["pawn"])


def _set_loaded(state: State, hero: str, cards: list[str]) -> None:
    """The weapons loaded in front of a hero: one no longer loaded goes back to their hand, one
    newly loaded comes from it (a weapon card of a type in play, not elsewhere)."""
    if len(set(cards)) != len(cards):
        raise RuleError("kill.weapon_twice", weapons=cards)
    player = state["players"][hero]
    for card in player["loaded"]:
        if card not in cards:
            put(state, card, f"hand:{hero}")
            player["hand"] += 1
    for card in cards:
        if card not in player["loaded"]:
            weapon(state, card)
            from_hand(state, hero, card)
            put(state, card, f"loaded:{hero}")
    player["loaded"] = cards


def _set_pawn(state: State, hero: str, place: list[int] | bool) -> None:
    """A pawn back in front of its hero (``false``), or holding a breach on a monster of level 2
    or 3 that no other pawn holds (a pawn only ever opens a breach above a kill)."""
    if place is False:
        state["players"][hero]["pawn"] = None
        return
    column, level = place
    if column > len(state["columns"]) or level < 2 or monster_at(state, column, level) is None:
        raise RuleError("adjust.pawn_place", column=column, level=level)
    holder = pawn_on(state, column, level)
    if holder not in (None, hero):
        raise RuleError("adjust.pawn_taken", column=column, level=level, holder=holder)
    state["players"][hero]["pawn"] = [column, level]


def _adjust_slot(state: State, fields: Fields, rec: Record) -> None:
    """Set the ammo still up on a charger card, at most what is printed on it."""
    entry = slot_entry(state, fields["slot"])
    if entry is None:
        raise RuleError("adjust.empty_slot", slot=fields["slot"])
    printed = weapon(state, entry["card"], "ammo")["ammo"]
    if fields["ammo"] > printed:
        raise RuleError("adjust.above_max", card=entry["card"], value=fields["ammo"],
                        max=printed)
    entry["ammo"] = fields["ammo"]


def _adjust_position(state: State, fields: Fields, rec: Record) -> None:
    """Name the monster at a battlefield position, checked as if the misread card went back to
    its pile and this one were revealed instead: known (``define`` may teach it), not in play or
    taken, of the position's level."""
    column, level, monster = fields["column"], fields["level"], fields["monster"]
    old = monster_at(state, column, level) if column <= len(state["columns"]) else None
    if old is None:
        raise RuleError("adjust.no_monster", column=column, level=level)
    learn_define(state, "monster", monster, fields, rec)
    if monster not in state["catalog"]["monster"]:
        raise RuleError("adjust.unknown_monster", monster=monster)
    state["monsters_seen"].remove(old)
    check_new_monster(state, monster, level)
    state["columns"][column - 1]["monsters"][level - 1] = monster


ADJUSTERS: dict[str, Callable[[State, Fields, Record], None]] = {
    "hero": _adjust_hero, "slot": _adjust_slot, "column": _adjust_position,
}
