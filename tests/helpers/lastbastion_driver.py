"""A random Last Bastion table: proposes events for a live Session, mostly legal, some not.

The property test, the crash test and the engine benchmark all need games that look like real
ones (cards drawn and taught, fights, dice, prompts, undos) without writing each by hand. This
module reads what the session expects (``session.view()``, and ``session.state`` only to see a
drawn card still waiting for its slot) and proposes the next event. Every choice comes from the
``random.Random`` it is given, so a seed (or Hypothesis' ``st.randoms()``) replays a game exactly.

Proposals are not guaranteed legal: a player may already have moved, a corner fight may be out
of reach, and some proposals are wrong on purpose (``Style.wild``). The caller submits them and
treats a ``RuleError`` as a refusal; :func:`play_one` does exactly that and always ends with an
event the session accepted.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any

from companion.engine import RuleError, Session
from companion.games.last_bastion.catalog import DATA

COLOURS: tuple[str, ...] = tuple(DATA["colours"])
FACES: tuple[str, ...] = tuple(DATA["combat_faces"])
BOARD_COLOURS = ("red", "green", "blue", "yellow")
SIDES = ("N", "E", "S", "W")
OPPOSITE = {"N": "S", "S": "N", "E": "W", "W": "E"}
MODES = ("novice", "normal", "difficult", "heroic")
TILE_IDS: tuple[str, ...] = tuple(DATA["tile"])
HERO_IDS: tuple[str, ...] = tuple(DATA["hero"])
CORRUPTION_FACES: tuple[str, ...] = tuple(sorted(DATA["corruption"]))
POWERS = {hero_id: hero.get("power") for hero_id, hero in DATA["hero"].items()}

# Effects of the vocabulary (catalog.OPS) the random cards are given, by timing.
COMMON_EFFECTS: list[dict[str, Any]] = [
    {"op": "gain", "token": "call_to_arms"},
    {"op": "gain", "token": "life"},
    {"op": "gain", "token": "equipment", "colour": "own"},
    {"op": "gain", "token": "equipment", "colour": "black", "amount": 2},
    {"op": "lose", "token": "life"},
    {"op": "lose", "token": "round"},
    {"op": "lose", "token": "call_to_arms"},
    {"op": "lose", "token": "equipment", "colour": "red"},
    {"op": "grip", "target": "hero"},
    {"op": "grip", "target": "self"},
    {"op": "ungrip", "target": "tile"},
    {"op": "ungrip", "target": "hero"},
    {"op": "ungrip", "target": "card"},
    {"op": "corruption"},
    {"op": "resistance", "amount": 1},
    {"op": "resistance", "amount": -1},
]
EFFECTS_BY_TIMING: dict[str, list[dict[str, Any]]] = {
    "arrival": [{"op": "draw"}, {"op": "grip", "target": "tile"}, *COMMON_EFFECTS],
    "recurring": [{"op": "lose", "token": "life"}, *COMMON_EFFECTS],
    "exit": [{"op": "gain", "token": "call_to_arms"}, {"op": "remove", "slot": "red.0"},
             *COMMON_EFFECTS],
}
# Effects a human may report when answering a printed-text prompt (no grip: tiles would fall
# under Evil grip so often that every game ended the same way).
ANSWER_EFFECTS: list[dict[str, Any]] = [e for e in COMMON_EFFECTS
                                        if e["op"] not in ("corruption", "grip")]


@dataclass(frozen=True)
class Style:
    """How a random table behaves: how often it undoes, errs, ends its turn, and so on."""

    wild: float = 0.08          # chance of a deliberately doubtful event
    undo: float = 0.03          # chance of an undo (of 1..max_undo steps)
    max_undo: int = 8
    undo_to: bool = True        # may undo back ``to`` a journal point (seq numbers)
    end_turn: float = 0.3       # weight of end_turn among the Hero-phase actions
    effects: float = 0.2        # chance that a new card has an effect at a given timing
    adjust: bool = True         # wild events may include host corrections


# -- geometry, written again from the event contract (not imported from the rules) ------

def facing(side: str, k: int) -> tuple[int, int]:
    """The tile slot ``k`` of the board on ``side`` faces (issue #2, event contract)."""
    return {"N": (0, k), "E": (k, 2), "S": (2, 2 - k), "W": (2 - k, 0)}[side]


def neighbours(tile: list[int] | tuple[int, int]) -> list[list[int]]:
    """The tiles adjacent to ``tile``, diagonals included."""
    r, c = tile
    return [[r + dr, c + dc] for dr in (-1, 0, 1) for dc in (-1, 0, 1)
            if (dr or dc) and 0 <= r + dr <= 2 and 0 <= c + dc <= 2]


def reachable(view: dict[str, Any], hero_id: str) -> list[str]:
    """Slots the hero may fight from where they stand (Twindalli: the middle slots from the
    centre)."""
    hero = view["heroes"][hero_id]
    tile = tuple(hero["tile"])
    sides = view["sides"]
    if tile == (1, 1):
        if POWERS.get(hero_id) == "central_fight" and hero["power"]:
            return [f"{sides[s]}.1" for s in SIDES]
        return []
    return [f"{sides[s]}.{k}" for s in SIDES for k in range(3) if facing(s, k) == tile]


def occupied(view: dict[str, Any]) -> list[str]:
    """Every slot that holds a card."""
    return [f"{c}.{k}" for c, slots in view["boards"].items() for k, e in enumerate(slots) if e]


def pending_cards(state: dict[str, Any] | None) -> list[str]:
    """Drawn cards that still wait for the table to choose their slot (a ``place`` task)."""
    if not state:
        return []
    return [t["card"] for t in state["queue"] if t.get("do") == "place"]


# -- setup ---------------------------------------------------------------------------------------

def random_setup(rnd: random.Random, players: int | None = None,
                 mode: str | None = None) -> dict[str, Any]:
    """A legal setup: 1-4 players (two face each other), any mode, a shuffled tile layout."""
    count = players or rnd.randint(1, 4)
    colours = list(BOARD_COLOURS)
    rnd.shuffle(colours)
    if count == 2:
        first_side = rnd.choice(SIDES)
        sides = [first_side, OPPOSITE[first_side]]
    else:
        sides = rnd.sample(SIDES, count)
    heroes = rnd.sample(HERO_IDS, count)
    tiles = list(TILE_IDS)
    rnd.shuffle(tiles)
    event: dict[str, Any] = {
        "type": "setup", "game": "last-bastion", "mode": mode or rnd.choice(MODES),
        "boards": dict(zip(SIDES, colours, strict=True)),
        "players": [{"name": f"P{i + 1}", "hero": h, "side": s}
                    for i, (h, s) in enumerate(zip(heroes, sides, strict=True))],
        "tiles": [tiles[0:3], tiles[3:6], tiles[6:9]],
        "first": rnd.choice(sides),
    }
    if rnd.random() < 0.2:  # a small, limited reserve: gains from it may be lost
        event["reserve"] = {"life": rnd.randint(2, 15), "call_to_arms": rnd.randint(0, 6),
                            "equipment": {c: rnd.randint(0, 4) for c in COLOURS},
                            "grip": rnd.randint(1, 12)}
    return event


# -- proposals -------------------------------------------------------------------------------------

def new_card(view: dict[str, Any], rnd: random.Random, style: Style,
             card_id: str | None = None) -> dict[str, Any]:
    """A card event teaching a new card of the type the deck position calls for."""
    deck = view["deck"]
    drawn = deck["size"] - deck["remaining"]
    card_id = card_id or f"k{drawn + 1}-{rnd.randint(0, 999)}"
    kind = "warlord" if deck["next_warlord_in"] == 1 else "monster"
    define: dict[str, Any] = {"name": card_id.upper(), "type": kind,
                              "colour": rnd.choice(COLOURS), "resistance": rnd.randint(0, 3)}
    for timing, effects in EFFECTS_BY_TIMING.items():
        if rnd.random() < style.effects:
            define[timing] = ("Texte imprimé : effet inconnu." if rnd.random() < 0.15
                              else [rnd.choice(effects)])
    return {"type": "card", "id": card_id, "define": define}


def _card(view: dict[str, Any], state: dict[str, Any] | None, rnd: random.Random,
          style: Style) -> dict[str, Any]:
    event = new_card(view, rnd, style)
    roll = rnd.random()
    if roll < 0.1:
        # a card of the package catalog, drawn without teaching it
        event = {"type": "card", "id": rnd.choice(sorted(DATA["card"]))}
    elif roll < 0.25:
        free = [f"{c}.{k}" for c, slots in view["boards"].items()
                for k, e in enumerate(slots) if e is None]
        if free:
            event["slot"] = rnd.choice(free)
    return event


def _dice_faces(view: dict[str, Any], rnd: random.Random, count: int) -> dict[str, Any]:
    event: dict[str, Any] = {"type": "dice", "faces": [rnd.choice(FACES) for _ in range(count)]}
    if (view.get("combat") or {}).get("grey_die"):
        event["grey"] = rnd.choice(FACES)
    return event


def _dice(view: dict[str, Any], rnd: random.Random) -> dict[str, Any]:
    expects = view["expects"]
    if expects["profile"] == "last-bastion/corruption":
        return {"type": "dice", "faces": [rnd.choice(CORRUPTION_FACES)]}
    event = _dice_faces(view, rnd, expects["count"])
    combat = view.get("combat") or {}
    if combat.get("kind") == "fight" and rnd.random() < 0.5:
        # lucky dice: the colours of the cards fought, or jokers
        lucky = [view["boards"][s.split(".")[0]][int(s[-1])]["colour"] for s in combat["targets"]]
        event["faces"] = [rnd.choice([*lucky, "white"]) for _ in event["faces"]]
    return event


def _resolve(view: dict[str, Any], rnd: random.Random) -> dict[str, Any]:
    expects = view["expects"]
    key = expects.get("message", {}).get("key", "")
    combat = view.get("combat")
    if rnd.random() < 0.06:  # a reroll: only Feng Li may, once
        if key == "expect.keep_corruption":
            return {"type": "dice", "faces": [rnd.choice(CORRUPTION_FACES)], "reroll": True}
        if combat:
            count = 2 if combat["kind"] == "market" else 3
            return {**_dice_faces(view, rnd, count), "reroll": True}
    if not combat or key == "expect.keep_corruption":
        return {"type": "resolve"}
    roll = rnd.random()
    if combat["kind"] == "market":
        if roll < 0.8:
            return {"type": "resolve"}
        return {"type": "resolve", "gains": [rnd.choice(COLOURS) for _ in combat["faces"]]}
    if roll < 0.65:
        return {"type": "resolve"}
    if roll < 0.85:
        return {"type": "resolve", "falls": []}
    falls = rnd.sample(combat["targets"], rnd.randint(0, len(combat["targets"])))
    heroes = view["heroes"]
    spend: dict[str, dict[str, int]] = {}
    for hero_id, hero in heroes.items():
        if hero["tile"] == heroes[combat["fighter"]]["tile"] and rnd.random() < 0.5:
            held = {c: rnd.randint(0, n) for c, n in hero["equipment"].items() if n}
            if held:
                spend[hero_id] = held
    return {"type": "resolve", "falls": falls, "spend": spend}


def _answer(view: dict[str, Any], rnd: random.Random) -> dict[str, Any]:
    prompt = view["prompts"][0] if view["prompts"] else None
    options = view["expects"].get("options")
    if options:
        pick = prompt["default"] if prompt and rnd.random() < 0.5 else rnd.choice(options)
        return {"type": "answer", "choice": pick}
    if rnd.random() < 0.8:
        return {"type": "answer"}
    return {"type": "answer",
            "effects": [rnd.choice(ANSWER_EFFECTS) for _ in range(rnd.randint(1, 2))]}


def _action(view: dict[str, Any], turn: dict[str, Any], rnd: random.Random,
            style: Style) -> dict[str, Any]:
    hero_id = view["active_hero"]
    hero = view["heroes"][hero_id]
    if hero["tile"] is None:  # only a host correction can leave an active hero nowhere
        return {"type": "end_turn"}
    # what the hero already did this turn is not in the view; peek at the turn to waste fewer
    # proposals on moves and actions that are certainly refused (some are still tried)
    moved = turn.get("moved", False)
    acted = bool(turn.get("fights", 0) + turn.get("activations", 0))
    weights = {"end_turn": style.end_turn, "move": 0.03 if moved else 0.3,
               "fight": 0.03 if acted else 0.3, "activate": 0.02 if acted else 0.15,
               "power": 0.05}
    action = rnd.choices(list(weights), list(weights.values()))[0]
    full = set(occupied(view))
    targets = [s for s in reachable(view, hero_id) if s in full]
    if targets and not acted and rnd.random() < 0.5:
        action = "fight"
    if action == "move":
        mover = hero_id
        if POWERS.get(hero_id) == "extra_move" and rnd.random() < 0.4:
            able = [h for h, x in view["heroes"].items() if x["tile"] is not None]
            mover = rnd.choice(able)
        tiles = neighbours(view["heroes"][mover]["tile"])
        # mostly towards a tile that faces a card, so that fights happen and boards empty
        warlords = {s for s in full if view["boards"][s.split(".")[0]][int(s[-1])]["type"]
                    == "warlord"}
        wanted = warlords or full
        near = [t for t in tiles if any(f"{view['sides'][s]}.{k}" in wanted for s in SIDES
                                        for k in range(3) if facing(s, k) == tuple(t))]
        return {"type": "move", "hero": mover,
                "to": rnd.choice(near if near and rnd.random() < 0.8 else tiles)}
    if action == "fight" and targets:
        if len(targets) >= 2 and rnd.random() < 0.4:
            return {"type": "fight", "targets": rnd.sample(targets, 2)}
        return {"type": "fight", "targets": [rnd.choice(targets)]}
    if action == "activate":
        r, c = hero["tile"]
        if hero["call_to_arms"] and rnd.random() < 0.4:
            row = rnd.choice(view["tiles"])
            return {"type": "activate", "tile": rnd.choice(row)["id"], "call_to_arms": True}
        return {"type": "activate", "tile": view["tiles"][r][c]["id"]}
    if action == "power":
        power = POWERS.get(hero_id)
        if power == "enchant" and occupied(view):
            return {"type": "power", "hero": hero_id, "slot": rnd.choice(occupied(view))}
        if power == "cleanse":
            gripped = [{"tile": [r, c]} for r, row in enumerate(view["tiles"])
                       for c, t in enumerate(row) if t["grip"]]
            gripped += [{"slot": s} for s in occupied(view)
                        if "grip" in view["boards"][s.split(".")[0]][int(s[-1])]["items"]]
            gripped += [{"target": h} for h, x in view["heroes"].items() if x["grip"]]
            if gripped:
                return {"type": "power", "hero": hero_id, **rnd.choice(gripped)}
    return {"type": "end_turn"}


def _undo(session: Session, rnd: random.Random, style: Style) -> dict[str, Any] | None:
    frames = session.history()
    if len(frames) < 2:
        return None
    steps = rnd.randint(1, min(style.max_undo, len(frames) - 1))
    if style.undo_to and rnd.random() < 0.3:
        return {"type": "undo", "to": frames[-1 - steps].seq}
    return {"type": "undo", "steps": steps}


def wild(session: Session, rnd: random.Random, style: Style) -> dict[str, Any]:
    """A doubtful event: malformed, unexpected now, illegal, or a host correction."""
    view = session.view()
    heroes = view["heroes"]
    hero_id = view.get("active_hero") or rnd.choice(sorted(heroes))
    hero = heroes[hero_id]
    tile = hero["tile"] or [1, 1]
    seen = pending_cards(session.state) + view["discard"] + [
        view["boards"][s.split(".")[0]][int(s[-1])]["id"] for s in occupied(view)]
    far = [[r, c] for r in range(3) for c in range(3)
           if max(abs(r - tile[0]), abs(c - tile[1])) == 2]
    gripped = [t["id"] for row in view["tiles"] for t in row if t["grip"]]
    all_slots = [f"{c}.{k}" for c in BOARD_COLOURS for k in range(3)]
    choices: list[dict[str, Any]] = [
        {"type": "move", "hero": hero_id, "to": rnd.choice(far or [[1, 1]])},
        {"type": "move", "hero": hero_id, "to": rnd.choice(neighbours(tile))},
        {"type": "fight", "targets": [rnd.choice(all_slots)]},
        {"type": "fight", "targets": rnd.sample(all_slots, 2)},
        {"type": "activate", "tile": rnd.choice(gripped or list(TILE_IDS))},
        {"type": "activate", "tile": rnd.choice(TILE_IDS), "call_to_arms": True},
        {"type": "end_turn"},
        {"type": "place", "slot": rnd.choice(all_slots)},
        {"type": "resolve"},
        {"type": "resolve", "falls": [rnd.choice(all_slots)],
         "spend": {rnd.choice(sorted(heroes)): {rnd.choice(COLOURS): rnd.randint(1, 3)}}},
        {"type": "dice", "faces": [rnd.choice(FACES) for _ in range(rnd.randint(1, 4))]},
        {"type": "assign", "hero": rnd.choice(sorted(heroes))},
        {"type": "answer", "choice": rnd.choice([None, 0, "red", [0, 0]])},
        {"type": "card", "id": "nope-" + str(rnd.randint(0, 99))},
        {"type": "card", "id": rnd.choice(seen or ["incube"])},
        {"type": "card", "id": "bad-" + str(rnd.randint(0, 99)),
         "define": {"name": "Bad", "type": "monster", "colour": "purple", "resistance": 1}},
        {**new_card(view, rnd, style), "slot": "purple.7"},
        {"type": "power", "hero": hero_id},
        {"type": "undo", "steps": len(session.history()) + rnd.randint(0, 3)},
        {"type": "bogus"},
        {"type": "move"},
        {"type": "move", "hero": hero_id, "to": [3, 1]},
    ]
    if style.adjust and rnd.random() < 0.1:  # knocked out by the host (rarely: it ends games)
        choices.append({"type": "adjust", "hero": rnd.choice(sorted(heroes)),
                        "state": "knocked_out"})
    if view["expects"]["kind"] == "card":
        card = new_card(view, rnd, style)
        card["define"]["type"] = "monster" if card["define"]["type"] == "warlord" else "warlord"
        choices.append(card)
    if style.adjust:
        some = rnd.choice(sorted(heroes))
        choices += [
            {"type": "adjust", "hero": some, "life": rnd.randint(0, 4)},
            {"type": "adjust", "hero": some, "call_to_arms": rnd.randint(0, 2)},
            {"type": "adjust", "hero": some, "equipment": {rnd.choice(COLOURS): rnd.randint(0, 2)}},
            {"type": "adjust", "hero": some, "grip": rnd.random() < 0.5},
            {"type": "adjust", "tile": [rnd.randint(0, 2), rnd.randint(0, 2)],
             "grip": rnd.random() < 0.5},
            {"type": "adjust", "slot": rnd.choice(all_slots), "grip": rnd.random() < 0.5},
            {"type": "adjust", "slot": rnd.choice(all_slots), "modifier": rnd.randint(-2, 2)},
            # a hero brought back by the host (on a tile: see test_property.py for what
            # happens without one)
            {"type": "adjust", "hero": some, "state": rnd.choice(["healthy", "wounded"]),
             "to": [rnd.randint(0, 2), rnd.randint(0, 2)]},
            # the card on a slot was misread: it is another one (a complete one, see above)
            {"type": "adjust", "slot": rnd.choice(all_slots),
             "card": rnd.choice(["incube", "canon-de-l-infamie", "replicateur-sombre"])},
            {"type": "teach", "kind": "tile", "id": rnd.choice(TILE_IDS),
             "definition": {"action": [rnd.choice(ANSWER_EFFECTS)]}},
            {"type": "teach", "kind": "corruption", "id": rnd.choice(CORRUPTION_FACES),
             "definition": {"effects": [rnd.choice(ANSWER_EFFECTS)]}},
        ]
    return rnd.choice(choices)


def propose(session: Session, rnd: random.Random, style: Style = Style()) -> dict[str, Any] | None:
    """The next event a random table would submit now, or None once the game is over (and no
    undo was drawn)."""
    view = session.view()
    expects = view["expects"]
    if expects["kind"] == "setup":
        return random_setup(rnd)
    if rnd.random() < style.undo:
        undo = _undo(session, rnd, style)
        if undo:
            return undo
    if rnd.random() < style.wild:
        return wild(session, rnd, style)
    kind, events = expects["kind"], expects["events"]
    if kind == "nothing":
        return None
    if kind == "card":
        return _card(view, session.state, rnd, style)
    if kind == "dice":
        return _dice(view, rnd)
    if kind == "action":
        return _action(view, session.state["turn"], rnd, style)
    if "place" in events:
        return {"type": "place", "slot": rnd.choice(expects["options"])}
    if "resolve" in events:
        return _resolve(view, rnd)
    if "assign" in events:
        return {"type": "assign", "hero": rnd.choice(expects["options"])}
    return _answer(view, rnd)


def fallback(session: Session, rnd: random.Random) -> dict[str, Any] | None:
    """An event that is always legal now (used when random proposals keep being refused)."""
    view = session.view()
    expects = view["expects"]
    kind, events = expects["kind"], expects["events"]
    if kind == "setup":
        return random_setup(rnd)
    if kind == "nothing":
        return None
    if kind == "card":
        return new_card(view, rnd, Style(effects=0.0))
    if kind == "dice":
        return _dice(view, rnd)
    if kind == "action":
        return {"type": "end_turn"}
    if "place" in events:
        return {"type": "place", "slot": expects["options"][0]}
    if "resolve" in events:
        return {"type": "resolve", **({"falls": []} if (view.get("combat") or {}).get(
            "kind") == "fight" else {})}
    if "assign" in events:
        return {"type": "assign", "hero": expects["options"][0]}
    prompt = view["prompts"][0] if view["prompts"] else {}
    return {"type": "answer", "choice": prompt["default"]} if expects.get("options") else {
        "type": "answer"}


def play_one(session: Session, rnd: random.Random, style: Style = Style(), tries: int = 6,
             on_refused: Any = None) -> dict[str, Any] | None:
    """Submit proposals until one is accepted; return it (None if the game is over).

    ``on_refused(event, error)`` is called after each refusal, with the session unchanged by it.
    """
    for attempt in range(tries + 1):
        event = propose(session, rnd, style) if attempt < tries else fallback(session, rnd)
        if event is None:
            return None
        try:
            session.submit(event)
        except RuleError as error:
            if on_refused is not None:
                on_refused(event, error)
            continue
        return event
    raise AssertionError(f"even the fallback event was refused: {session.view()['expects']}")
