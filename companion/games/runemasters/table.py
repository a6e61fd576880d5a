"""The table's state and the small questions every rule asks of it.

A path is a list of five spaces (index 0 is space 1, in contact with the guardian); a space holds
``None`` or ``{"card": id, "wounds": [indices of the weak points wounded]}``. Guardians keep the
colour of the path they face (``None`` once dead, "Placez son personnage gardien sur son
plateau").
"""

from __future__ import annotations

from typing import Any

from companion.engine import Outcome

from .catalog import DATA, PATHS

State = dict[str, Any]
Monster = dict[str, Any]


Out = Outcome  # what an event has said, labelled and taught so far


def paths_in_play(state: State) -> list[str]:
    """The paths of this table, in the order of the monster march."""
    return [p for p in PATHS if p in state["paths"]]


def card(state: State, card_id: str) -> dict[str, Any]:
    """The definition of a monster card of this game."""
    return state["catalog"]["monster"][card_id]


def card_type(state: State, entry: Monster) -> str:
    """The type of the monster on a space (troll, dragon, ...)."""
    return card(state, entry["card"])["type"]


def spaces(state: State, path: str) -> list[Monster | None]:
    """The five spaces of a path, space 1 first."""
    return state["paths"][path]["spaces"]


def occupied(state: State, path: str) -> list[tuple[int, Monster]]:
    """The monsters of a path as (space number, monster), nearest the guardian first."""
    return [(k + 1, m) for k, m in enumerate(spaces(state, path)) if m is not None]


def first_monster(state: State, path: str) -> tuple[int, Monster] | None:
    """The first monster of a path, the only one a guardian can wound ("Vous ne pouvez blesser
    que le premier monstre de votre chemin")."""
    monsters = occupied(state, path)
    return monsters[0] if monsters else None


def has_dragon(state: State, path: str) -> bool:
    """Whether a Dragon is on the path ("Un chemin comportant un Dragon ne peut pas être
    bloqué")."""
    return any(card_type(state, m) == "dragon" for _, m in occupied(state, path))


def guardian_on(state: State, path: str) -> str | None:
    """The living guardian facing a path, if any."""
    return next((g for g, guardian in state["guardians"].items()
                 if guardian["alive"] and guardian["path"] == path), None)


def free_paths(state: State) -> list[str]:
    """The paths in play that no living guardian faces."""
    return [p for p in paths_in_play(state) if not guardian_on(state, p)]


def living(state: State) -> list[str]:
    """The living guardians, in turn order."""
    return [g for g in state["order"] if state["guardians"][g]["alive"]]


def current_event(state: State) -> str | None:
    """The Event in force this round."""
    return state["events"]["current"]


def end(state: State, status: str, reason: str, out: Out) -> None:
    """End the game; only the first ending counts."""
    if state["status"] != "playing":
        return
    state["status"], state["reason"] = status, reason
    state["phase"] = "over"
    out.say("game.won" if status == "won" else "game.lost", reason=reason)


def cap(value: int, kind: str) -> int:
    """Life and Mana never exceed 4 ("Ces valeurs ne peuvent jamais être dépassées")."""
    return min(value, DATA["guardian"][kind])
