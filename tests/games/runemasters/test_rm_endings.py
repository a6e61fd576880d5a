"""Whole games through the session, to each ending, with 2, 3 and 4 guardians.

«La partie se termine immédiatement sur une victoire commune dès que la carte Aube est révélée.
[...] La partie se termine sur une défaite si le dernier gardien est tué ou si le temple perd son
dernier PV.» (../shared/rules/runemasters.fr.txt, "Fin de la partie"). The guardians either play
well (``strong_turn``: they roll what kills) or not at all (``idle_turn``).
"""

from __future__ import annotations

import pytest
from runemasters_helpers import (
    idle_turn,
    new_session,
    play_game,
    refused,
    setup_event,
    strong_turn,
)

from companion.games.runemasters.catalog import DATA

CARDS = list(DATA["monster"])
RED = [c for c in CARDS if c.endswith("-red")]
EVENTS = ["pavise", "vivacity", "transcendence", "poison", "all_is_calm"]
TWO = (("kulak", "red"), ("kyreas", "blue"))
THREE = (*TWO, ("neltai", "green"))
FOUR = (*THREE, ("ismoros", "yellow"))
TWO_DECK = ["werewolf-red", "shadow-blue", "troll-red", "archer-red", "werewolf-blue",
            "shadow-red", "archer-blue", "troll-blue", "werewolf-green", "shadow-yellow",
            "werewolf-yellow", "shadow-green", "troll-green"]
THREE_DECK = [c for c in CARDS if not c.endswith("-yellow")][:19]
FOUR_DECK = CARDS[:24]
UNGUARDED_FIRST = ["werewolf-green", "shadow-yellow", "werewolf-yellow", "shadow-green",
                   "troll-green", "archer-green", "troll-yellow", "archer-yellow", "shadow-red"]


def red_first(deck: list[str]) -> list[str]:
    """The red monsters (Kulak's path) first, then the rest of the pile."""
    return RED + [c for c in deck if c not in RED]


def game(tmp_path, seats, monsters, turn):
    session = new_session(tmp_path)
    session.submit(setup_event(*seats, difficulty="initiation"))
    play_game(session, monsters, EVENTS, turn)
    view = session.view()
    state = session.state
    on_paths = [m["card"] for b in state["paths"].values() for m in b["spaces"] if m]
    monsters_seen = [c for c in state["deck"]["seen"] if c != "dawn"]
    assert sorted(on_paths + view["deck"]["discard"]) == sorted(monsters_seen)
    return session, view


@pytest.mark.parametrize(("seats", "deck"), [(TWO, TWO_DECK), (THREE, THREE_DECK),
                                             (FOUR, FOUR_DECK)])
def test_victory_when_dawn_is_revealed(tmp_path, seats, deck):
    session, view = game(tmp_path, seats, [*deck, "dawn"], strong_turn)
    assert (view["status"], view["reason"]) == ("won", "dawn")
    assert view["deck"]["remaining"] == 0 and view["expects"]["kind"] == "nothing"
    refused(session, {"type": "end_turn"}, "game.over")
    session.close()


@pytest.mark.parametrize(("seats", "deck"), [(TWO, TWO_DECK), (THREE, THREE_DECK),
                                             (FOUR, FOUR_DECK)])
def test_defeat_when_the_last_guardian_dies(tmp_path, seats, deck):
    session, view = game(tmp_path, seats, deck, idle_turn)
    assert (view["status"], view["reason"]) == ("lost", "guardians_dead")
    assert not any(g["alive"] for g in view["guardians"].values())
    session.close()


@pytest.mark.parametrize(("seats", "deck"), [(TWO, UNGUARDED_FIRST),
                                             (THREE, red_first(THREE_DECK)),
                                             (FOUR, red_first(FOUR_DECK))])
def test_defeat_when_the_temple_falls(tmp_path, seats, deck):
    session, view = game(tmp_path, seats, deck, idle_turn)
    assert (view["status"], view["reason"]) == ("lost", "temple_fallen")
    assert view["temple"]["life"] == 0
    session.close()
