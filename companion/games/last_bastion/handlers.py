"""Last Bastion: what each accepted event does to the state (one handler per event type)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from companion.engine import (
    Message,
    RuleError,
)
from companion.engine.catalog import learn

from . import combat
from .catalog import COMBAT_FACES, check_definition, taught, timing_of
from .flow import (
    active_hero,
    all_slots,
    card_def,
    discard_card,
    effect_tasks,
    legal_slots,
    next_turn,
)
from .geometry import adjacent
from .prompts import market_default
from .tokens import (
    OUT_STATES,
    Out,
    State,
    gain,
    grip_tile,
    has_power,
    heal,
    held,
    hero_able,
    knock_out,
    set_card_grip,
    set_hero_grip,
    slot_entry,
    take_out,
    ungrip_tile,
)

Handler = Callable[[State, dict[str, Any], Out], None]


def _hero(state: State, hero_id: str) -> dict[str, Any]:
    if hero_id not in state["heroes"]:
        raise RuleError("hero.unknown", hero=hero_id, known=sorted(state["heroes"]))
    return state["heroes"][hero_id]


def on_card(state: State, fields: dict[str, Any], out: Out) -> None:
    """A Horde card was drawn (rulebook, "Action du plateau Horde" and "Règles de placement")."""
    card_id, deck = fields["id"], state["deck"]
    if "define" in fields:
        learn(state, "card", card_id, check_definition("card", card_id, fields["define"]), out)
    definition = playable(state, card_id)
    if card_id in deck["seen"]:
        raise RuleError("card.already_drawn", card=card_id)
    warlord_next = deck["drawn"] in deck["warlords"]
    if (definition["type"] == "warlord") != warlord_next:
        raise RuleError("card.wrong_type", card=card_id,
                        expected="warlord" if warlord_next else "monster")
    slots = legal_slots(state, definition)
    slot = fields.get("slot")
    if slot is not None and slot not in slots:
        raise RuleError("place.illegal", slot=slot, legal=slots)
    state["queue"].pop(0)
    deck["drawn"] += 1
    deck["seen"].append(card_id)
    out.say("card.drawn", card=definition["name"], colour=definition["colour"],
            resistance=definition["resistance"], type=definition["type"])
    out.label = Message("history.card", {"card": definition["name"]})
    if slot is None and len(slots) > 1:
        state["queue"].insert(0, {"do": "place", "card": card_id})
        return
    place(state, card_id, slot or slots[0], out)


def playable(state: State, card_id: str) -> dict[str, Any]:
    """A card's definition, if it is known well enough to be put in play."""
    if card_id not in state["catalog"]["card"]:
        raise RuleError("card.unknown", card=card_id)
    definition = card_def(state, card_id)
    missing = [k for k in ("colour", "resistance") if definition.get(k) is None]
    if missing:
        raise RuleError("card.incomplete", card=card_id, missing=missing)
    return definition


def on_place(state: State, fields: dict[str, Any], out: Out) -> None:
    """The drawn card was put on a free slot of the player's choice."""
    task = state["queue"][0]
    slots = legal_slots(state, card_def(state, task["card"]))
    if fields["slot"] not in slots:
        raise RuleError("place.illegal", slot=fields["slot"], legal=slots)
    state["queue"].pop(0)
    place(state, task["card"], fields["slot"], out)
    out.label = Message("history.place", {"card": card_def(state, task["card"])["name"],
                                           "slot": fields["slot"]})


def place(state: State, card_id: str, slot: str, out: Out) -> None:
    """Put a card on a slot and queue its arrival effects for the active player ("Effets
    d'arrivée ... appliqués une seule fois par le joueur actif, dès que la carte est placée")."""
    colour, k = slot.split(".")
    state["slots"][colour][int(k)] = {"card": card_id, "items": [], "modifier": 0}
    definition = card_def(state, card_id)
    out.say("card.placed", card=definition["name"], board=colour, slot=int(k) + 1)
    source = {"card": card_id, "slot": slot, "timing": "arrival"}
    arrival = effect_tasks(timing_of(definition, "arrival"), source, active_hero(state))
    state["queue"][:0] = arrival


def on_dice(state: State, fields: dict[str, Any], out: Out) -> None:
    """Dice were read (or entered) for the roll the game is waiting for."""
    task = state["queue"][0]
    if task["do"] == "corruption":
        _corruption_dice(state, task, fields, out)
        return
    roll = state["combat"]
    if roll["faces"] is not None:
        _check_reroll(state, fields)
    elif fields.get("reroll"):
        raise RuleError("dice.nothing_to_reroll")
    count = 2 if task["do"] == "market" else 3
    faces = fields["faces"]
    if len(faces) != count or any(f not in COMBAT_FACES for f in faces):
        raise RuleError("dice.bad_faces", faces=faces, count=count, known=list(COMBAT_FACES))
    grey = fields.get("grey")
    if task["do"] == "fight" and roll["grey_die"] != (grey is not None):
        raise RuleError("dice.grey" if roll["grey_die"] else "dice.no_grey", hero=roll["fighter"])
    if grey is not None and grey not in COMBAT_FACES:
        raise RuleError("dice.bad_faces", faces=[grey], count=1, known=list(COMBAT_FACES))
    roll["faces"] = faces + ([grey] if grey else [])
    out.say("dice.rolled", faces=roll["faces"])
    out.label = Message("history.dice", {"faces": roll["faces"]})
    if task["do"] == "fight":
        best = combat.suggestion(state, roll)
        names = [card_def(state, slot_entry(state, s)["card"])["name"] for s in best["falls"]]
        out.say("fight.can_win" if best["falls"] else "fight.cannot_win", cards=names,
                tokens=combat.spent_tokens(best["spend"]))


def _check_reroll(state: State, fields: dict[str, Any]) -> None:
    """Feng Li alone may reroll, once in her Hero phase; the second result stands."""
    hero_id = active_hero(state)
    hero = state["heroes"].get(hero_id) if hero_id else None
    if not fields.get("reroll"):
        raise RuleError("dice.already_rolled")
    if hero is None or hero["power"] != "reroll" or not has_power(hero):
        raise RuleError("dice.no_reroll_power")
    if state["turn"]["rerolled"]:
        raise RuleError("dice.reroll_used")
    state["turn"]["rerolled"] = True


def _corruption_dice(state: State, task: dict[str, Any], fields: dict[str, Any],
                     out: Out) -> None:
    faces = state["catalog"]["corruption"]
    if task.get("face") is not None:
        _check_reroll(state, fields)
    elif fields.get("reroll"):
        raise RuleError("dice.nothing_to_reroll")
    if len(fields["faces"]) != 1 or fields["faces"][0] not in faces:
        raise RuleError("dice.bad_faces", faces=fields["faces"], count=1, known=sorted(faces))
    task["face"] = fields["faces"][0]
    out.say("corruption.rolled", face=task["face"])
    out.label = Message("history.corruption", {"face": task["face"]})
    hero_id = active_hero(state)
    hero = state["heroes"].get(hero_id) if hero_id else None
    can_reroll = (hero is not None and hero["power"] == "reroll" and has_power(hero)
                  and not state["turn"]["rerolled"] and state["turn"]["phase"] == "hero")
    if not can_reroll:
        _apply_corruption(state, out)


def _apply_corruption(state: State, out: Out) -> None:
    task = state["queue"].pop(0)
    face = state["catalog"]["corruption"][task["face"]]
    effects = taught(face.get("effects"), face.get("text"))
    state["queue"][:0] = effect_tasks(effects, {"face": task["face"], "timing": "corruption"},
                                      task.get("who") or active_hero(state))


def on_resolve(state: State, fields: dict[str, Any], out: Out) -> None:
    """The outcome of a roll is settled: the companion's suggestion unless told otherwise."""
    task = state["queue"][0]
    if task["do"] == "corruption":
        _apply_corruption(state, out)
        return
    roll = state["combat"]
    if roll["faces"] is None:
        raise RuleError("event.not_expected", event="resolve", expected=["dice"])
    if task["do"] == "market":
        _resolve_market(state, fields, out)
        return
    best = combat.suggestion(state, roll)
    falls = fields.get("falls", best["falls"])
    spend = fields.get("spend")
    if spend is None:
        spend = combat.cheapest_spend(state, roll, falls) if falls else {}
        if spend is None:
            raise RuleError("resolve.not_enough", falls=falls, missing=None)
    spend = {h: {c: n for c, n in colours.items() if n} for h, colours in spend.items()}
    combat.check_resolution(state, roll, falls, spend)
    state["queue"].pop(0)
    for hero_id, colours in spend.items():
        for colour, count in colours.items():
            state["heroes"][hero_id]["equipment"][colour] -= count
            state["reserve"]["equipment"][colour] += count
    names = [card_def(state, slot_entry(state, s)["card"])["name"] for s in roll["targets"]]
    fallen = [card_def(state, slot_entry(state, s)["card"])["name"] for s in falls]
    spent = {c: n for colours in spend.values() for c, n in colours.items()}
    result = "won" if falls else ("declined" if combat.suggestion(state, roll)["falls"] else "lost")
    if falls and len(falls) < len(roll["targets"]):
        result = "partly_won"
    out.say(f"fight.{result}", hero=roll["fighter"], cards=fallen or names, spent=spent)
    # nothing spent: no "spent —" in the history (issue 39)
    out.label = Message("history.fight" if spent else "history.fight_unspent",
                        {"hero": state["heroes"][roll["fighter"]]["name"], "cards": names,
                         "fallen": fallen, "result": f"fight_{result}", "spent": spent})
    state["combat"] = None
    tasks: list[dict[str, Any]] = []
    for slot in falls:
        entry = slot_entry(state, slot)
        definition = card_def(state, entry["card"])
        if definition["type"] == "warlord":
            state["deck"]["warlords_defeated"] += 1
            out.say("warlord.defeated", card=definition["name"],
                    left=len(state["deck"]["warlords"]) - state["deck"]["warlords_defeated"])
        source = {"card": entry["card"], "slot": slot, "timing": "exit"}
        tasks += effect_tasks(timing_of(card_def(state, entry["card"]), "exit"), source,
                              roll["fighter"])
        tasks.append({"do": "discard", "slot": slot})
    if falls:
        tasks.append({"do": "victory"})
    state["queue"][:0] = tasks


def _resolve_market(state: State, fields: dict[str, Any], out: Out) -> None:
    faces = state["combat"]["faces"]
    gains = fields.get("gains", market_default(state))
    rolled = sorted(f for f in faces if f != "white")
    chosen = list(gains)
    for colour in rolled:
        if colour not in chosen:
            raise RuleError("resolve.market_faces", gains=gains, faces=faces)
        chosen.remove(colour)
    if len(gains) != len(faces):
        raise RuleError("resolve.market_faces", gains=gains, faces=faces)
    hero_id = state["combat"]["fighter"]
    state["queue"].pop(0)
    state["combat"] = None
    for colour in gains:
        gain(state, hero_id, "equipment", out, colour)
    out.label = Message("history.market", {"hero": state["heroes"][hero_id]["name"],
                                            "gains": gains})


def _check_free(state: State, hero_id: str) -> dict[str, Any]:
    hero = _hero(state, hero_id)
    if not hero_able(hero):
        raise RuleError("hero.out", hero=hero_id, state=hero["state"])
    return hero


def on_move(state: State, fields: dict[str, Any], out: Out) -> None:
    """Move to an adjacent tile, diagonals allowed (rulebook, "Se déplacer"); Elmer's extra move."""
    hero_id, to = fields["hero"], fields["to"]
    hero = _check_free(state, hero_id)
    active = state["heroes"][active_hero(state)]
    turn = state["turn"]
    elmer = active["power"] == "extra_move" and has_power(active) and not turn["extra_move"]
    if hero_id == active_hero(state) and not turn["moved"]:
        turn["moved"] = True
    elif elmer:
        turn["extra_move"] = True
    elif hero_id != active_hero(state):
        raise RuleError("move.not_active", hero=hero_id, active=active_hero(state))
    else:
        raise RuleError("move.already_moved", hero=hero_id)
    if not adjacent(tuple(hero["tile"]), tuple(to)):
        tiles = state["tiles"]  # named as the board shows them, not by grid coordinates
        raise RuleError("move.not_adjacent", hero=hero_id,
                        origin=tiles[hero["tile"][0]][hero["tile"][1]]["id"],
                        to=tiles[to[0]][to[1]]["id"])
    hero["tile"] = list(to)
    tile = state["tiles"][to[0]][to[1]]["id"]
    out.say("hero.moved", hero=hero_id, tile=tile)
    out.label = Message("history.move", {"hero": hero["name"], "tile": tile})


def _tile_position(state: State, tile_id: str) -> tuple[int, int]:
    for r, row in enumerate(state["tiles"]):
        for c, tile in enumerate(row):
            if tile["id"] == tile_id:
                return (r, c)
    raise RuleError("tile.unknown", tile=tile_id,
                    known=[t["id"] for row in state["tiles"] for t in row])


def _may_act(state: State, kind: str) -> None:
    """One action a turn; the hero whose power is act_twice may activate and fight once each."""
    hero = state["heroes"][active_hero(state)]
    turn = state["turn"]
    twice = hero["power"] == "act_twice" and has_power(hero)
    used = turn[kind] if twice else turn["fights"] + turn["activations"]
    if used:
        raise RuleError("action.already_used", hero=active_hero(state))


def on_activate(state: State, fields: dict[str, Any], out: Out) -> None:
    """Activate the tile the hero stands on (not under Evil grip), or any tile with a Call to Arms
    (rulebook, "Activer une tuile Bastion" and "Appel aux Armes")."""
    hero_id = active_hero(state)
    hero = state["heroes"][hero_id]
    pos = _tile_position(state, fields["tile"])
    tile = state["tiles"][pos[0]][pos[1]]
    definition = state["catalog"]["tile"][tile["id"]]
    action = definition.get("action")
    knocked = [h for h, other in state["heroes"].items() if other["state"] == "knocked_out"]
    if action == "heal" and not knocked:
        raise RuleError("activate.nobody_to_heal", tile=tile["id"])
    if fields.get("call_to_arms"):
        if hero["call_to_arms"] < 1:
            raise RuleError("activate.no_call_to_arms", hero=hero_id)
        hero["call_to_arms"] -= 1
        state["reserve"]["call_to_arms"] += 1
    else:
        if list(pos) != hero["tile"]:
            raise RuleError("activate.not_on_tile", hero=hero_id, tile=tile["id"])
        if tile["grip"]:
            raise RuleError("activate.gripped", tile=tile["id"])
        _may_act(state, "activations")
        state["turn"]["activations"] += 1
    if fields.get("call_to_arms"):
        out.say("tile.activated_cta", hero=hero_id, tile=tile["id"], left=hero["call_to_arms"])
        out.label = Message("history.activate_cta", {"hero": hero["name"], "tile": tile["id"]})
    else:
        out.say("tile.activated", hero=hero_id, tile=tile["id"])
        out.label = Message("history.activate", {"hero": hero["name"], "tile": tile["id"]})
    if action == "market":
        state["combat"] = {"kind": "market", "fighter": hero_id, "targets": [], "faces": None}
        state["queue"].insert(0, {"do": "market"})
    elif action == "heal":
        task = {"do": "heal", "tile": list(pos)}
        if len(knocked) == 1:
            heal(state, knocked[0], pos, out)
        else:
            task["options"] = knocked
            state["queue"].insert(0, task)
    else:
        effects = taught(action, definition.get("text"))
        state["queue"][:0] = effect_tasks(effects, {"tile": tile["id"], "timing": "action"},
                                          hero_id)


def on_fight(state: State, fields: dict[str, Any], out: Out) -> None:
    """Declare a fight against adjacent slots (rulebook, "Combattre")."""
    hero_id = active_hero(state)
    hero = state["heroes"][hero_id]
    targets = fields["targets"]
    _may_act(state, "fights")
    combat.check_targets(state, hero_id, targets)
    state["turn"]["fights"] += 1
    state["combat"] = {"kind": "fight", "fighter": hero_id, "targets": targets, "faces": None,
                       "grey_die": hero["power"] == "grey_die" and has_power(hero)}
    state["queue"].insert(0, {"do": "fight"})
    names = [card_def(state, slot_entry(state, s)["card"])["name"] for s in targets]
    out.say("fight.declared", hero=hero_id, cards=names,
            resistance=sum(combat.resistance(state, s) for s in targets))
    out.label = Message("history.declare", {"hero": hero["name"], "cards": names})


def on_power(state: State, fields: dict[str, Any], out: Out) -> None:
    """A hero power used as its own action: Mylfaar's enchantment, Teagaan's cleansing."""
    hero_id = fields["hero"]
    hero = _check_free(state, hero_id)
    if hero_id != active_hero(state):
        raise RuleError("power.not_active", hero=hero_id, active=active_hero(state))
    if not has_power(hero):
        raise RuleError("power.lost", hero=hero_id)
    turn = state["turn"]
    if hero["power"] == "enchant":
        if turn["power_used"]:
            raise RuleError("power.used", hero=hero_id)
        slot = fields.get("slot")
        if slot is None:
            raise RuleError("event.missing_field", event="power", field="slot")
        if slot_entry(state, slot) is None:
            raise RuleError("fight.empty_slot", slot=slot)
        for other in all_slots(state):
            entry = slot_entry(state, other)
            if entry and "enchantment" in entry["items"]:
                entry["items"].remove("enchantment")
        slot_entry(state, slot)["items"].append("enchantment")
        turn["power_used"] = True
        target = card_def(state, slot_entry(state, slot)["card"])["name"]
    elif hero["power"] == "cleanse":
        if turn["moved"]:
            raise RuleError("power.already_moved", hero=hero_id)
        target = _cleanse(state, fields, out)
        turn["moved"] = True
    else:
        raise RuleError("power.not_an_action", hero=hero_id)
    out.say("power.used", hero=hero_id, target=target)
    out.label = Message("history.power", {"hero": hero["name"], "target": target})


def _cleanse(state: State, fields: dict[str, Any], out: Out) -> str:
    if "tile" in fields:
        r, c = fields["tile"]
        if not state["tiles"][r][c]["grip"]:
            raise RuleError("power.not_gripped", target=state["tiles"][r][c]["id"])
        ungrip_tile(state, (r, c), out)
        return state["tiles"][r][c]["id"]
    if "slot" in fields:
        entry = slot_entry(state, fields["slot"])
        if entry is None or "grip" not in entry["items"]:
            raise RuleError("power.not_gripped", target=fields["slot"])
        set_card_grip(state, fields["slot"], False, out)
        return card_def(state, entry["card"])["name"]
    target = fields.get("target")
    if target is None:
        raise RuleError("event.missing_field", event="power", field="tile|slot|target")
    if not _hero(state, target)["grip"]:
        raise RuleError("power.not_gripped", target=target)
    set_hero_grip(state, target, False, out)
    return state["heroes"][target]["name"]


def on_end_turn(state: State, fields: dict[str, Any], out: Out) -> None:
    """The active player is done; the next board clockwise takes its turn."""
    hero = state["heroes"][active_hero(state)]
    out.label = Message("history.end_turn", {"hero": hero["name"]})
    next_turn(state, out)


def on_assign(state: State, fields: dict[str, Any], out: Out) -> None:
    """Who suffers an effect nobody in particular must suffer (rulebook, "Plateau neutre")."""
    task = state["queue"][0]
    if fields["hero"] not in task["candidates"]:
        raise RuleError("assign.not_able", hero=fields["hero"], able=task["candidates"])
    task["who"] = fields["hero"]
    del task["candidates"]
    out.label = Message("history.assign", {"hero": state["heroes"][fields["hero"]]["name"],
                                            "op": task["effect"]["op"]})


def on_answer(state: State, fields: dict[str, Any], out: Out) -> None:
    """The answer to the waiting prompt: a choice, or the effects a printed text made happen."""
    task = state["queue"][0]
    if task["do"] == "text":
        state["queue"].pop(0)
        effects = fields.get("effects", [])
        state["queue"][:0] = [{"do": "effect", "effect": e, "source": task["source"],
                               "who": task.get("who")} for e in effects]
        out.label = Message("history.answer_text", {"count": len(effects)})
        return
    options = task.get("options") or []
    choice = fields.get("choice")
    if task["do"] == "order":
        _order_recurring(state, options, choice, out)
        return
    if choice not in options:
        raise RuleError("answer.not_an_option", choice=choice, options=options)
    out.label = Message("history.answer", {"choice": choice})
    if task["do"] == "heal":
        state["queue"].pop(0)
        heal(state, choice, tuple(task["tile"]), out)
        return
    task["choice"] = choice
    del task["options"]


def _order_recurring(state: State, slots: list[str], choice: Any, out: Out) -> None:
    """The active player's order for the recurring effects of their board's cards."""
    order = slots if choice is None else choice
    if not isinstance(order, list) or sorted(order) != sorted(slots):
        raise RuleError("answer.not_an_order", choice=choice, slots=slots)
    state["queue"][:1] = [{"do": "recurring", "slot": slot} for slot in order]
    out.label = Message("history.order", {"slots": order})


def on_adjust(state: State, fields: dict[str, Any], out: Out) -> None:
    """A host correction of any value; tokens still move to and from the reserve."""
    note = fields.pop("note", None)
    if "hero" in fields:
        _adjust_hero(state, fields, out)
    elif "tile" in fields:
        r, c = fields["tile"]
        if "grip" not in fields:
            raise RuleError("event.missing_field", event="adjust", field="grip")
        (grip_tile if fields["grip"] else ungrip_tile)(state, (r, c), out)
    elif "slot" in fields:
        _adjust_slot(state, fields, out)
    else:
        raise RuleError("event.missing_field", event="adjust", field="hero|tile|slot")
    out.label = Message("history.adjust", {"what": sorted(fields), "note": note})


def _move_tokens(state: State, hero: dict[str, Any], token: str, colour: str | None,
                 target: int) -> None:
    pool, key = (state["reserve"]["equipment"], colour) if colour else (state["reserve"], token)
    holder = hero["equipment"] if colour else hero
    name = colour or token
    delta = target - holder[name]
    if delta > pool[key]:
        raise RuleError("adjust.reserve_short", token=name, wanted=delta, reserve=pool[key])
    holder[name] += delta
    pool[key] -= delta


def _adjust_hero(state: State, fields: dict[str, Any], out: Out) -> None:
    """Correct a hero; the correction leads where the rules would (rulebook, "Héros blessé,
    héros mort"): left with no Life, a hero in play is knocked out, or dead if already wounded
    («Un héros qui perd son dernier jeton Point de Vie est hors combat»); put out of play, he
    gives every token back to the reserve. A hero out of play holds nothing and stands nowhere;
    one brought back needs Life and a tile. A ``state`` equal to the current one (the phone
    sends it with every correction) changes nothing."""
    hero_id = fields["hero"]
    hero = _hero(state, hero_id)
    before, after = hero["state"], fields.get("state", hero["state"])
    for token in ("life", "call_to_arms"):
        if token in fields:
            _move_tokens(state, hero, token, None, fields[token])
    for colour, count in fields.get("equipment", {}).items():
        _move_tokens(state, hero, "equipment", colour, count)
    if after in OUT_STATES and ("to" in fields or after == before and (
            hero["life"] or hero["call_to_arms"] or held(hero, "equipment"))):
        raise RuleError("adjust.out_of_play", hero=hero_id, state=after)
    if after in OUT_STATES and after != before:
        take_out(state, hero_id, after, out)
    elif after not in OUT_STATES:
        hero["state"] = after
        if "to" in fields:
            hero["tile"] = list(fields["to"])
        if hero["life"] == 0 and after != before:
            raise RuleError("adjust.no_life", hero=hero_id, state=after)
        if hero["life"] == 0:
            knock_out(state, hero_id, out)
        elif hero["tile"] is None:
            raise RuleError("adjust.needs_tile", hero=hero_id)
    if "grip" in fields:
        set_hero_grip(state, hero_id, fields["grip"], out)


def _adjust_slot(state: State, fields: dict[str, Any], out: Out) -> None:
    slot = fields["slot"]
    entry = slot_entry(state, slot)
    if entry is None:
        raise RuleError("fight.empty_slot", slot=slot)
    if fields.get("remove"):
        discard_card(state, slot, out)
        return
    if "card" in fields:
        new = fields["card"]
        playable(state, new)
        if new in state["deck"]["seen"]:
            raise RuleError("card.already_drawn", card=new)
        seen = state["deck"]["seen"]
        seen[seen.index(entry["card"])] = new
        entry["card"] = new
    if "modifier" in fields:
        entry["modifier"] = fields["modifier"]
    if "grip" in fields:
        set_card_grip(state, slot, fields["grip"], out)


def on_teach(state: State, fields: dict[str, Any], out: Out) -> None:
    """The owner completes a definition (a card's printed text, a tile action, ...)."""
    kind, item = fields["kind"], fields["id"]
    learn(state, kind, item, check_definition(kind, item, fields["definition"]), out)
    out.label = Message("history.teach", {"kind": kind, "id": item})


HANDLERS: dict[str, Handler] = {
    "card": on_card, "place": on_place, "dice": on_dice, "resolve": on_resolve,
    "move": on_move, "activate": on_activate, "fight": on_fight, "power": on_power,
    "end_turn": on_end_turn, "assign": on_assign, "answer": on_answer, "adjust": on_adjust,
    "teach": on_teach,
}
