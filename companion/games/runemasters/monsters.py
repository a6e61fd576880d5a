"""Monsters entering the paths, taking wounds on their weak points, and dying for rewards.

Rulebook, "Apparition d'un monstre", "Toucher un point faible", the monsters' abilities and
"Libérer tout votre Mana".
"""

from __future__ import annotations

from typing import Any

from companion.engine import RuleError

from .catalog import DATA, missing
from .harm import strike
from .table import Monster, Out, State, cap, card, card_type, current_event, spaces


def entry_spaces(state: State, card_id: str) -> list[int]:
    """Where a new monster tries to enter, in order: space 3, else 4, else 5; a Shadow on 2
    first ("Si cette case est occupée, placez-la sur la case 3 (en suivant les règles
    habituelles)")."""
    first = DATA["shadow_space"] if card(state, card_id)["type"] == "shadow" else DATA[
        "appear_space"]
    return list(range(first, DATA["spaces"] + 1))


def appear(state: State, card_id: str, out: Out) -> None:
    """Put a drawn monster on its path; if space 5 is taken it cannot enter: the card is
    discarded and the path's guardian, or the temple, takes a wound."""
    path = card(state, card_id)["colour"]
    row = spaces(state, path)
    free = [s for s in entry_spaces(state, card_id) if row[s - 1] is None]
    if not free:
        state["deck"]["discard"].append(card_id)
        out.say("monster.cannot_enter", card=card_id, path=path)
        strike(state, path, 1, out, card_id)
        return
    row[free[0] - 1] = {"card": card_id, "wounds": []}
    out.say("monster.appears", card=card_id, path=path, space=free[0])


def known(state: State, monster: Monster) -> dict[str, Any]:
    """A monster's definition, refusing a card whose weak points or rewards are not taught."""
    definition = card(state, monster["card"])
    gaps = missing(definition)
    if gaps:
        raise RuleError("card.incomplete", card=monster["card"], missing=gaps)
    return definition


def open_weak_points(state: State, monster: Monster) -> list[str]:
    """The runes of the weak points not yet wounded."""
    points = known(state, monster)["weak_points"]
    return [r for k, r in enumerate(points) if k not in monster["wounds"]]


def wound(state: State, path: str, space: int, rune: str | None, out: Out, killer: str,
          as_life: bool = False) -> None:
    """Put a wound on a weak point of the monster on a space (``rune`` None: the first one
    still open, for the powers that touch "n'importe quel point faible"); kill it when every
    weak point is wounded."""
    monster = spaces(state, path)[space - 1]
    points = known(state, monster)["weak_points"]
    open_points = [k for k, r in enumerate(points) if k not in monster["wounds"]
                   and (rune is None or r == rune)]
    if not open_points:
        raise RuleError("hit.no_weak_point", card=monster["card"], rune=rune,
                        open=open_weak_points(state, monster))
    monster["wounds"].append(open_points[0])
    out.say("monster.wounded", card=monster["card"], rune=points[open_points[0]],
            wounds=len(monster["wounds"]), of=len(points))
    if len(monster["wounds"]) == len(points):
        kill(state, path, space, out, killer, as_life)


def kill(state: State, path: str, space: int, out: Out, killer: str, as_life: bool) -> None:
    """The monster dies: its card is discarded and the guardian who struck last takes its
    rewards (Maléfice: no Mana; Soin de mana: Life instead of Mana, if asked)."""
    row = spaces(state, path)
    monster = row[space - 1]
    rewards = dict(known(state, monster)["rewards"])
    row[space - 1] = None
    state["deck"]["discard"].append(monster["card"])
    out.say("monster.killed", card=monster["card"], guardian=killer)
    mana, life = rewards.get("mana", 0), rewards.get("life", 0)
    if mana and current_event(state) == "curse":
        out.say("reward.cursed", guardian=killer, mana=mana)
        mana = 0
    if as_life:
        mana, life = 0, life + mana
    guardian = state["guardians"][killer]
    gained = {"mana": cap(guardian["mana"] + mana, "mana") - guardian["mana"],
              "life": cap(guardian["life"] + life, "life") - guardian["life"]}
    guardian["mana"] += gained["mana"]
    guardian["life"] += gained["life"]
    if mana or life:
        out.say("reward.gained", guardian=killer, mana=gained["mana"], life=gained["life"])


def check_as_life(state: State, as_life: bool) -> None:
    """Life instead of Mana is only offered by the Soin de mana Event."""
    if as_life and current_event(state) != "mana_healing":
        raise RuleError("reward.no_mana_healing", event=current_event(state))


def damage_of(state: State, monster: Monster) -> int:
    """How much a monster deals: 1, or 2 for a Troll with two wounds ("Inflige 2 dégâts quand
    il a 2 blessures")."""
    return 2 if card_type(state, monster) == "troll" and len(monster["wounds"]) >= 2 else 1
