"""The simulated table's cards (``companion run --simulate``): what a hand or a monster pile
would give when nobody at the table says which card it is.

A charger card is one a hero may hold, of the types in play; a face nobody taught gets a cost
and ammo made up for it. A revealed monster is made up for the level of the first void ("Sim
3"), with impacts of that level's shape (rulebook, «Le Champ de bataille»: one impact on level
1, more higher up). What the simulator makes up lives in the simulated game only (the session
never saves it).
"""

from __future__ import annotations

import random
from typing import Any

from .picks import hand_faces
from .record import State

SHAPES = {1: (1, 0), 2: (1, 1), 3: (2, 2)}
"""Light and dark impacts of a made-up monster, by level."""


def _monster(state: State, level: int, rng: random.Random) -> dict[str, Any]:
    known = state["catalog"]["monster"]
    number = 1 + sum(card.startswith("sim-") for card in known)
    while f"sim-{number}" in known:
        number += 1
    light, dark = SHAPES[level]
    return {"card": f"sim-{number}", "define": {
        "name": f"Sim {number}", "level": level,
        "light": [rng.randint(1, level) for _ in range(light)],
        "dark": [rng.randint(1, 3) for _ in range(dark)], "points": rng.randint(1, 2 * level)}}


def invent(state: State, rng: random.Random) -> dict[str, Any]:
    """The fields of the card the table waits for: a charger card of the hero filling the
    charger, or the monster revealed into the first void."""
    if state["phase"] == "refill":
        return _monster(state, state["refill"][0][1], rng)
    hero = next(h for h in state["order"] if None in state["players"][h]["charger"].values())
    face = rng.choice(hand_faces(state, hero))
    missing = {name: rng.randint(1, 3) for name in ("cost", "ammo") if face[name] is None}
    return {"card": face["card"], **({"define": missing} if missing else {})}
