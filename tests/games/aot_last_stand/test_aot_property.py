"""Random games of The Last Stand through the session keep their books.

Whatever the table sends (mostly what the step asks for, sometimes nonsense, host corrections and
undos on the way): each of the Titan's 7 Action cards is in exactly one place («Le Titan dispose
de 7 cartes Action», ../shared/rules/attack-on-titan-last-stand.fr.txt, Mise en place); Citizens
(12), Cannons (6), hearts (3) and the health marker stay within the box's counts; a refused event
changes nothing; the face-down card never reaches the shared view; the journal alone rebuilds the
same state.
"""

from __future__ import annotations

import json
import random
from typing import Any

from aot_helpers import PILE, new_session, setup_event
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from sessiontools import assert_rebuilt, play_randomly

from companion.games.aot_last_stand import GAME
from companion.games.aot_last_stand.catalog import DATA

FACES = DATA["faces"]
TEAMS = [(("eren", 0), ("mikasa", 0), ("armin", 3)), (("levi", 5), ("hange", 0)),
         (("eren", 0), ("mikasa", 3), ("armin", 5), ("levi", 0))]


def propose(state: dict[str, Any], expects: Any, rng: random.Random) -> dict[str, Any]:
    """A next event: one of the types the game accepts now with plausible fields, sometimes a
    host correction, an undo, or a type out of turn."""
    heroes = list(state["heroes"])
    hero = rng.choice(heroes)
    cards = DATA["titan"][state["titan"]["card"]]["actions"]
    roll = [rng.choice(FACES) for _ in range(5 - (rng.random() < 0.1))]
    tactic = rng.choice(PILE)
    payers = {h: {rng.choice(FACES[1:]): rng.randint(1, 2)} for h in rng.sample(heroes, 1)}
    made = {
        "commit": {"up": rng.choice(cards), "down": rng.choice(cards)},
        "roll": {"hero": next((h for h, x in state["heroes"].items() if not x["rolled"]), hero),
                 "faces": roll},
        "give": {"gifts": {h: rng.choice(FACES[1:]) for h in heroes if h != "eren"}},
        "next": {},
        "ability": {"n": rng.randint(1, 3), **({"define": {"cost": 2, "effects": [
            {"op": "heal", "amount": 1}]}} if rng.random() < 0.5 else {})},
        "reroll": {"hero": hero, "faces": roll[:rng.randint(1, 3)]},
        "resolve": rng.choice([{}, {"cancelled": True}, {"pay": payers}]),
        "choose": rng.choice([{"hero": hero}, {"face": rng.choice(FACES)},
                              {"card": rng.choice(cards)}, {}]),
        "answer": {},
        "move": {"hero": hero, "to": rng.randint(0, 8)},
        "melee": {"hero": hero, "count": rng.randint(1, 3)},
        "cannon": {"hero": hero, "count": rng.randint(1, 2)},
        "cycle": {"pay": {hero: rng.randint(1, 2)}},
        "search": {"hero": hero, "card": tactic},
        "provide": {"condition": rng.randint(1, 3), "pay": payers},
        "activate": {},
        "top": {"card": tactic},
        "adjust": rng.choice([{"health": rng.randint(0, 20)}, {"devoured": rng.randint(0, 12)},
                              {"cannons": rng.randint(0, 6)},
                              {"hero": hero, "hearts": rng.randint(0, 3)},
                              {"hero": hero, "level": rng.randint(0, 8)}]),
    }
    if rng.random() < 0.03:
        return {"type": "undo", "steps": rng.randint(1, 3)}
    wanted = list(expects.events) or ["next"]
    kind = rng.choice(wanted) if rng.random() < 0.85 else rng.choice(sorted(made))
    return {"type": kind, **made.get(kind, {})}


def check_books(state: dict[str, Any]) -> None:
    titan = state["titan"]
    played = [entry["card"] for entry in state["play"]]
    places = titan["hand"] + titan["set_aside"] + titan["removed"] + played
    assert sorted(places) == sorted(DATA["titan"][titan["card"]]["actions"]), places
    assert 0 <= state["devoured"] <= DATA["citizens"]
    assert 0 <= state["cannons"] <= DATA["cannons"]
    assert 0 <= state["health"] <= state["track"]["length"]
    for hero in state["heroes"].values():
        assert 0 <= hero["hearts"] <= DATA["hearts"]
        assert 0 <= hero["level"] <= 8
    if state["status"] != "playing":
        assert state["winner"] in ("titan", "heroes") and state["reason"]


def check_secret(state: dict[str, Any]) -> None:
    shared = json.dumps(GAME.view(state))
    for entry in state["play"]:
        if not entry["up"] and not entry["done"]:
            assert f'"{entry["card"]}"' not in shared, "the face-down card is in the view"


def check(state: dict[str, Any]) -> None:
    check_books(state)
    check_secret(state)


@settings(max_examples=20, derandomize=True, deadline=None,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture])
@given(st.sampled_from(TEAMS), st.integers(0, 2**32 - 1))
def test_random_games_keep_their_books(tmp_path_factory, team, seed):
    rng = random.Random(seed)
    session = new_session(tmp_path_factory.mktemp("aot"))
    session.submit(setup_event(team))
    play_randomly(session, propose, check, rng)
    assert_rebuilt(session, GAME)
