"""Combat arithmetic: who may fight what, what dice and Equipment can beat, the cheapest win.

Rulebook, "Combat" and "Combattre deux monstres simultanément": white faces are jokers; Equipment
of the right colour from the fighter and the heroes on the same tile completes the dice; two
monsters from a corner need their summed resistance, and if only one can fall the fighter picks.
"""

from __future__ import annotations

from collections import Counter
from itertools import combinations
from typing import Any

from companion.engine import RuleError

from .flow import card_def, side_of
from .geometry import CENTRE, Position, opposite, slots_facing
from .tokens import State, has_power, hero_able, slot_entry

Spend = dict[str, dict[str, int]]


def reachable_slots(state: State, hero_id: str) -> list[str]:
    """The slots a hero may fight from their tile (Twindalli also from the centre, by inference:
    the middle slot of each board, two at once only if opposite)."""
    hero = state["heroes"][hero_id]
    tile: Position = tuple(hero["tile"])
    if tile == CENTRE and hero.get("power") == "central_fight" and has_power(hero):
        return [f"{state['boards'][side]}.1" for side in ("N", "E", "S", "W")]
    return [f"{state['boards'][side]}.{k}" for side, k in slots_facing(tile)]


def check_targets(state: State, hero_id: str, targets: list[str]) -> None:
    """Refuse a fight the rules do not allow, saying why."""
    hero = state["heroes"][hero_id]
    reachable = reachable_slots(state, hero_id)
    if tuple(hero["tile"]) == CENTRE and not reachable:
        raise RuleError("fight.from_centre", hero=hero_id)
    if len(set(targets)) != len(targets):
        raise RuleError("fight.same_target_twice", targets=targets)
    for slot in targets:
        if slot not in reachable:
            raise RuleError("fight.not_adjacent", hero=hero_id, slot=slot, reachable=reachable)
        if slot_entry(state, slot) is None:
            raise RuleError("fight.empty_slot", slot=slot)
    if len(targets) == 2 and tuple(hero["tile"]) == CENTRE:
        a, b = (side_of(state, s.split(".")[0]) for s in targets)
        if opposite(a) != b:
            raise RuleError("fight.not_opposite", targets=targets)


def resistance(state: State, slot: str) -> int:
    """A card's resistance now: printed value, corrections and Mylfaar's enchantment, never < 0."""
    entry = slot_entry(state, slot)
    base = card_def(state, entry["card"])["resistance"]
    return max(0, base + entry["modifier"] - ("enchantment" in entry["items"]))


def helpers(state: State, fighter: str) -> list[str]:
    """The fighter, then the heroes in play on the same tile, whose Equipment may be spent."""
    tile = state["heroes"][fighter]["tile"]
    mates = [h for h, hero in state["heroes"].items()
             if h != fighter and hero_able(hero) and hero["tile"] == tile]
    return [fighter, *mates]


def needs(state: State, falls: list[str]) -> Counter[str]:
    """Faces needed per colour to defeat these cards together."""
    need: Counter[str] = Counter()
    for slot in falls:
        need[card_def(state, slot_entry(state, slot)["card"])["colour"]] += resistance(state, slot)
    return need


def shortfall(need: Counter[str], faces: list[str], spent: Counter[str]) -> int:
    """How many jokers short the dice and spent Equipment leave this need (0 = it is met)."""
    dice = Counter(faces)
    missing = sum(max(0, n - dice[c] - spent[c]) for c, n in need.items())
    return max(0, missing - dice["white"])


def check_resolution(state: State, combat: dict[str, Any], falls: list[str], spend: Spend) -> None:
    """Refuse an outcome the dice and Equipment do not allow, saying why."""
    for slot in falls:
        if slot not in combat["targets"]:
            raise RuleError("resolve.not_a_target", slot=slot, targets=combat["targets"])
    allowed = helpers(state, combat["fighter"])
    need = needs(state, falls)
    spent: Counter[str] = Counter()
    for hero_id, colours in spend.items():
        if hero_id not in allowed:
            raise RuleError("resolve.not_on_tile", hero=hero_id, allowed=allowed)
        for colour, count in colours.items():
            if count > state["heroes"][hero_id]["equipment"][colour]:
                raise RuleError("resolve.not_held", hero=hero_id, colour=colour, count=count)
            spent[colour] += count
    for colour, count in spent.items():
        if count > need[colour]:
            raise RuleError("resolve.useless_spend", colour=colour, count=count,
                            needed=need[colour])
    missing = shortfall(need, combat["faces"], spent)
    if missing:
        raise RuleError("resolve.not_enough", falls=falls, missing=missing)


def cheapest_spend(state: State, combat: dict[str, Any], falls: list[str]) -> Spend | None:
    """The fewest Equipment tokens that make these cards fall, or None if they cannot."""
    need = needs(state, falls)
    dice = Counter(combat["faces"])
    deficit = {c: max(0, n - dice[c]) for c, n in need.items()}
    to_cover = max(0, sum(deficit.values()) - dice["white"])
    spend: Spend = {}
    for colour in sorted(deficit, key=lambda c: -deficit[c]):
        for hero_id in helpers(state, combat["fighter"]):
            if to_cover == 0:
                break
            take = min(deficit[colour], state["heroes"][hero_id]["equipment"][colour], to_cover)
            if take:
                spend.setdefault(hero_id, {})[colour] = take
                deficit[colour] -= take
                to_cover -= take
    return None if to_cover else spend


def suggestion(state: State, combat: dict[str, Any]) -> dict[str, Any]:
    """The outcome the companion proposes: as many cards as can fall, Warlords and the strongest
    first, for the fewest tokens; nothing falls if nothing can."""
    targets = combat["targets"]

    def priority(group: tuple[str, ...]) -> tuple[int, int, int]:
        warlords = sum(card_def(state, slot_entry(state, s)["card"])["type"] == "warlord"
                       for s in group)
        return (len(group), warlords, sum(resistance(state, s) for s in group))

    groups = [g for n in range(len(targets), 0, -1) for g in combinations(targets, n)]
    for group in sorted(groups, key=priority, reverse=True):
        spend = cheapest_spend(state, combat, list(group))
        if spend is not None:
            return {"falls": list(group), "spend": spend}
    return {"falls": [], "spend": {}}


def spent_tokens(spend: Spend) -> int:
    """How many tokens a spend uses."""
    return sum(n for colours in spend.values() for n in colours.values())
