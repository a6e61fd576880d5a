"""The turn machine: a queue of pending tasks, run until one needs something from the table.

A turn (rulebook, "Tour de jeu") is the Horde phase of the side whose turn it is (recurring effects
of its cards, then the board's power if it is full, else a draw) and, for a side with a hero in
play, that hero's Hero phase. Neutral boards take their Horde phase without drawing ("Plateau
neutre"). Effects that need a choice, a die or a human wait at the head of the queue; ``expects``
reads what they wait for.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from .catalog import taught, timing_of
from .geometry import SIDES, clockwise_from
from .tokens import (
    Out,
    State,
    end,
    figure_home,
    gain,
    grip_tile,
    held,
    hero_able,
    lose,
    set_card_grip,
    set_hero_grip,
    slot_entry,
    ungrip_tile,
)

WAIT = "wait"
Task = dict[str, Any]


# -- who is where ------------------------------------------------------------------------------

def seated_hero(state: State, side: str) -> str | None:
    """The hero playing the board on ``side``, if any."""
    return next((h for h, hero in state["heroes"].items() if hero["side"] == side), None)


def is_neutral(state: State, side: str) -> bool:
    """A board with no hero in play is neutral (fewer players, or its hero is out)."""
    hero = seated_hero(state, side)
    return hero is None or not hero_able(state["heroes"][hero])


def round_number(state: State) -> int:
    """The round as the rulebook counts it: a turn of each of the four Horde boards, neutral
    ones included («Les joueurs jouent à tour de rôle, dans le sens des aiguilles d'une
    montre»; «le tour de jeu d'un plateau neutre», rulebook, "Tour de jeu", "Plateau neutre").
    ``turn.number`` counts board turns."""
    return (state["turn"]["number"] - 1) // len(state["boards"]) + 1


def active_hero(state: State) -> str | None:
    """The active player's hero, or None during a neutral board's turn."""
    side = state["turn"]["side"]
    return None if is_neutral(state, side) else seated_hero(state, side)


def side_of(state: State, colour: str) -> str:
    """The side the board of a colour sits on."""
    return next(side for side, c in state["boards"].items() if c == colour)


def all_slots(state: State) -> list[str]:
    """Every slot name, board by board in turn order."""
    return [f"{state['boards'][s]}.{k}" for s in SIDES for k in range(3)]


def free_slots(state: State, colour: str | None = None) -> list[str]:
    """Empty slots, of one board or of all."""
    colours = [colour] if colour else [state["boards"][s] for s in SIDES]
    return [f"{c}.{k}" for c in colours for k in range(3) if state["slots"][c][k] is None]


def legal_slots(state: State, card: dict[str, Any]) -> list[str]:
    """Where a drawn card may go: its colour's board, black on the active board, else anywhere.

    Rulebook, "Règles de placement des cartes Horde".
    """
    colour = card["colour"]
    board = state["boards"][state["turn"]["side"]] if colour == "black" else colour
    return free_slots(state, board) or free_slots(state)


# -- turns -------------------------------------------------------------------------------------

def start_turn(state: State, side: str, out: Out) -> None:
    """Begin a side's turn with its Horde phase."""
    state["turn"].update(side=side, phase="horde", moved=False, acted=False, extra_move=False,
                         power_used=False, rerolled=False, fights=0, activations=0)
    state["turn"]["number"] += 1
    neutral = is_neutral(state, side)
    colour = state["boards"][side]
    out.say("turn.neutral" if neutral else "turn.start", side=side, board=colour,
            hero=seated_hero(state, side), number=state["turn"]["number"])
    recurring = [f"{colour}.{k}" for k in range(3) if _has_recurring(state, f"{colour}.{k}")]
    first: list[Task] = [{"do": "recurring", "slot": slot} for slot in recurring]
    if len(recurring) > 1:  # «le joueur actif choisit l'ordre dans lequel il les applique»
        first = [{"do": "order", "options": recurring}]
    state["queue"] = [*first, {"do": "board", "side": side}]


def _has_recurring(state: State, slot: str) -> bool:
    entry = slot_entry(state, slot)
    return entry is not None and timing_of(card_def(state, entry["card"]), "recurring") not in (
        None, [])


def next_turn(state: State, out: Out) -> None:
    """Pass to the next side clockwise."""
    order = clockwise_from(state["turn"]["side"])
    start_turn(state, order[1], out)


def run(state: State, out: Out) -> None:
    """Work through the queue until something is needed from the table or the game ends."""
    while state["status"] == "playing":
        if not state["queue"]:
            turn = state["turn"]
            if turn["phase"] == "horde" and active_hero(state):
                turn["phase"] = "hero"
                out.say("phase.hero", hero=active_hero(state))
                return
            if turn["phase"] == "hero" and active_hero(state):
                return
            next_turn(state, out)
            continue
        task = state["queue"].pop(0)
        result = HANDLERS[task["do"]](state, task, out)
        if result == WAIT:
            state["queue"].insert(0, task)
            return
        state["queue"][:0] = result or []


def effect_tasks(effects: Any, source: dict[str, Any], who: str | None) -> list[Task]:
    """Tasks for one timing of a card, tile, board or face: effects, or a prompt with the text
    (one string, or one per language: the prompt is said in each language)."""
    if effects is None or effects == []:
        return []
    if isinstance(effects, str | Mapping):
        return [{"do": "text", "source": source, "text": None if effects == "?" else effects,
                 "who": who}]
    return [{"do": "effect", "effect": e, "source": source, "who": who} for e in effects]


def card_def(state: State, card_id: str) -> dict[str, Any]:
    """The definition of a card of this game."""
    return state["catalog"]["card"][card_id]


# -- task handlers -----------------------------------------------------------------------------

def _recurring(state: State, task: Task, out: Out) -> Any:
    entry = slot_entry(state, task["slot"])
    if entry is None:
        return []
    source = {"card": entry["card"], "slot": task["slot"], "timing": "recurring"}
    return effect_tasks(timing_of(card_def(state, entry["card"]), "recurring"), source,
                        active_hero(state))


def _board(state: State, task: Task, out: Out) -> Any:
    colour = state["boards"][task["side"]]
    if not free_slots(state, colour):
        out.say("board.full", board=colour)
        board = state["catalog"]["board"].get(colour, {})
        full = taught(board.get("full"), board.get("text"))
        return effect_tasks(full, {"board": colour, "timing": "full"}, active_hero(state))
    if is_neutral(state, task["side"]):
        return []
    return [{"do": "draw", "side": task["side"]}]


def _draw(state: State, task: Task, out: Out) -> Any:
    """Draw a Horde card: the board's own draw (``side``) is dropped if its hero went out
    before it (a neutral board draws nothing, "Plateau neutre"); an effect's draw always."""
    if "side" in task and is_neutral(state, task["side"]):
        return []
    if not free_slots(state):
        out.say("draw.all_full")
        return [{"do": "effect", "effect": {"op": "lose", "token": "life"},
                 "source": {"rule": "all_full"}, "who": active_hero(state)}]
    if state["deck"]["drawn"] >= state["deck"]["size"]:
        end(state, "lost", "deck_empty", out)
        return []
    return WAIT


def _wait(state: State, task: Task, out: Out) -> Any:
    """Tasks that only an event can complete: a placement, a roll, a printed text, a choice."""
    return WAIT


def _discard(state: State, task: Task, out: Out) -> Any:
    discard_card(state, task["slot"], out)
    return []


def _victory(state: State, task: Task, out: Out) -> Any:
    deck = state["deck"]
    if deck["warlords_defeated"] >= len(deck["warlords"]):
        end(state, "won", "warlords_defeated", out)
    return []


def discard_card(state: State, slot: str, out: Out) -> None:
    """A card leaves play: to the discard, with what lay on it back where it came from."""
    colour, k = slot.split(".")
    entry = state["slots"][colour][int(k)]
    if entry is None:
        return
    state["slots"][colour][int(k)] = None
    state["discard"].append(entry["card"])
    for item in entry["items"]:
        if item == "grip":
            state["reserve"]["grip"] += 1
        elif item != "enchantment":
            home = figure_home(state, item)
            tile = None if home is None else state["tiles"][home[0]][home[1]]
            back_on_tile = tile is not None and not tile["grip"]
            (tile["items"] if back_on_tile else state["reserve"]["items"]).append(item)
    out.say("card.discarded", card=card_def(state, entry["card"])["name"])


# -- effects of the vocabulary -----------------------------------------------------------------

def able_to_suffer(state: State, effect: dict[str, Any]) -> list[str]:
    """The heroes who could suffer an effect ("chacun séparément, par un des joueurs ayant la
    capacité de les subir", rulebook, "Plateau neutre")."""
    able = [h for h, hero in state["heroes"].items() if hero_able(hero)]
    op = effect["op"]
    if op == "lose":
        return [h for h in able if _can_lose(state, h, effect)]
    if op == "grip":
        return [h for h in able if not state["heroes"][h]["grip"]]
    if op == "ungrip":
        return [h for h in able if state["heroes"][h]["grip"]]
    return able


def _can_lose(state: State, hero_id: str, effect: dict[str, Any]) -> bool:
    hero = state["heroes"][hero_id]
    if effect["token"] == "round":
        return held(hero, "equipment") > 0
    return held(hero, effect["token"], _colour(state, hero_id, effect)) > 0


def _colour(state: State, hero_id: str, effect: dict[str, Any]) -> str | None:
    colour = effect.get("colour")
    return state["heroes"][hero_id]["colour"] if colour == "own" else colour


PERSONAL = {"gain", "lose"}


def needs_hero(effect: dict[str, Any]) -> bool:
    """Whether an effect must be suffered by one particular hero."""
    return effect["op"] in PERSONAL or (effect["op"] in ("grip", "ungrip")
                                        and effect["target"] == "hero")


def targets(state: State, task: Task) -> list[Any]:
    """What an effect could apply to: tiles to grip or free, gripped cards, or the Equipment
    colours a hero could lose as a round token."""
    effect = task["effect"]
    op, target = effect["op"], effect.get("target")
    if op == "lose" and effect["token"] == "round":
        return [c for c, n in state["heroes"][task["who"]]["equipment"].items() if n > 0]
    if op in ("grip", "ungrip") and target == "tile":
        gripped = op == "ungrip"
        return [[r, c] for r, row in enumerate(state["tiles"]) for c, tile in enumerate(row)
                if tile["grip"] == gripped]
    if op == "ungrip" and target == "card":
        return [s for s in all_slots(state)
                if (entry := slot_entry(state, s)) and "grip" in entry["items"]]
    return []


def _effect(state: State, task: Task, out: Out) -> Any:
    """One effect: settle who suffers it and what it targets, then carry it out.

    A hero in play who is named as the victim (the active player, the fighter, the roller of the
    Corruption die) suffers the effect or, lacking what it takes, nothing happens: «si un joueur
    doit perdre un jeton rond alors qu'il n'en a pas, il ne perd rien et l'effet est ignoré»
    (rulebook, "Inventaire et réserve"). Another hero is chosen only when nobody is named (a
    neutral board, "Plateau neutre") or the one named is out («un autre joueur doit appliquer
    l'effet restant», F.A.Q.).
    """
    effect = task["effect"]
    if needs_hero(effect):
        who = task.get("who")
        if who is not None and hero_able(state["heroes"][who]) and who not in able_to_suffer(
                state, effect):
            _ignored(state, who, effect, out)
            return []
        if who is None or who not in able_to_suffer(state, effect):
            candidates = able_to_suffer(state, effect)
            if not candidates:
                out.say("effect.nobody", op=effect["op"])
                return []
            if len(candidates) > 1:
                task["who"], task["candidates"] = None, candidates
                return WAIT
            task["who"] = candidates[0]
    if "choice" not in task:
        options = targets(state, task)
        if len(options) > 1:
            task["options"] = options
            return WAIT
    return apply_effect(state, task, out)


def _ignored(state: State, hero_id: str, effect: dict[str, Any], out: Out) -> None:
    """Say that the named hero cannot suffer an effect, which is therefore ignored."""
    if effect["op"] == "lose":
        colour = _colour(state, hero_id, effect)
        token = f"equipment_{colour}" if colour and effect["token"] == "equipment" else (
            effect["token"])
        out.say("token.none", hero=hero_id, token=token)
    else:
        out.say("effect.ignored", hero=hero_id, op=effect["op"])


def apply_effect(state: State, task: Task, out: Out) -> list[Task]:
    """Carry out one effect whose hero and choice are settled; return follow-up tasks."""
    effect, who = task["effect"], task.get("who")
    op, amount = effect["op"], effect.get("amount", 1)
    options = targets(state, task)
    target = task.get("choice") or (options[0] if options else None)
    if op == "gain":
        gain(state, who, effect["token"], out, _colour(state, who, effect), amount)
    elif op == "lose" and effect["token"] == "round":
        if target is not None:
            lose(state, who, "equipment", out, target, amount)
    elif op == "lose":
        lost = lose(state, who, effect["token"], out, _colour(state, who, effect), amount)
        if lost < amount and not hero_able(state["heroes"][who]):  # the rest: another hero
            return [{"do": "effect", "effect": {**effect, "amount": amount - lost},
                     "source": task["source"], "who": None}]
    elif op in ("grip", "ungrip"):
        _grip(state, task, op == "grip", target, out)
    elif op == "draw":
        return [{"do": "draw"}]
    elif op == "corruption":
        return [{"do": "corruption", "who": who}]
    elif op == "resistance":
        entry = slot_entry(state, task["source"]["slot"]) if "slot" in task["source"] else None
        if entry is not None:
            entry["modifier"] += effect["amount"]
    elif op == "remove":
        discard_card(state, effect["slot"], out)
    return []


def _grip(state: State, task: Task, gripped: bool, target: Any, out: Out) -> None:
    kind = task["effect"]["target"]
    if kind == "tile" and target is not None:
        (grip_tile if gripped else ungrip_tile)(state, tuple(target), out)
    elif kind == "hero":
        set_hero_grip(state, task["who"], gripped, out)
    elif kind == "self" and "slot" in task["source"]:
        set_card_grip(state, task["source"]["slot"], gripped, out)
    elif kind == "card" and target is not None:
        set_card_grip(state, target, gripped, out)


HANDLERS: dict[str, Callable[[State, Task, Out], Any]] = {
    "recurring": _recurring, "board": _board, "draw": _draw, "effect": _effect,
    "discard": _discard, "victory": _victory,
    **{kind: _wait for kind in ("place", "text", "fight", "market", "corruption", "heal",
                                "order")},
}
