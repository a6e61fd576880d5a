"""The seven steps of a round (rulebook, «Déroulement de la partie»), but step 6, the heroes'
free use of their dice, which lives in the rules' handlers.

1 the Titan commits two Action cards; 2 the heroes roll (Titan faces go to the Titan);
3 the Titan spends them on its abilities and gives the dice back; 4 those dice are rerolled once;
5 the Action cards are resolved, face up first; 7 clean-up.
"""

from __future__ import annotations

from typing import Any

from companion.engine import Message, RuleError

from . import board, tactics
from .board import Out, State
from .catalog import DATA
from .dice import capacity, faces, has_power, paid, power_off, spend, spend_all
from .effects import Task, effect_tasks


def commit(state: State, up: str, down: str, out: Out) -> None:
    """Step 1: one card face up, one face down (both face up after Tir Aveuglant); neither may be
    a card set aside last round («aucune carte ne peut être jouée deux tours consécutifs»)."""
    titan = state["titan"]
    for card in (up, down):
        if card in titan["set_aside"]:
            raise RuleError("commit.played_last_round", card=card)
        if card not in titan["hand"]:
            raise RuleError("commit.not_in_hand", card=card, hand_size=len(titan["hand"]))
    if up == down:
        raise RuleError("commit.same_card", card=up)
    titan["hand"].remove(up)
    titan["hand"].remove(down)
    blind = titan["blind"]
    state["play"] = [{"card": up, "up": True, "done": False},
                     {"card": down, "up": blind, "done": False}]
    state["step"] = 2
    out.say("action.committed", up=up, down=down if blind else None)
    out.say("step.roll", heroes=list(state["heroes"]))


def roll(state: State, hero_id: str, rolled: list[str], again: list[str] | None,
         out: Out) -> None:
    """Step 2: a hero rolls all their dice, then rerolls any of them as often as they like; each
    Titan face goes to the Titan at once, but Levi keeps his and may not reroll them."""
    hero = state["heroes"][hero_id]
    levi = has_power(state, hero_id, "keep_titan")
    if again is None:
        count = DATA["dice_per_hero"] - hero["lost"]
        if hero["rolled"]:
            raise RuleError("roll.already_rolled", hero=hero_id, expected="reroll")
        if len(rolled) != count:
            raise RuleError("roll.count", hero=hero_id, count=count, got=len(rolled))
    else:
        if not hero["rolled"]:
            raise RuleError("roll.not_rolled", hero=hero_id)
        if len(again) != len(rolled):
            raise RuleError("roll.count", hero=hero_id, count=len(again), got=len(rolled))
        held = list(hero["held"])
        for face in again:
            if levi and face == "titan":
                raise RuleError("roll.levi_titan", hero=hero_id)
            die = next((d for d in held if d["face"] == face and d["owner"] == hero_id), None)
            if die is None:
                raise RuleError("roll.not_held", hero=hero_id, face=face, faces=faces(held))
            held.remove(die)
        hero["held"] = held
    hero["rolled"] = True
    to_titan = 0
    for face in rolled:
        if face == "titan" and not levi:
            state["titan"]["pool"].append(hero_id)
            to_titan += 1
        else:
            hero["held"].append({"face": face, "owner": hero_id})
    out.say("dice.rolled", hero=hero_id, faces=rolled, to_titan=to_titan)


def give(state: State, gifts: dict[str, str], out: Out) -> None:
    """Eren, at the end of step 2: one of his dice to each teammate, his again at the end."""
    eren = next((h for h in state["heroes"] if has_power(state, h, "give")), None)
    if eren is None or state["gift"]:
        raise RuleError("give.no_power", used=state["gift"])
    for hero_id, face in gifts.items():
        if hero_id == eren or hero_id not in state["heroes"]:
            raise RuleError("give.not_teammate", hero=hero_id,
                            teammates=[h for h in state["heroes"] if h != eren])
        die = next((d for d in state["heroes"][eren]["held"] if d["face"] == face), None)
        if die is None:
            raise RuleError("roll.not_held", hero=eren, face=face,
                            faces=faces(state["heroes"][eren]["held"]))
        state["heroes"][eren]["held"].remove(die)
        state["heroes"][hero_id]["held"].append(die)
    state["gift"] = True
    out.say("dice.given", hero=eren, gifts=gifts_said(gifts))


def gifts_said(gifts: dict[str, str]) -> list[dict[str, Any]]:
    """Eren's gifts in words: each face with the teammate who got it."""
    return [Message("history.gift", {"hero": h, "face": f}).to_json() for h, f in gifts.items()]


def end_rolls(state: State, out: Out) -> None:
    """Everybody is satisfied: the Titan uses its Titan faces (step 3), if it has any."""
    waiting = [h for h, hero in state["heroes"].items() if not hero["rolled"]]
    if waiting:
        raise RuleError("roll.not_everyone", heroes=waiting)
    if state["titan"]["pool"]:
        state["step"] = 3
        out.say("step.titan", dice=len(state["titan"]["pool"]))
    else:
        start_resolution(state, out)


def abilities(state: State) -> list[dict[str, Any]]:
    """The three abilities of the Titan card as the page offers them: cost (None until taught),
    whether their effects are known, and whether the zone allows them now."""
    titan, zone = state["titan"]["card"], board.zone(state)
    found = []
    for n in (1, 2, 3):
        definition = state["catalog"]["ability"].get(f"{titan}.{n}", {})
        found.append({"n": n, "cost": definition.get("cost"),
                      "effects_known": definition.get("effects") is not None,
                      "allowed": n < 3 or zone in ("weak", "kill")})
    return found


def ability(state: State, n: int, definition: dict[str, Any] | None, out: Out) -> list[Task]:
    """Step 3: pay an ability of the Titan card with Titan faces; the third only in the WEAK or
    KILL ZONE («uniquement quand le marqueur Santé est sur la WEAK ZONE ou sur la KILL ZONE»)."""
    titan = state["titan"]
    if not abilities(state)[n - 1]["allowed"]:
        raise RuleError("ability.third_needs_weak_zone", zone=board.zone(state))
    if definition is None or "cost" not in definition:
        raise RuleError("ability.unknown", titan=titan["card"], n=n, expected="define")
    if definition["cost"] > len(titan["pool"]):
        raise RuleError("ability.too_expensive", n=n, cost=definition["cost"],
                        dice=len(titan["pool"]))
    for _ in range(definition["cost"]):
        titan["spent"].append(titan["pool"].pop(0))
    out.say("titan.ability", n=n, cost=definition["cost"], left=len(titan["pool"]))
    return effect_tasks(definition.get("effects"), {"ability": n})


def give_back(state: State, out: Out) -> None:
    """End of step 3: used or not, the Titan gives the dice back (step 4 rerolls them)."""
    titan = state["titan"]
    for hero_id in titan["pool"] + titan["spent"]:
        state["heroes"][hero_id]["returned"] += 1
    titan["pool"], titan["spent"] = [], []
    state["step"] = 4
    out.say("step.reroll", dice={h: x["returned"] for h, x in state["heroes"].items()
                                 if x["returned"]})


def reroll(state: State, hero_id: str, rolled: list[str], out: Out) -> None:
    """Step 4: a given-back die is rolled once more; a Titan face now is only set aside. Once
    every given-back die is rerolled, step 4 has nothing left («une dernière chance de relancer
    les dés récupérés») and the Action cards are resolved."""
    hero = state["heroes"][hero_id]
    if len(rolled) > hero["returned"]:
        raise RuleError("reroll.too_many", hero=hero_id, returned=hero["returned"],
                        got=len(rolled))
    hero["returned"] -= len(rolled)
    hero["held"] += [{"face": f, "owner": hero_id} for f in rolled if f != "titan"]
    out.say("dice.rerolled", hero=hero_id, faces=rolled)
    if not any(h["returned"] for h in state["heroes"].values()):
        start_resolution(state, out)


def start_resolution(state: State, out: Out) -> None:
    """Step 5 begins with the face-up card."""
    state["step"] = 5
    out.say("step.resolve")


def current(state: State) -> dict[str, Any] | None:
    """The Action card being resolved in step 5, or None once all are."""
    return next((e for e in state["play"] if not e["done"]), None)


def reveal(state: State, out: Out) -> None:
    """The face-down card is turned over once the cards before it are resolved."""
    entry = current(state)
    if entry is not None and not entry["up"]:
        entry["up"] = True
        out.say("action.revealed", card=entry["card"])


def resolve(state: State, pay: dict[str, dict[str, int]], cancelled: bool | None,
            out: Out) -> list[Task]:
    """Step 5: the heroes counter the card by paying its symbols, or suffer it. The collective
    symbol (Tactic) is scaled by the number of heroes; a dodge is personal, for a hero on a level
    the card hits, 2 on the ground («Annuler une action du Titan»)."""
    entry = current(state)
    card = entry["card"]
    definition = state["catalog"]["action"].get(card, {})
    counter = definition.get("counter")
    spared: list[str] = []
    if counter is None:
        spend_all(state, pay)
        cancelled = bool(pay) if cancelled is None else cancelled
    else:
        if cancelled is not None:
            raise RuleError("counter.known", card=card)
        cancelled = _counter(state, card, definition, counter, pay, spared)
    entry["done"] = True
    if cancelled:
        out.say("action.cancelled", card=card)
        return []
    out.say("action.applies", card=card, spared=spared)
    return effect_tasks(definition.get("effects"), {"card": card}, spared)


def counter_cost(state: State, entry: dict[str, Any]) -> Message:
    """What cancels the Action card ``entry``, to say with step 5 («Annuler une action du
    Titan»): the symbols the heroes pay together (Tactic: one per hero), each hit hero's dodge
    (2 on the ground), nothing, or — for a card not taught yet — the table's word."""
    definition = state["catalog"]["action"].get(entry["card"], {})
    counter = definition.get("counter")
    if counter is None:
        return Message("counter.how.unknown")
    kind = counter["type"]
    if kind == "collective":
        return Message("counter.how.pay", {"symbols": {"tactic": len(state["heroes"])}})
    if kind == "symbols":
        return Message("counter.how.pay", {"symbols": dict(counter["symbols"])})
    if kind == "dodge":
        hit = _hit_levels(definition)
        up = [level for level in hit if level != 0]
        key = "dodge" if 0 not in hit else "dodge_mixed" if up else "dodge_ground"
        return Message(f"counter.how.{key}", {"levels": up, "cost": counter.get("dodge", 1),
                                               "ground": DATA["ground_dodge"]})
    return Message("counter.how.none")


def _hit_levels(definition: dict[str, Any]) -> list[int]:
    """The levels an Action card's attacks hit."""
    return sorted({lv for e in definition.get("effects") or [] if e["op"] == "attack"
                   for lv in e["levels"]})


def _dodge_cost(counter: dict[str, Any], level: int) -> int:
    """What a hero on ``level`` pays to dodge: 2 on the ground, else the card's dodge."""
    return DATA["ground_dodge"] if level == 0 else counter.get("dodge", 1)


def counterable(state: State, entry: dict[str, Any]) -> bool:
    """Whether the heroes have a decision on the Action card ``entry`` in step 5: they may
    counter it only «s'ils disposent des dés requis», «dans le cas contraire, le Titan applique
    l'effet». False when its counter is known and the dice held cannot pay it (a card that
    cannot be countered, a collective cost beyond all their dice, no hit hero able to dodge);
    True while the card or a hero's symbol power is not taught (the table says)."""
    definition = state["catalog"]["action"].get(entry["card"], {})
    counter = definition.get("counter")
    heroes = state["heroes"]
    if counter is None or any(power_off(state, h) for h in heroes):
        return True
    kind = counter["type"]
    if kind == "none":
        return False
    if kind == "dodge":
        hit = _hit_levels(definition)
        return any(capacity(state, h, "dodge") >= _dodge_cost(counter, hero["level"])
                   for h, hero in heroes.items() if hero["level"] in hit)
    wanted = ({"tactic": len(heroes)} if kind == "collective" else dict(counter["symbols"]))
    return all(sum(capacity(state, h, symbol) for h in heroes) >= count
               for symbol, count in wanted.items())


def _counter(state: State, card: str, definition: dict[str, Any], counter: dict[str, Any],
             pay: dict[str, dict[str, int]], spared: list[str]) -> bool:
    if not pay:
        return False
    kind = counter["type"]
    if kind == "none":
        raise RuleError("counter.impossible", card=card)
    if kind == "dodge":
        hit = _hit_levels(definition)
        for hero_id, needs in pay.items():
            level = state["heroes"][hero_id]["level"]
            if level not in hit:
                raise RuleError("counter.dodge_not_hit", hero=hero_id, level=level, levels=hit)
            cost = _dodge_cost(counter, level)
            if needs != {"dodge": cost}:
                raise RuleError("counter.dodge_cost", hero=hero_id, cost=cost, given=needs)
            spend(state, hero_id, needs)
            spared.append(hero_id)
        return False
    wanted = ({"tactic": len(state["heroes"])} if kind == "collective"
              else dict(counter["symbols"]))
    given = {s: paid(pay, s) for s in {s for needs in pay.values() for s in needs}}
    if given != wanted:
        raise RuleError("counter.wrong_amount", card=card, wanted=wanted, given=given)
    spend_all(state, pay)
    return True


def nothing_left(state: State) -> bool:
    """Whether step 6 has nothing left to do: the heroes use «les dés qui leur restent», so with
    no die left in front of any hero there is nothing to use; but while the Tactic on top has
    conditions the companion does not know, the heroes may still say they met them."""
    if any(hero["held"] for hero in state["heroes"].values()):
        return False
    card = tactics.top(state)
    return card is None or tactics.definition(state, card).get("conditions") is not None


def cleanup(state: State, out: Out) -> None:
    """Step 7: every die back to its hero; the cards played are set aside, those set aside last
    round go back to the Titan's hand; a new round starts at step 1."""
    titan = state["titan"]
    titan["hand"] += titan["set_aside"]
    titan["set_aside"] = [e["card"] for e in state["play"]]
    state["play"] = []
    for hero in state["heroes"].values():
        hero.update(held=[], rolled=False, returned=0, lost=0)
    state["cannon_used"] = 0
    state["tactics"]["met"] = []
    state["gift"] = False
    state["round"] += 1
    state["step"] = 1
    out.say("step.commit", round=state["round"], hand=len(titan["hand"]))
