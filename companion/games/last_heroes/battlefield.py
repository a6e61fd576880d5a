"""The battlefield: one column of monsters per player, breaches, hero pawns and artefacts.

Positions are ``(column, level)``, both counted from 1. A breach is a hero pawn on the dark impact
zone of a monster (rulebook, «Brèche»), or a permanent breach under a monster once the pile of the
level below is empty (a permanent void). Rulebook, «Le Champ de bataille», «Attaquer un Monstre»,
«Lorsque vous tuez un Monstre de niveau 3...» and «Fin de votre Tour».
"""

from __future__ import annotations

from companion.engine import RuleError

from .cards import definition
from .record import Record, State

Position = tuple[int, int]


def monster_at(state: State, column: int, level: int) -> str | None:
    """The monster card standing at a position, if any."""
    return state["columns"][column - 1]["monsters"][level - 1]


def find(state: State, monster: str) -> Position:
    """Where a monster stands on the battlefield."""
    for c, col in enumerate(state["columns"], start=1):
        if monster in col["monsters"]:
            return c, col["monsters"].index(monster) + 1
    raise RuleError("kill.not_on_battlefield", monster=monster)


def pawn_on(state: State, column: int, level: int) -> str | None:
    """The hero whose pawn holds a breach on the monster at this position."""
    return next((h for h, p in state["players"].items() if p["pawn"] == [column, level]), None)


def permanent_below(state: State, column: int, level: int) -> bool:
    """Whether the monster at this position stands above a permanent breach."""
    return [column, level - 1] in state["permanent"]


def breached(state: State, column: int, level: int) -> bool:
    """Whether the dark impacts of the monster here are not required («ne sont plus requis»)."""
    return pawn_on(state, column, level) is not None or permanent_below(state, column, level)


def required(state: State, monster: str, column: int, level: int) -> list[int]:
    """The impacts it takes to kill a monster where it stands.

    A level-1 monster never stands in a breach, so nothing dark is asked of it unless the owner
    taught some (the public sources say nothing of its impacts).
    """
    light = definition(state, "monster", monster, "light")["light"]
    if breached(state, column, level):
        return list(light)
    if level == 1:
        return [*light, *(state["catalog"]["monster"][monster].get("dark") or [])]
    return [*light, *definition(state, "monster", monster, "dark")["dark"]]


def take(state: State, hero: str, column: int, level: int, rec: Record) -> None:
    """A killed monster goes to its killer; pawns and the artefact move as the rulebook says.

    The pawn on the monster goes back to its owner («rendez le pion Héros présent sur la carte
    à son propriétaire»); a level-3 monster's artefact goes to that pawn's owner if it is someone
    else, else to the killer; the killer's pawn opens a breach on the monster above, or comes
    back in front of them after a level-3 kill (or with no monster above).
    """
    col = state["columns"][column - 1]
    monster = col["monsters"][level - 1]
    col["monsters"][level - 1] = None
    state["players"][hero]["monsters"].append(monster)
    opener = pawn_on(state, column, level)
    if opener is not None:
        state["players"][opener]["pawn"] = None
        rec.say("breach.used", hero=hero, opener=opener, monster=monster)
    if level == 3 and col["artefact"] is not None and col["holder"] is None:
        winner = opener if opener is not None else hero
        col["holder"] = winner
        state["players"][winner]["artefacts"].append(col["artefact"])
        state["players"][winner]["powers"].append(col["artefact"])
        rec.say("artefact.won", hero=winner, power=col["artefact"], column=column)
    above = level + 1
    if above <= 3 and monster_at(state, column, above) is not None:
        state["players"][hero]["pawn"] = [column, above]
        rec.say("breach.opened", hero=hero, column=column, level=above)
    else:
        state["players"][hero]["pawn"] = None


def all_artefacts_taken(state: State) -> bool:
    """Whether every artefact of the battlefield has been won («tous les Artefacts»)."""
    return all(col["holder"] is not None for col in state["columns"])


def plan_refill(state: State, rec: Record) -> None:
    """List the voids to fill at the end of a turn, skipping columns where a pawn holds a breach;
    a void whose pile is empty becomes a permanent breach («reste permanente»)."""
    held = {p["pawn"][0] for p in state["players"].values() if p["pawn"] is not None}
    planned = {level: 0 for level in (1, 2, 3)}
    state["refill"] = []
    for c, col in enumerate(state["columns"], start=1):
        if c in held:
            continue
        for level, monster in enumerate(col["monsters"], start=1):
            if monster is not None or [c, level] in state["permanent"]:
                continue
            if state["piles"][str(level)] > planned[level]:
                planned[level] += 1
                state["refill"].append([c, level])
            else:
                state["permanent"].append([c, level])
                rec.say("breach.permanent", column=c, level=level)


def reveal(state: State, monster: str, position: list[int] | None) -> list[int]:
    """Put a monster drawn from its pile into a planned void (the first one by default)."""
    if not state["refill"]:
        raise RuleError("reveal.nothing_to_fill")
    target = position or state["refill"][0]
    if target not in state["refill"]:
        raise RuleError("reveal.not_a_void", column=target[0], level=target[1],
                        voids=state["refill"])
    check_new_monster(state, monster, target[1])
    state["refill"].remove(target)
    state["columns"][target[0] - 1]["monsters"][target[1] - 1] = monster
    state["piles"][str(target[1])] -= 1
    return target


def check_new_monster(state: State, monster: str, level: int) -> None:
    """A monster card comes into play once, from the pile of its level."""
    if monster in state["monsters_seen"]:
        raise RuleError("monster.already_seen", monster=monster)
    printed = state["catalog"]["monster"].get(monster, {}).get("level")
    if printed is not None and printed != level:
        raise RuleError("monster.wrong_level", monster=monster, level=printed, position=level)
    state["monsters_seen"].append(monster)
