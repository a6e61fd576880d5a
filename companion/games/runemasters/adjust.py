"""Host corrections (``adjust``): any value the table got wrong, with the books kept consistent.

A guardian's Life, Mana, Ultimate track, path, Shield and Poison; the temple's Life; a path
space (which monster card is on it, its wounds, where it stands). The monster pile stays right:
a card named on a space must be one that can still come out of this table's pile, one monster a
space. A refusal is raised before anything is kept (``Runemasters.apply`` works on a copy).
"""

from __future__ import annotations

from collections.abc import Callable

from companion.engine import Message, RuleError, validate

from .actions import Fields, move_guardian
from .catalog import DAWN
from .flow import check_monster_card, finish_turn
from .harm import die
from .monsters import known
from .powers import check_free_path
from .schemas import ADJUST_TARGETS
from .table import Monster, Out, State, end, free_paths, spaces

TURN_PHASES = ("roll", "reroll", "actions")
"""The phases in which the active guardian is acting: killed then, their turn ends."""


def target(fields: Fields) -> str:
    """Which value is corrected (``guardian``, ``temple`` or ``space``); a field that belongs
    to another target is refused, so a correction never passes half-read."""
    name = next((n for n in ADJUST_TARGETS if n in fields), None)
    if name is None:
        raise RuleError("event.missing_field", event="adjust", field="|".join(ADJUST_TARGETS))
    validate("adjust", fields, ADJUST_TARGETS[name])
    return name


def label(fields: Fields) -> Message:
    """The history line: the values given, and the host's note."""
    target(fields)
    what = [f"{k}={v}" for k, v in fields.items() if k != "note"]
    return Message("history.adjust", {"what": what, "note": fields.get("note")})


def on_adjust(state: State, fields: Fields, out: Out) -> None:
    """A host correction of one guardian, the temple or one path space."""
    ADJUSTERS[target(fields)](state, fields, out)


def _adjust_guardian(state: State, fields: Fields, out: Out) -> None:
    """Set a guardian's values. Life 0 kills a living guardian (the last one loses the game;
    the active one's turn ends and the monsters march); Life given to a dead one brings them
    back in front of a free path."""
    guardian_id = fields["guardian"]
    if guardian_id not in state["guardians"]:
        raise RuleError("adjust.not_playing", guardian=guardian_id, guardians=state["order"])
    guardian = state["guardians"][guardian_id]
    guardian.update({k: fields[k] for k in ("life", "mana", "shield", "poison") if k in fields})
    if "ultimate" in fields:
        guardian["ultimate"]["track"] = fields["ultimate"]
    if not guardian["alive"]:
        _dead_guardian(state, guardian_id, fields)
    elif "path" in fields and fields["path"] != guardian["path"]:
        move_guardian(state, guardian_id, fields["path"], out)
    if guardian["alive"] and guardian["life"] == 0:
        die(state, guardian_id, out)
        if state["status"] == "playing" and guardian_id == state["active"] \
                and state["phase"] in TURN_PHASES:
            finish_turn(state, out)


def _dead_guardian(state: State, guardian_id: str, fields: Fields) -> None:
    """A dead guardian keeps only Mana and the Ultimate track; with Life again they need a path
    no living guardian faces (as after Kulak's Second souffle)."""
    guardian = state["guardians"][guardian_id]
    if guardian["life"] == 0:
        wrong = [k for k in ("path", "shield", "poison") if fields.get(k)]
        if wrong:
            raise RuleError("adjust.dead_guardian", guardian=guardian_id, fields=wrong)
        return
    if "path" not in fields:
        raise RuleError("adjust.needs_path", guardian=guardian_id, free=free_paths(state))
    check_free_path(state, fields["path"])
    guardian.update(alive=True, path=fields["path"])


def _adjust_temple(state: State, fields: Fields, out: Out) -> None:
    """Set the temple's Life, never above its starting Life; at 0 the game is lost."""
    temple = state["temple"]
    if fields["temple"] > temple["max"]:
        raise RuleError("adjust.above_max", what="temple", value=fields["temple"],
                        max=temple["max"])
    temple["life"] = fields["temple"]
    if temple["life"] == 0:
        end(state, "lost", "temple_fallen", out)


def _adjust_space(state: State, fields: Fields, out: Out) -> None:
    """Correct a path space: the card on it, then its wounds or its removal, then its place."""
    path, index = _space(state, fields["space"])
    row = spaces(state, path)
    if "card" in fields:
        _put_card(state, row, index, fields["card"])
    monster = row[index]
    if monster is None:
        raise RuleError("exchange.no_monster", path=path, space=index + 1)
    if fields.get("remove"):
        row[index] = None
        state["deck"]["discard"].append(monster["card"])
        return
    if "wounds" in fields:
        _set_wounds(state, monster, fields["wounds"])
    if "to" in fields:
        _move_monster(state, row, index, fields["to"])


def _space(state: State, name: str) -> tuple[str, int]:
    """A space ``<path>.<1-5>`` of a path in play, as (path, index from 0)."""
    path, number = name.split(".")
    if path not in state["paths"]:
        raise RuleError("path.not_in_play", path=path, paths=list(state["paths"]))
    return path, int(number) - 1


def _put_card(state: State, row: list[Monster | None], index: int, card_id: str) -> None:
    """Name the card on a space, checked as if the misread card (if any) went back into the
    pile and this one were drawn instead: known, not revealed yet, of this table's pile. Its
    wounds start afresh."""
    if card_id == DAWN:
        raise RuleError("adjust.dawn")
    deck = state["deck"]
    order = len(deck["seen"])
    if row[index] is not None:
        order = deck["seen"].index(row[index]["card"])
        deck["seen"].pop(order)
        deck["drawn"] -= 1
    check_monster_card(state, card_id)
    deck["seen"].insert(order, card_id)
    deck["drawn"] += 1
    row[index] = {"card": card_id, "wounds": []}


def _set_wounds(state: State, monster: Monster, wounds: list[int]) -> None:
    """Which weak points are wounded, by their index on the card; all of them would be a kill,
    which a correction does not make up (remove the card and correct the rewards instead)."""
    points = known(state, monster)["weak_points"]
    if len(set(wounds)) != len(wounds) or any(k >= len(points) for k in wounds):
        raise RuleError("adjust.wounds", card=monster["card"], last=len(points) - 1,
                        wounds=wounds)
    if len(wounds) == len(points):
        raise RuleError("adjust.all_wounded", card=monster["card"])
    monster["wounds"] = sorted(wounds)


def _move_monster(state: State, row: list[Monster | None], index: int, to: str) -> None:
    """Move a monster to an empty space of a path in play: one monster a space."""
    path, target_index = _space(state, to)
    target_row = spaces(state, path)
    if target_row[target_index] is not None:
        raise RuleError("adjust.space_taken", space=to, card=target_row[target_index]["card"])
    target_row[target_index], row[index] = row[index], None


ADJUSTERS: dict[str, Callable[[State, Fields, Out], None]] = {
    "guardian": _adjust_guardian, "temple": _adjust_temple, "space": _adjust_space,
}
