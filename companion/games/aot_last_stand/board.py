"""The table's counts: the health track and its zones, Citizens, Cannons, hearts, levels, and
the three ways the Titan wins (rulebook, "BUT DU JEU" and "Fin de la partie")."""

from __future__ import annotations

from collections import deque
from typing import Any

from companion.engine import Outcome

from .catalog import DATA

State = dict[str, Any]
TITAN_LEVELS: tuple[int, ...] = tuple(DATA["levels"]["titan"])
TOWER_LEVELS: tuple[int, ...] = tuple(DATA["levels"]["tower"])


Out = Outcome  # what an event has said, labelled and taught so far


def distance(origin: int, to: int) -> int:
    """Moves from one level to another: one level up or down at a time, and the Tower's
    shortcuts ground-first floor (0-3) and first-second floor (3-5) («Se déplacer»)."""
    links: dict[int, set[int]] = {n: set() for n in range(9)}
    for a, b in DATA["links"]:
        links[a].add(b)
        links[b].add(a)
    seen, todo = {origin: 0}, deque([origin])
    while todo:
        here = todo.popleft()
        for there in links[here] - set(seen):
            seen[there] = seen[here] + 1
            todo.append(there)
    return seen[to]


def zone(state: State) -> str:
    """Where the health marker stands: ``start``, ``normal``, ``weak`` or ``kill``."""
    track, health = state["track"], state["health"]
    if health >= track["kill"]:
        return "kill"
    if health >= track["weak"]:
        return "weak"
    return "start" if health == 0 else "normal"


def damage(state: State, amount: int, out: Out) -> None:
    """Move the marker towards the KILL ZONE, never past the last space."""
    state["health"] = min(state["track"]["length"], state["health"] + amount)
    out.say("titan.damaged", amount=amount, health=state["health"], zone=zone(state))


def heal(state: State, amount: int, out: Out) -> None:
    """Heal X: the marker goes back X spaces, never before Start (what is said is how far it
    went: at Start, the Titan heals nothing)."""
    before = state["health"]
    state["health"] = max(0, before - amount)
    out.say("titan.healed", amount=before - state["health"], health=state["health"],
            zone=zone(state))


def devour(state: State, amount: int, out: Out) -> None:
    """Devour X: X Citizens are turned over; all twelve turned and the Titan wins."""
    state["devoured"] = min(DATA["citizens"], state["devoured"] + amount)
    out.say("citizens.devoured", amount=amount, left=DATA["citizens"] - state["devoured"])
    if state["devoured"] >= DATA["citizens"]:
        end(state, "citizens", out)


def destroy(state: State, amount: int, out: Out) -> None:
    """Destroy X Cannons: removed from the Tower; all six gone and the Titan wins."""
    state["cannons"] = max(0, state["cannons"] - amount)
    out.say("cannons.destroyed", amount=amount, left=state["cannons"])
    if state["cannons"] == 0:
        end(state, "cannons", out)


def lose_heart(state: State, hero_id: str, out: Out, amount: int = 1) -> None:
    """A hero loses hearts; the third lost and the Titan wins («Mort d'un Héros»)."""
    hero = state["heroes"][hero_id]
    hero["hearts"] = max(0, hero["hearts"] - amount)
    out.say("hero.hurt", hero=hero_id, hearts=hero["hearts"])
    if hero["hearts"] == 0:
        end(state, "hero_devoured", out)


def end(state: State, reason: str, out: Out) -> None:
    """The game is over: ``won`` (the heroes) for a victory Tactic, ``lost`` otherwise."""
    if state["status"] != "playing":
        return
    heroes_win = reason in ("beheading", "eradication")
    state["status"] = "won" if heroes_win else "lost"
    state["winner"] = "heroes" if heroes_win else "titan"
    state["reason"] = reason
    out.say("game.heroes_win" if heroes_win else "game.titan_wins", reason=reason)
