"""The four guardians' Marks (white rune) and Ultimate Powers.

Rulebook, "Les gardiens": Ismoros (Bouclier; Pétrification), Kyreas (Tourbillon; Piétinement),
Kulak (Prière de guérison; Second souffle), Neltaï (Échange; Tempête élémentaire); "Utiliser
votre Pouvoir ultime" (at space 4, twice at most, the token back to 0 after the first use);
Endurcis forbids the Mark.
"""

from __future__ import annotations

from typing import Any

from companion.engine import RuleError

from .actions import Fields, active, check_rerolled, move_guardian, take_dice, target_first
from .catalog import DATA
from .monsters import check_as_life, known, wound
from .table import (
    Out,
    State,
    cap,
    first_monster,
    free_paths,
    guardian_on,
    living,
    occupied,
    paths_in_play,
    spaces,
)


def on_mark(state: State, fields: Fields, out: Out) -> None:
    """Use the guardian's Mark with a white rune."""
    check_as_life(state, fields.get("as_life", False))
    (die,) = take_dice(state, [fields["die"]])
    if die["face"] != "white":
        raise RuleError("mark.not_white", face=die["face"])
    if state["events"]["current"] == "hardened":
        raise RuleError("mark.hardened")
    MARKS[state["active"]](state, fields, die, out)


def _shield(state: State, fields: Fields, die: dict[str, Any], out: Out) -> None:
    """Ismoros' Bouclier: a Shield on a guardian, one at a time."""
    target = _living_target(state, fields)
    if state["guardians"][target]["shield"]:
        raise RuleError("mark.already_shielded", guardian=target)
    state["guardians"][target]["shield"] = True
    out.say("shield.given", guardian=target)


def _whirlwind(state: State, fields: Fields, die: dict[str, Any], out: Out) -> None:
    """Kyreas' Tourbillon: any weak point of the first monster of his path."""
    path = active(state)["path"]
    space = target_first(state, path, fields.get("space"))
    check_rerolled(state, spaces(state, path)[space - 1], die)
    wound(state, path, space, fields.get("rune"), out, state["active"],
          fields.get("as_life", False))


def _prayer(state: State, fields: Fields, die: dict[str, Any], out: Out) -> None:
    """Kulak's Prière de guérison: a guardian regains 1 Life (never the temple)."""
    target = _living_target(state, fields)
    guardian = state["guardians"][target]
    if guardian["life"] == cap(guardian["life"] + 1, "life"):
        raise RuleError("heal.full_life", guardian=target)
    guardian["life"] += 1
    out.say("guardian.healed", guardian=target, life=guardian["life"])


def _exchange(state: State, fields: Fields, die: dict[str, Any], out: Out) -> None:
    """Neltaï's Échange: a monster to another path on the same space (swapping with one there),
    or Neltaï herself to another path, like a violet rune."""
    to = _required(fields, "to")
    if "space" not in fields and "from" not in fields:
        move_guardian(state, state["active"], to, out)
        return
    origin, space = _required(fields, "from"), _required(fields, "space")
    for path in (origin, to):
        if path not in state["paths"]:
            raise RuleError("path.not_in_play", path=path, paths=list(state["paths"]))
    if origin == to:
        raise RuleError("move.same_path", path=to)
    monster = spaces(state, origin)[space - 1]
    if monster is None:
        raise RuleError("exchange.no_monster", path=origin, space=space)
    other = spaces(state, to)[space - 1]
    spaces(state, origin)[space - 1], spaces(state, to)[space - 1] = other, monster
    out.say("monster.exchanged", card=monster["card"], to=to, space=space,
            other=other["card"] if other else None)


MARKS = {"ismoros": _shield, "kyreas": _whirlwind, "kulak": _prayer, "neltai": _exchange}


def target_spaces(state: State) -> dict[str, list[str]]:
    """The spaces, as ``<path>.<n>``, that a hit and the active guardian's Mark point at now: a
    hit and Kyreas' Tourbillon the first monster of the guardian's path («le premier monstre sur
    votre chemin»), Neltaï's Échange any monster («déplacez un monstre sur un autre chemin»);
    the other Marks point at a guardian. The page offers only these."""
    if state["phase"] != "actions":
        return {"hit": [], "mark": []}
    path = active(state)["path"]
    first = first_monster(state, path)
    hit = [] if first is None else [f"{path}.{first[0]}"]
    every = [f"{p}.{n}" for p in paths_in_play(state) for n, _ in occupied(state, p)]
    return {"hit": hit, "mark": {"kyreas": hit, "neltai": every}.get(state["active"], [])}


def on_ultimate(state: State, fields: Fields, out: Out) -> None:
    """Trigger the Ultimate Power charged to space 4; the token goes back to 0 (side 2), or is
    discarded after the second use."""
    check_as_life(state, fields.get("as_life", False))
    ultimate = active(state)["ultimate"]
    if ultimate["uses"] >= DATA["guardian"]["ultimate_uses"]:
        raise RuleError("ultimate.spent", guardian=state["active"])
    if ultimate["track"] < DATA["guardian"]["ultimate_charged"]:
        raise RuleError("ultimate.not_charged", guardian=state["active"],
                        track=ultimate["track"])
    ultimate["track"], ultimate["uses"] = 0, ultimate["uses"] + 1
    out.say("ultimate.used", guardian=state["active"],
            left=DATA["guardian"]["ultimate_uses"] - ultimate["uses"])
    ULTIMATES[state["active"]](state, fields, out)


def _petrification(state: State, fields: Fields, out: Out) -> None:
    """Ismoros: the next monster march is skipped on every path; Block markers are removed."""
    state["petrified"] = True
    for board in state["paths"].values():
        board["blocked"] = False
    out.say("ultimate.petrification")


def _stomp(state: State, fields: Fields, out: Out) -> None:
    """Kyreas' Piétinement: any weak point of every monster of his path (``runes`` by space)."""
    path = active(state)["path"]
    targets = [(path, space) for space, _ in occupied(state, path)]
    _wound_each(state, targets, fields, lambda p, s: str(s), out)


def _storm(state: State, fields: Fields, out: Out) -> None:
    """Neltaï's Tempête élémentaire: any weak point of each monster on space 1 of every path
    (``runes`` by path)."""
    targets = [(p, 1) for p in paths_in_play(state) if spaces(state, p)[0] is not None]
    _wound_each(state, targets, fields, lambda p, s: p, out)


def _wound_each(state: State, targets: list[tuple[str, int]], fields: Fields, key: Any,
                out: Out) -> None:
    runes = fields.get("runes", {})
    unknown = sorted(set(runes) - {key(p, s) for p, s in targets})
    if unknown:
        raise RuleError("ultimate.no_such_target", targets=unknown)
    for path, space in targets:
        known(state, spaces(state, path)[space - 1])
    for path, space in targets:
        wound(state, path, space, runes.get(key(path, space)), out, state["active"],
              fields.get("as_life", False))


def _second_wind(state: State, fields: Fields, out: Out) -> None:
    """Kulak's Second souffle: a dead guardian comes back with 4 Life in front of a path without
    a guardian (Mana and Ultimate unchanged); he plays this round if his turn is still to come."""
    target, to = _required(fields, "target"), _required(fields, "to")
    guardian = state["guardians"].get(target)
    if guardian is None or guardian["alive"]:
        raise RuleError("ultimate.not_dead", guardian=target)
    check_free_path(state, to)
    guardian.update(alive=True, life=DATA["guardian"]["life"], path=to)
    out.say("guardian.revived", guardian=target, path=to)


def check_free_path(state: State, to: str) -> None:
    """Refuse a path that is not in play or already faced by a living guardian: a guardian
    coming back to life needs a path of their own."""
    if to not in state["paths"] or guardian_on(state, to):
        raise RuleError("ultimate.path_taken", path=to, free=free_paths(state))


ULTIMATES = {"ismoros": _petrification, "kyreas": _stomp, "kulak": _second_wind,
             "neltai": _storm}


def _required(fields: Fields, name: str) -> Any:
    if name not in fields:
        raise RuleError("power.needs_field", field=name)
    return fields[name]


def _living_target(state: State, fields: Fields) -> str:
    target = _required(fields, "target")
    if target not in living(state):
        raise RuleError("target.not_living", guardian=target, living=living(state))
    return target
