"""The handlers of the table's events: each checks the rule it encodes, then changes the state.

They work on a copy of the state (``rules.LastHeroes.apply``): a RuleError raised half-way leaves
the session's state untouched.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from companion.engine import Message, RuleError
from companion.engine.catalog import learn

from . import battlefield
from .adjust import on_adjust
from .cards import from_hand, learn_define, put, weapon
from .catalog import check_definition
from .chargers import gain_joker, insert, slot_entry, take_ammo
from .combat import covers, covers_with_upgrade
from .flow import chargers_ready, end_turn, finish, next_turn, start_turn
from .record import Record, State

Fields = dict[str, Any]


def on_charger(state: State, fields: Fields, rec: Record) -> None:
    """One of the two cards a hero puts in their charger at setup («choisit en secret 2 cartes
    Arme [...] insère alors ses deux cartes»); no Joker is gained for them."""
    hero, card = fields["hero"], fields["card"]
    learn_define(state, "weapon", card, fields, rec)
    free = [side for side, entry in state["players"][hero]["charger"].items() if entry is None]
    if not free:
        raise RuleError("charger.full", hero=hero)
    from_hand(state, hero, card)
    insert(state, hero, free[0], card, rec)
    rec.label = Message("history.charger", {"hero": hero, "card": card})
    if chargers_ready(state):
        start_turn(state, state["first"], rec)


def _unwanted(fields: Fields, *names: str) -> None:
    extra = [name for name in names if name in fields]
    if extra:
        raise RuleError("play.fields", played_as=fields["as"], fields=extra)


def on_play(state: State, fields: Fields, rec: Record) -> None:
    """The compulsory card of the turn: into the charger (+1 Joker) or loaded as a weapon in one
    go, each other hero earning 1 Charisma per ammo they supplied (rulebook, «A - Partager des
    Munitions», «B - Charger une Arme»)."""
    hero, card = state["active"], fields["card"]
    learn_define(state, "weapon", card, fields, rec)
    if fields["as"] == "ammo":
        _unwanted(fields, "ammo", "jokers")
        if "slot" not in fields:
            raise RuleError("event.missing_field", event="play", field="slot")
        from_hand(state, hero, card)
        insert(state, hero, fields["slot"], card, rec)
        gain_joker(state, hero, rec)
    else:
        _unwanted(fields, "slot")
        from_hand(state, hero, card)
        charisma = take_ammo(state, hero, card, fields.get("ammo", []), fields.get("jokers", 0),
                             rec)
        state["players"][hero]["loaded"].append(card)
        put(state, card, f"loaded:{hero}")
        rec.say("weapon.loaded", hero=hero, card=card, jokers=fields.get("jokers", 0),
                charisma=charisma)
    state["phase"] = "act"
    rec.label = Message("history.play", {"hero": hero, "card": card, "played_as": fields["as"]})


def _forces(state: State, hero: str, weapons: list[str]) -> list[int]:
    loaded = state["players"][hero]["loaded"]
    for card in weapons:
        if card not in loaded:
            raise RuleError("kill.not_loaded", card=card, loaded=loaded)
    if len(set(weapons)) != len(weapons):
        raise RuleError("kill.weapon_twice", weapons=weapons)
    return [weapon(state, card, "impact")["impact"] for card in weapons]


def on_kill(state: State, fields: Fields, rec: Record) -> None:
    """Kill one monster at once with loaded weapons, one per required impact (rulebook,
    «Attaquer un Monstre»); a second one only with Adrenaline."""
    hero, turn, monster = state["active"], state["turn"], fields["monster"]
    allowed = 2 if turn["adrenaline"] else 1
    if turn["kills"] >= allowed:
        raise RuleError("kill.one_per_turn", hero=hero, kills=turn["kills"])
    learn_define(state, "monster", monster, fields, rec)
    column, level = battlefield.find(state, monster)
    forces = _forces(state, hero, fields["weapons"])
    needed = battlefield.required(state, monster, column, level)
    if len(forces) != len(needed):
        light = state["catalog"]["monster"].get(monster, {}).get("light")
        if level > 1 and light is not None and len(forces) == len(light):
            raise RuleError("kill.no_breach", monster=monster, column=column, level=level,
                            needed=len(needed))
        raise RuleError("kill.weapon_count", monster=monster, needed=len(needed),
                        given=len(forces))
    if not covers(needed, forces):
        if not (turn["impact"] and covers_with_upgrade(needed, forces)):
            raise RuleError("kill.too_weak", monster=monster, needed=needed, given=forces)
        turn["impact"] = False
        rec.say("power.impact_used", hero=hero)
    player = state["players"][hero]
    for card in fields["weapons"]:
        player["loaded"].remove(card)
        put(state, card, "discard")
    battlefield.take(state, hero, column, level, rec)
    turn["kills"] += 1
    if level == 1:
        turn["swaps"] += 1
    rec.say("monster.killed", hero=hero, monster=monster, level=level, column=column)
    rec.label = Message("history.kill", {"hero": hero, "monster": monster,
                                         "weapons": fields["weapons"]})
    if battlefield.all_artefacts_taken(state):
        finish(state, "artefacts", rec)


def on_swap(state: State, fields: Fields, rec: Record) -> None:
    """After a level-1 kill: a hand card for any charger card; +1 Joker if it was one's own
    («Si vous effectuez l'échange avec une carte de votre Chargeur, gagnez immédiatement un
    Joker»)."""
    hero, turn, card = state["active"], state["turn"], fields["card"]
    if turn["swaps"] < 1:
        raise RuleError("swap.not_earned", hero=hero)
    learn_define(state, "weapon", card, fields, rec)
    owner, side = fields["slot"].split(".")
    slot_entry(state, fields["slot"])
    from_hand(state, hero, card, keep_count=True)
    taken = insert(state, owner, side, card, rec, replaced_to=f"hand:{hero}")
    turn["swaps"] -= 1
    if owner == hero:
        gain_joker(state, hero, rec)
    rec.label = Message("history.swap", {"hero": hero, "card": card, "taken": taken,
                                         "slot": fields["slot"]})


def _needs(fields: Fields, *names: str) -> None:
    for name in names:
        if name not in fields:
            raise RuleError("event.missing_field", event="power", field=name)


def on_power(state: State, fields: Fields, rec: Record) -> None:
    """Use an artefact's power, once in the game (rulebook, the six power tiles); Impact,
    Immunity and Adrenaline last until the end of this turn. The Joker on a wheel already at
    3 («max. 3») is taken: the tile is spent and its Joker lost (the rulebook limits the tile
    and the wheel, and forbids no play whose gain is lost)."""
    hero, power = state["active"], fields["power"]
    player = state["players"][hero]
    if power not in player["powers"]:
        raise RuleError("power.not_held", hero=hero, power=power, held=player["powers"])
    if power == "joker":
        gain_joker(state, hero, rec)
    elif power == "exchange":
        _needs(fields, "card", "discard")
        if fields["discard"] not in state["discard"]:
            raise RuleError("exchange.not_discarded", card=fields["discard"])
        from_hand(state, hero, fields["card"], keep_count=True)
        state["discard"].remove(fields["discard"])
        put(state, fields["discard"], f"hand:{hero}")
        put(state, fields["card"], "discard")
    elif power == "reload":
        _needs(fields, "slot")
        entry = player["charger"][fields["slot"]]
        entry["ammo"] = weapon(state, entry["card"], "ammo")["ammo"]
    else:
        state["turn"][power] = True
    player["powers"].remove(power)
    rec.say("power.used", hero=hero, power=power)
    rec.label = Message("history.power", {"hero": hero, "power": power})


def on_end_turn(state: State, fields: Fields, rec: Record) -> None:
    """The active hero is done (rulebook, «Fin de votre Tour»)."""
    rec.label = Message("history.end_turn", {"hero": state["active"]})
    end_turn(state, rec)


def on_reveal(state: State, fields: Fields, rec: Record) -> None:
    """A monster drawn from its pile fills a void of a column no pawn holds."""
    monster = fields["card"]
    given = [fields[name] for name in ("column", "level") if name in fields]
    if len(given) == 1:
        raise RuleError("event.missing_field", event="reveal",
                        field="level" if "column" in fields else "column")
    learn_define(state, "monster", monster, fields, rec)
    column, level = battlefield.reveal(state, monster, given or None)
    rec.say("monster.revealed", monster=monster, column=column, level=level)
    rec.label = Message("history.reveal", {"monster": monster, "column": column, "level": level})
    if not state["refill"]:
        next_turn(state, rec)


def on_teach(state: State, fields: Fields, rec: Record) -> None:
    """The owner completes a card's printed values (ammo, cost, impacts, points, name)."""
    kind, item = fields["kind"], fields["id"]
    learn(state, kind, item, check_definition(kind, item, fields["definition"]), rec)
    rec.label = Message("history.teach", {"kind": kind, "id": item})


Handler = Callable[[State, Fields, Record], None]
HANDLERS: dict[str, Handler] = {
    "charger": on_charger, "play": on_play, "kill": on_kill, "swap": on_swap,
    "power": on_power, "end_turn": on_end_turn, "reveal": on_reveal, "teach": on_teach,
    "adjust": on_adjust,
}
