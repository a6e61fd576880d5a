"""Random games of Last Heroes through the session keep their books.

Whatever the table sends (mostly the events of the moment with plausible cards, sometimes
nonsense, host corrections and undos): a weapon card seen is in exactly one place and the places
agree (a charger slot holds the card whose place is that slot, «Chargeur», ../shared/rules/
last-heroes.fr.txt); a hand never goes below zero; Jokers stay within the rulebook's three; a
monster is on the battlefield or in one hero's trophies, never both; a refused event changes
nothing; the journal alone rebuilds the same game.
"""

from __future__ import annotations

import random
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from lastheroes_helpers import CHARGERS, open_session, setup_event
from sessiontools import assert_rebuilt, play_randomly

from companion.games.last_heroes import GAME
from companion.games.last_heroes.catalog import MAX_JOKERS, POWERS, packaged_weapons

CARDS = [c for c in packaged_weapons() if c.split("-")[0] in ("flamethrower", "crossbow",
                                                               "pistol")]
MONSTERS = ["rat", "spider", "dragon", "bat", "wolf", "snake", "imp", "ghoul", "hydra"]


def propose(state: dict[str, Any], expects: Any, rng: random.Random) -> dict[str, Any]:
    """A next event of a type the game accepts now (sometimes another), with plausible fields."""
    heroes = list(state["players"])
    active = state["active"] or rng.choice(heroes)
    slots = [f"{h}.{side}" for h in heroes for side in ("left", "right")]
    loaded = [c for c, where in state["where"].items() if where == f"loaded:{active}"]
    card = rng.choice(CARDS)
    made = {
        "charger": {"hero": rng.choice(heroes),
                    "card": rng.choice(CHARGERS.get(rng.choice(heroes), CARDS) + [card])},
        "play": rng.choice([
            {"card": card, "as": "ammo", "slot": rng.choice(["left", "right"])},
            {"card": card, "as": "weapon", "ammo": rng.sample(slots, rng.randint(0, 2)),
             "jokers": rng.randint(0, 1)}]),
        "kill": {"monster": rng.choice(MONSTERS),
                 "weapons": rng.sample(loaded, min(len(loaded), 2)) or [card]},
        "swap": {"card": card, "slot": rng.choice(slots)},
        "power": {"power": rng.choice(POWERS), "card": card, "discard": rng.choice(CARDS)},
        "end_turn": {},
        "reveal": {"card": rng.choice(MONSTERS), "column": rng.randint(1, 3),
                   "level": rng.randint(1, 3)},
        "adjust": rng.choice([{"hero": active, "jokers": rng.randint(0, MAX_JOKERS)},
                              {"hero": active, "charisma": rng.randint(-2, 3)},
                              {"slot": rng.choice(slots), "ammo": rng.randint(0, 3)}]),
    }
    if rng.random() < 0.03:
        return {"type": "undo", "steps": rng.randint(1, 3)}
    wanted = [e for e in expects.events if e in made] or ["end_turn"]
    kind = rng.choice(wanted) if rng.random() < 0.85 else rng.choice(sorted(made))
    return {"type": kind, **made[kind]}


def check_books(state: dict[str, Any]) -> None:
    for hero, player in state["players"].items():
        assert player["hand"] >= 0
        assert 0 <= player["jokers"] <= MAX_JOKERS
        for side, entry in player["charger"].items():
            if entry is not None:
                assert state["where"][entry["card"]] == f"charger:{hero}.{side}", entry
                assert entry["ammo"] >= 0
        for card in player["loaded"]:
            name = card["card"] if isinstance(card, dict) else card
            assert state["where"][name] == f"loaded:{hero}"
    for card, where in state["where"].items():
        if where.startswith("charger:"):
            hero, side = where.removeprefix("charger:").split(".")
            assert (state["players"][hero]["charger"][side] or {}).get("card") == card
    assert all(state["where"].get(c) == "discard" for c in state["discard"])
    assert len(state["discard"]) == len(set(state["discard"]))
    on_field = [m for column in state["columns"] for m in column["monsters"] if m]
    trophies = [m for p in state["players"].values() for m in p["monsters"]]
    assert len(on_field + trophies) == len(set(on_field + trophies)), "a monster twice"


@settings(max_examples=20, derandomize=True, deadline=None,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture])
@given(st.integers(0, 2**32 - 1))
def test_random_games_keep_their_books(tmp_path_factory, seed):
    rng = random.Random(seed)
    session = open_session(tmp_path_factory.mktemp("lh"))
    session.submit(setup_event())
    play_randomly(session, propose, check_books, rng)
    assert_rebuilt(session, GAME)
