"""Last Heroes set-ups and event builders shared by the tests.

The standard table: Ana (Blind), Ben (Echo) and Cleo (Ace), in that seating order, with
flamethrowers, crossbows and pistols; Ana plays first. Every weapon card costs 1 ammo to load and
shows 2 ammo in a charger unless a test says otherwise; the battlefield's monsters are taught in
the setup's ``definitions``, as the owner would have done.
"""

from __future__ import annotations

import copy
from pathlib import Path
from typing import Any

from sessiontools import play as play  # the same for every game
from sessiontools import refused as refused

from companion.engine import Event, Session
from companion.games.last_heroes import GAME
from companion.games.last_heroes.catalog import packaged_weapons

HEROES = [("Ana", "blind"), ("Ben", "echo"), ("Cleo", "ace")]
WEAPONS = ["flamethrower", "crossbow", "pistol"]
BATTLEFIELD = [["rat", "spider", "dragon"], ["bat", "wolf", "snake"], ["imp", "ghoul", "hydra"]]
ARTEFACTS = ["joker", "impact", "adrenaline"]
MONSTERS = {
    "rat": {"level": 1, "light": [1], "dark": [], "points": 1},
    "spider": {"points": 3},
    "dragon": {"dark": [2, 2], "points": 6},
    "bat": {"level": 1, "light": [1], "dark": [], "points": 1},
    "wolf": {"level": 2, "light": [1], "dark": [2], "points": 2},
    "snake": {"light": [2, 1], "dark": [3, 3], "points": 7},
    "imp": {"level": 1, "light": [2], "dark": [], "points": 1},
    "ghoul": {"level": 2, "light": [2], "dark": [1], "points": 3},
    "hydra": {"level": 3, "light": [1, 1], "dark": [2, 2], "points": 5},
}
CHARGERS = {"blind": ["flamethrower-1", "flamethrower-2"], "echo": ["crossbow-1", "crossbow-2"],
            "ace": ["pistol-1", "pistol-2"]}


def definitions(cost: int = 1, ammo: int = 2) -> dict[str, Any]:
    """The owner's definitions of the standard table."""
    weapons = {card: {"cost": cost, "ammo": ammo} for card in packaged_weapons()}
    return {"weapon": weapons, "monster": MONSTERS}


def setup_event(**extra: Any) -> dict[str, Any]:
    """The setup of the standard table, with fields overridden by ``extra``."""
    event = {"type": "setup", "game": "last-heroes",
             "players": [{"name": n, "hero": h} for n, h in HEROES], "weapons": WEAPONS,
             "first": "blind", "battlefield": BATTLEFIELD, "artefacts": ARTEFACTS,
             "definitions": definitions()}
    event.update(extra)
    return event


def open_session(tmp_path: Path) -> Session:
    """A session on a fresh data directory that knows Last Heroes."""
    return Session(tmp_path / "data", games={"last-heroes": GAME})


def chargers(chosen: dict[str, list[str]] | None = None) -> list[dict[str, Any]]:
    """The charger events of every hero (the standard cards by default)."""
    return [{"type": "charger", "hero": hero, "card": card}
            for hero, cards in (chosen or CHARGERS).items() for card in cards]


def start(session: Session, **extra: Any):
    """Set up the standard table and put the charger cards in: Ana's first turn begins."""
    return play(session, setup_event(**extra), *chargers())


def ammo(card: str, slot: str) -> dict[str, Any]:
    """Play a card into the active hero's charger slot (``left`` or ``right``)."""
    return {"type": "play", "card": card, "as": "ammo", "slot": slot}


def load(card: str, *sources: str, jokers: int = 0) -> dict[str, Any]:
    """Play a card as a loaded weapon, paid from charger slots and Jokers."""
    event: dict[str, Any] = {"type": "play", "card": card, "as": "weapon", "ammo": list(sources)}
    if jokers:
        event["jokers"] = jokers
    return event


def kill(monster: str, *weapons: str, **extra: Any) -> dict[str, Any]:
    """Kill a monster with loaded weapons."""
    return {"type": "kill", "monster": monster, "weapons": list(weapons), **extra}


END = {"type": "end_turn"}


def player(session: Session, hero: str) -> dict[str, Any]:
    """One hero's part of the view."""
    return next(p for p in session.view()["players"] if p["hero"] == hero)


def level(session: Session, column: int, lvl: int) -> dict[str, Any]:
    """One battlefield position of the view."""
    return session.view()["battlefield"][column - 1]["levels"][lvl - 1]


TYPE_OF = {"blind": "flamethrower", "echo": "crossbow", "ace": "pistol"}


def idle(hero: str, n: int) -> list[dict[str, Any]]:
    """A quiet turn: the hero's weapon card number ``n`` into the right charger slot, then end."""
    return [ammo(f"{TYPE_OF[hero]}-{n}", "right"), END]


def turn(session: Session, *events: dict[str, Any]):
    """Submit a turn's events and end it; return the last Step."""
    return play(session, *events, END)


def act(state: dict[str, Any], kind: str, /, **fields: Any):
    """Apply one event to a state with the pure rules, no session; return the Step."""
    return GAME.apply(state, Event(kind, fields))


def granted(session: Session, hero: str, *powers: str) -> dict[str, Any]:
    """A copy of the session's state in which ``hero`` holds these powers, as if won."""
    state = copy.deepcopy(session.state)
    state["players"][hero]["powers"] = list(powers)
    return state

