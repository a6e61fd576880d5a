"""Last Bastion on the simulated table: a Horde card made up when the owner has taught none the
deck can give, so a game can be played through before any card is known."""

from __future__ import annotations

import random
from typing import Any

from .tokens import State

CARD_COLOURS = ("red", "green", "blue", "yellow", "black")


def invent(state: State, rng: random.Random) -> dict[str, Any]:
    """The ``card`` event fields of a made-up card of the type the deck calls for ("Sim 3"):
    a monster of resistance 0-3 or a Warlord of 3-5, of a random colour. It lives in the
    simulated game only (the session never saves what the simulator teaches)."""
    deck, known = state["deck"], state["catalog"]["card"]
    kind = "warlord" if deck["drawn"] in deck["warlords"] else "monster"
    number = 1 + sum(card_id.startswith("sim-") for card_id in known)
    while f"sim-{number}" in known:
        number += 1
    low, high = (3, 5) if kind == "warlord" else (0, 3)
    return {"id": f"sim-{number}", "define": {
        "name": f"Sim {number}", "type": kind, "colour": rng.choice(CARD_COLOURS),
        "resistance": rng.randint(low, high), "complete": True}}
