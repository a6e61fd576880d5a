"""The monster march, computed by the companion at the end of every guardian's turn.

Rulebook, "3- Déplacement des monstres": path by path in the march order, the monster nearest
the guardian first; a monster on space 1 of an unblocked path fights in contact, the others
advance one space if the space in front is free; an Archer with no monster in front shoots as it
advances (not under Pavois); a blocked path does not move and loses its Block marker; a Dragon's
path cannot be blocked; Petrification skips one whole march. Then Dragons heal ("À la fin du
tour, les blessures d'un Dragon sont automatiquement soignées").
"""

from __future__ import annotations

from .harm import strike
from .monsters import damage_of
from .table import Out, State, card_type, current_event, has_dragon, paths_in_play, spaces


def march(state: State, out: Out) -> None:
    """Move and fight every monster of the table, or only lift the Petrification."""
    if state["petrified"]:
        state["petrified"] = False
        for board in state["paths"].values():
            board["blocked"] = False  # a Block holds "ce tour" only
        out.say("march.petrified")
    else:
        for path in paths_in_play(state):
            march_path(state, path, out)
            if state["status"] != "playing":
                return
    heal_dragons(state, out)


def march_path(state: State, path: str, out: Out) -> None:
    """One path's march: a Block marker stops it (and is removed), else each monster in turn."""
    board = state["paths"][path]
    if board["blocked"]:
        board["blocked"] = False
        if not has_dragon(state, path):
            out.say("march.blocked", path=path)
            return
        out.say("march.block_ignored", path=path)
    row = spaces(state, path)
    for index in range(len(row)):
        monster = row[index]
        if monster is None:
            continue
        if index == 0:
            out.say("march.contact", card=monster["card"], path=path)
            strike(state, path, damage_of(state, monster), out, monster["card"])
        elif row[index - 1] is None:
            row[index - 1], row[index] = monster, None
            out.say("march.advances", card=monster["card"], path=path, space=index)
            if card_type(state, monster) == "archer" and not any(row[:index - 1]):
                shoot(state, path, monster["card"], out)
        if state["status"] != "playing":
            return


def shoot(state: State, path: str, archer: str, out: Out) -> None:
    """An Archer's arrow: 1 damage to the path's guardian or the temple, unless Pavois."""
    if current_event(state) == "pavise":
        out.say("march.arrow_stopped", card=archer, path=path)
        return
    out.say("march.arrow", card=archer, path=path)
    strike(state, path, 1, out, archer)


def heal_dragons(state: State, out: Out) -> None:
    """Every wounded Dragon heals at the end of the turn."""
    for path in paths_in_play(state):
        for monster in spaces(state, path):
            if monster and card_type(state, monster) == "dragon" and monster["wounds"]:
                monster["wounds"] = []
                out.say("dragon.heals", card=monster["card"], path=path)
