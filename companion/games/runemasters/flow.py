"""Rounds and turns: the Event of the round, each living guardian's turn, the end of the round.

Rulebook, "Déroulement": at the start of a round the Elder (even dead) reveals an Event that lasts
the round (Tout est calme once the pile is empty); then each living guardian, from the Elder, plays
a turn: a monster appears, the guardian acts with the dice, the monsters march. Poison strikes at
the end of the round. Victory when Dawn is revealed ("Fin de la partie").
"""

from __future__ import annotations

from companion.engine import Message, RuleError

from .catalog import DATA, DAWN, EVENT_CARDS
from .harm import wound
from .march import march
from .monsters import appear
from .table import Out, State, card, current_event, end, living, paths_in_play, spaces


def dice_count(state: State) -> int:
    """4 dice, 3 under Pluie de flèches, 5 under Transcendance."""
    return DATA["events"].get(current_event(state) or "", {}).get("dice", DATA["dice"])


def deck_size(state: State) -> int:
    """How many monster cards the pile holds (Dawn not counted)."""
    return state["deck"]["monsters"]


def dawn_earliest(state: State) -> int:
    """The first draw (0-based, set-up draws included) that may be Dawn: it was shuffled with
    the bottom three cards ("Mélangez la carte Aube avec les 3 dernières cartes Monstres")."""
    return deck_size(state) + 1 - DATA["dawn_among_last"]


def check_monster_card(state: State, card_id: str) -> None:
    """Refuse a card that cannot be the next one of this table's pile."""
    deck = state["deck"]
    if card_id in deck["seen"]:
        raise RuleError("card.already_drawn", card=card_id)
    if card_id in EVENT_CARDS:
        raise RuleError("card.not_a_monster", card=card_id)
    if card_id == DAWN:
        if deck["drawn"] < dawn_earliest(state):
            raise RuleError("card.dawn_too_early", left=dawn_earliest(state) - deck["drawn"])
        return
    if card_id not in state["catalog"]["monster"]:
        raise RuleError("card.unknown", card=card_id)
    if deck["drawn"] >= deck_size(state):
        raise RuleError("card.dawn_expected", card=card_id)
    definition = card(state, card_id)
    if definition["colour"] not in state["paths"]:
        raise RuleError("card.not_in_deck", card=card_id, reason="path_unused")
    if len(state["guardians"]) == 2:
        if definition["type"] == "dragon":
            dragons = [c for c in deck["seen"] if c != DAWN and card(state, c)["type"] == "dragon"]
            if len(dragons) >= DATA["deck"]["2"]["dragons"]:
                raise RuleError("card.not_in_deck", card=card_id, reason="one_dragon")
        elif definition.get("two_player") is False:
            raise RuleError("card.not_in_deck", card=card_id, reason="not_two_player")


def draw_monster(state: State, card_id: str, out: Out) -> None:
    """A monster card (or Dawn) is revealed: at set-up onto space 1, 2, 3; in a turn it appears."""
    check_monster_card(state, card_id)
    deck = state["deck"]
    deck["drawn"] += 1
    deck["seen"].append(card_id)
    if card_id == DAWN:
        out.say("dawn.revealed")
        end(state, "won", "dawn", out)
        return
    if state["phase"] == "setup_monsters":
        path = card(state, card_id)["colour"]
        spaces(state, path)[deck["drawn"] - 1] = {"card": card_id, "wounds": []}
        out.say("monster.appears", card=card_id, path=path, space=deck["drawn"])
        if deck["drawn"] == 3:
            start_round(state, out)
        return
    appear(state, card_id, out)
    if state["status"] != "playing":
        return
    if state["guardians"][state["active"]]["alive"]:
        state["phase"] = "roll"
        out.say("turn.roll", guardian=state["active"], count=dice_count(state))
    else:
        finish_turn(state, out)


def reveal_event(state: State, event_id: str, out: Out) -> None:
    """The Elder reveals the Event of the round, from the pile built for the difficulty."""
    events = state["events"]
    if event_id not in EVENT_CARDS:
        raise RuleError("card.not_an_event", card=event_id, known=list(EVENT_CARDS))
    if event_id in events["revealed"]:
        raise RuleError("card.already_drawn", card=event_id)
    kind = DATA["events"][event_id]["kind"]
    shown = sum(DATA["events"][e]["kind"] == kind for e in events["revealed"])
    if shown >= events["quota"][kind]:
        raise RuleError("card.event_not_in_pile", card=event_id, kind=kind,
                        difficulty=state["difficulty"], quota=events["quota"][kind])
    events["revealed"].append(event_id)
    begin_event(state, event_id, out)


def begin_event(state: State, event_id: str, out: Out) -> None:
    """An Event comes into force; Ange gardien first asks who receives the marker."""
    state["events"]["current"] = event_id
    out.say("event.revealed", event=event_id, round=state["round"]["number"])
    able = living(state)
    if event_id == "guardian_angel" and len(able) > 1:
        state["phase"] = "angel"
        return
    if event_id == "guardian_angel":
        give_angel(state, able[0], out)
    next_turn(state, out)


def give_angel(state: State, guardian_id: str, out: Out) -> None:
    """The Guardian Angel marker: that guardian cannot lose the last Life this round."""
    if guardian_id not in living(state):
        raise RuleError("angel.not_living", guardian=guardian_id, living=living(state))
    state["guardians"][guardian_id]["angel"] = True
    out.say("angel.given", guardian=guardian_id)


def start_round(state: State, out: Out) -> None:
    """A new round: the Elder reveals an Event, or Tout est calme stays once the pile is out."""
    state["round"] = {"number": state["round"]["number"] + 1, "index": -1}
    out.say("round.start", round=state["round"]["number"], elder=state["elder"])
    if len(state["events"]["revealed"]) < sum(state["events"]["quota"].values()):
        state["phase"] = "event"
        state["active"] = None
        return
    begin_event(state, "all_is_calm", out)


def next_turn(state: State, out: Out) -> None:
    """The next living guardian in turn order plays; a dead one's turn is skipped ("si un
    gardien est mort, ignorez son tour de jeu"); after the last, the round ends."""
    order, index = state["order"], state["round"]["index"] + 1
    while index < len(order) and not state["guardians"][order[index]]["alive"]:
        index += 1
    if index == len(order):
        end_round(state, out)
        return
    state["round"]["index"] = index
    state["active"] = order[index]
    state["phase"] = "appear"
    state["turn"] = {"dice": [], "rerolling": [], "free_move": False}
    out.say("turn.start", guardian=order[index])


def finish_turn(state: State, out: Out) -> None:
    """The monsters march, Dragons heal, and the next guardian plays."""
    out.say("march.start")
    march(state, out)
    if state["status"] == "playing":
        warn(state, out)
        next_turn(state, out)


def end_round(state: State, out: Out) -> None:
    """Poison takes 1 Life from each poisoned guardian; the Angel leaves; a new round starts."""
    for guardian_id in state["order"]:
        guardian = state["guardians"][guardian_id]
        if guardian["poison"]:
            guardian["poison"] = False
            wound(state, guardian_id, out, "poison", attack=False)
            if state["status"] != "playing":
                return
    for guardian in state["guardians"].values():
        guardian["angel"] = False
    start_round(state, out)


def warnings(state: State) -> list[Message]:
    """What the table should hear after the march: unguarded paths with monsters, a temple
    close to falling."""
    found: list[Message] = []
    for path in paths_in_play(state):
        guarded = any(g["alive"] and g["path"] == path for g in state["guardians"].values())
        if not guarded and any(spaces(state, path)):
            found.append(Message("warning.unguarded", {"path": path}))
    if state["temple"]["life"] <= 2:
        found.append(Message("warning.temple", {"life": state["temple"]["life"]}))
    return found


def warn(state: State, out: Out) -> None:
    """Say the warnings."""
    out.messages.extend(warnings(state))
