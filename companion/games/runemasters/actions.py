"""The active guardian's actions: dice, runes and the special actions.

Rulebook, "2- Actions du gardien": each die serves one action only; a weak-point rune wounds the
first monster of the guardian's path (Warriors not with a rerolled die) or moves the guardian to
that rune's path (violet: any path; yellow too with 3 guardians), swapping with a guardian there;
two identical runes block the path (never a Dragon's); any die charges the Ultimate; rerolls cost
1 Mana a die (2 under Drain de mana); releasing all Mana (4) kills the monster in contact, except
a Sorcerer.
"""

from __future__ import annotations

from typing import Any

from companion.engine import RuleError

from .catalog import DATA, WEAK_POINT_RUNES
from .flow import dice_count, finish_turn
from .monsters import check_as_life, kill, known, wound
from .table import (
    Out,
    State,
    card_type,
    current_event,
    first_monster,
    guardian_on,
    has_dragon,
    spaces,
)

Fields = dict[str, Any]


def active(state: State) -> dict[str, Any]:
    """The guardian whose turn it is."""
    return state["guardians"][state["active"]]


def take_dice(state: State, indices: list[int]) -> list[dict[str, Any]]:
    """Set aside dice for one action ("chaque dé ne peut être utilisé que pour une seule
    action"); refuse a die not rolled or already used."""
    dice = state["turn"]["dice"]
    taken = []
    for index in indices:
        if index >= len(dice):
            raise RuleError("die.unknown", die=index, rolled=len(dice))
        die = dice[index]
        if die["used"]:
            raise RuleError("die.used", die=index, face=die["face"])
        die["used"] = True
        taken.append(die)
    return taken


def on_dice(state: State, fields: Fields, out: Out) -> None:
    """The roll of the turn, or the new faces of the dice being rerolled."""
    faces = fields["faces"]
    rerolling = state["turn"]["rerolling"]
    count = len(rerolling) if state["phase"] == "reroll" else dice_count(state)
    if len(faces) != count:
        raise RuleError("dice.count", count=count, got=len(faces))
    if state["phase"] == "reroll":
        for index, face in zip(rerolling, faces, strict=True):
            state["turn"]["dice"][index] = {"face": face, "used": False, "rerolled": True}
        state["turn"]["rerolling"] = []
    else:
        state["turn"]["dice"] = [{"face": f, "used": False, "rerolled": False} for f in faces]
    state["phase"] = "actions"
    out.say("dice.rolled", faces=faces)


def on_hit(state: State, fields: Fields, out: Out) -> None:
    """Wound a weak point of the first monster of the guardian's path with the die's rune."""
    check_as_life(state, fields.get("as_life", False))
    guardian = active(state)
    path = guardian["path"]
    (die,) = take_dice(state, [fields["die"]])
    if die["face"] not in WEAK_POINT_RUNES:
        raise RuleError("hit.not_a_weak_point_rune", face=die["face"],
                        expected=list(WEAK_POINT_RUNES))
    space = target_first(state, path, fields.get("space"))
    check_rerolled(state, spaces(state, path)[space - 1], die)
    wound(state, path, space, die["face"], out, state["active"], fields.get("as_life", False))


def target_first(state: State, path: str, space: int | None) -> int:
    """The space of the first monster of a path, refusing another space or an empty path."""
    first = first_monster(state, path)
    if first is None:
        raise RuleError("hit.no_monster", path=path)
    if space is not None and space != first[0]:
        raise RuleError("hit.not_first", space=space, first=first[0], path=path)
    return first[0]


def check_rerolled(state: State, monster: dict[str, Any], die: dict[str, Any]) -> None:
    """A Warrior "ne peut pas être blessé avec un dé relancé"."""
    if die["rerolled"] and card_type(state, monster) == "warrior":
        raise RuleError("hit.warrior_rerolled", card=monster["card"])


def on_move(state: State, fields: Fields, out: Out) -> None:
    """Move to another path with its rune (violet: any; yellow: any with 3 guardians), or once
    free under Vivacité; a guardian there swaps places."""
    to = fields["to"]
    if "die" in fields:
        (die,) = take_dice(state, [fields["die"]])
        if not reaches(state, die["face"], to):
            raise RuleError("move.wrong_rune", face=die["face"], to=to)
    elif current_event(state) != "vivacity" or state["turn"]["free_move"]:
        raise RuleError("move.needs_die", event=current_event(state))
    else:
        state["turn"]["free_move"] = True
    move_guardian(state, state["active"], to, out)


def reaches(state: State, face: str, to: str) -> bool:
    """Whether a rune moves a guardian to a path."""
    if face == "violet" or (face == "yellow" and "yellow" not in state["paths"]):
        return True
    return face == to


def move_guardian(state: State, guardian_id: str, to: str, out: Out) -> None:
    """A guardian goes to face another path; a guardian already there takes the old one."""
    if to not in state["paths"]:
        raise RuleError("path.not_in_play", path=to, paths=list(state["paths"]))
    guardian = state["guardians"][guardian_id]
    if guardian["path"] == to:
        raise RuleError("move.same_path", path=to)
    other = guardian_on(state, to)
    if other:
        state["guardians"][other]["path"] = guardian["path"]
        out.say("guardian.swaps", guardian=guardian_id, other=other, to=to,
                back=guardian["path"])
    else:
        out.say("guardian.moves", guardian=guardian_id, to=to)
    guardian["path"] = to


def on_block(state: State, fields: Fields, out: Out) -> None:
    """Two identical runes block the guardian's path for the next march."""
    first, second = take_dice(state, fields["dice"])
    if first["face"] != second["face"]:
        raise RuleError("block.not_a_pair", faces=[first["face"], second["face"]])
    path = active(state)["path"]
    board = state["paths"][path]
    if has_dragon(state, path):
        raise RuleError("block.dragon", path=path)
    if board["blocked"]:
        raise RuleError("block.already", path=path)
    board["blocked"] = True
    out.say("path.blocked", path=path, guardian=state["active"])


def on_charge(state: State, fields: Fields, out: Out) -> None:
    """Each die discarded moves the Ultimate token one space; at 4 it is charged."""
    take_dice(state, fields["dice"])
    ultimate = active(state)["ultimate"]
    top = DATA["guardian"]["ultimate_charged"]
    if ultimate["uses"] >= DATA["guardian"]["ultimate_uses"]:
        raise RuleError("ultimate.spent", guardian=state["active"])
    if ultimate["track"] + len(fields["dice"]) > top:
        raise RuleError("ultimate.overcharged", track=ultimate["track"],
                        dice=len(fields["dice"]), top=top)
    ultimate["track"] += len(fields["dice"])
    out.say("ultimate.charged", guardian=state["active"], track=ultimate["track"],
            ready=ultimate["track"] == top)


def on_reroll(state: State, fields: Fields, out: Out) -> None:
    """Pay Mana to reroll unused dice; the companion then waits for their new faces."""
    indices = fields["dice"]
    take_dice(state, indices)
    cost = len(indices) * DATA["events"].get(current_event(state) or "", {}).get(
        "reroll_cost", 1)
    guardian = active(state)
    if guardian["mana"] < cost:
        raise RuleError("reroll.not_enough_mana", cost=cost, mana=guardian["mana"])
    guardian["mana"] -= cost
    state["turn"]["rerolling"] = list(indices)
    state["phase"] = "reroll"
    out.say("dice.reroll", guardian=state["active"], count=len(indices), cost=cost)


def on_release(state: State, fields: Fields, out: Out) -> None:
    """Spend 4 Mana to destroy the monster in contact (space 1), whatever its wounds."""
    as_life = fields.get("as_life", False)
    check_as_life(state, as_life)
    guardian = active(state)
    cost = DATA["guardian"]["release_cost"]
    if guardian["mana"] < cost:
        raise RuleError("release.not_enough_mana", mana=guardian["mana"], cost=cost)
    monster = spaces(state, guardian["path"])[0]
    if monster is None:
        raise RuleError("release.no_contact", path=guardian["path"])
    if card_type(state, monster) == "sorcerer":
        raise RuleError("release.sorcerer", card=monster["card"])
    known(state, monster)
    guardian["mana"] -= cost
    out.say("mana.released", guardian=state["active"], card=monster["card"])
    kill(state, guardian["path"], 1, out, state["active"], as_life)


def on_end_turn(state: State, fields: Fields, out: Out) -> None:
    """The guardian is done; the companion marches the monsters."""
    finish_turn(state, out)
