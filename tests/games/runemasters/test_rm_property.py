"""Properties of the monster march and of random games through the session.

«Un monstre peut se déplacer uniquement : s'il y a une case de libre devant lui [...] et si son
chemin n'est pas bloqué» and «Un gardien n'avance jamais sur son chemin» (../shared/rules/
runemasters.fr.txt, "Déplacement des monstres"): after any march there is at most one monster
per space, no monster passes another or the guardian, each moves at most one space, blocked
paths (without a Dragon) and a Petrification hold everything, and every card is still on a path
or in the discard. Random games (random rolls, actions, some illegal) keep the same books; a
refused event changes nothing.
"""

from __future__ import annotations

import random
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from runemasters_helpers import TAUGHT, apply, new_session, position, setup_event

from companion.engine import RuleError
from companion.games.runemasters.catalog import DATA, PATHS

SEATS = (("kulak", "red"), ("kyreas", "blue"))


@st.composite
def tables(draw: Any) -> dict[str, Any]:
    """A random position: monsters on the four paths, wounds, blocks, an Event, guardians'
    Life and Shields, maybe a Petrification."""
    monsters: dict[str, dict[int, str]] = {}
    for path in PATHS:
        cards = [c for c, spec in DATA["monster"].items() if spec["colour"] == path]
        chosen = draw(st.lists(st.sampled_from(cards), unique=True, max_size=5))
        places = draw(st.permutations(range(1, 6)))
        monsters[path] = dict(zip(places, chosen, strict=False))
    state = position(*SEATS, monsters=monsters,
                     event=draw(st.sampled_from(["all_is_calm", "pavise", "poison"])))
    for path in PATHS:
        state["paths"][path]["blocked"] = draw(st.booleans())
        for monster in state["paths"][path]["spaces"]:
            if monster:
                size = len(TAUGHT["monster"][monster["card"]]["weak_points"])
                monster["wounds"] = draw(st.lists(st.integers(0, size - 1), unique=True,
                                                  max_size=size - 1))
    for guardian in state["guardians"].values():
        guardian.update(life=draw(st.integers(1, 4)), shield=draw(st.booleans()))
    state["temple"]["life"] = draw(st.integers(1, 6))
    state["petrified"] = draw(st.booleans())
    return state


def cards_on(state: dict[str, Any], path: str) -> list[tuple[int, str]]:
    return [(k, m["card"]) for k, m in enumerate(state["paths"][path]["spaces"]) if m]


def has_dragon(state: dict[str, Any], path: str) -> bool:
    return any(DATA["monster"][c]["type"] == "dragon" for _, c in cards_on(state, path))


@settings(max_examples=300, derandomize=True, deadline=None,
          suppress_health_check=[HealthCheck.too_slow])
@given(tables())
def test_march_invariants(state):
    after = apply(state, "end_turn").state
    everywhere = [c for p in PATHS for _, c in cards_on(after, p)]
    assert len(everywhere) == len(set(everywhere)), "a card is in two places"
    before_all = sorted(c for p in PATHS for _, c in cards_on(state, p))
    assert sorted(everywhere) == before_all, "cards are conserved (the march kills nobody)"
    for path in PATHS:
        old, new = cards_on(state, path), cards_on(after, path)
        assert len(after["paths"][path]["spaces"]) == 5
        assert [c for _, c in old] == [c for _, c in new], "monsters never pass each other"
        for (k_old, _), (k_new, _) in zip(old, new, strict=True):
            assert k_old - 1 <= k_new <= k_old, "one space at most, towards the guardian"
        held = state["petrified"] or (state["paths"][path]["blocked"]
                                      and not has_dragon(state, path))
        if held:
            assert old == new
        if after["status"] != "playing":
            continue  # a march stops where the game is lost
        assert not after["paths"][path]["blocked"]
        for monster in after["paths"][path]["spaces"]:
            if monster and DATA["monster"][monster["card"]]["type"] == "dragon":
                assert monster["wounds"] == []
    for guardian in after["guardians"].values():
        assert 0 <= guardian["life"] <= 4
        assert guardian["alive"] == (guardian["life"] > 0)
    assert after["temple"]["life"] >= 0


# -- random games through the session ----------------------------------------------------------

def propose(state: dict[str, Any], expects: Any, rng: random.Random) -> dict[str, Any]:
    """A next event for the table: mostly sensible, sometimes illegal."""
    if expects.kind == "card":
        if expects.message.key == "expect.event":
            return {"type": "card", "id": rng.choice(list(DATA["events"]))}
        pool = [c for c in DATA["monster"] if c not in state["deck"]["seen"]] + ["dawn"]
        return {"type": "card", "id": rng.choice(pool)}
    if expects.kind == "choice":
        return {"type": "angel", "guardian": rng.choice(expects.options + ["neltai"])}
    if expects.kind == "dice":
        count = expects.count + (rng.random() < 0.05)
        return {"type": "dice", "faces": [rng.choice(DATA["runes"]) for _ in range(count)]}
    dice = len(state["turn"]["dice"])
    die = rng.randrange(dice + 1)
    return rng.choice([
        {"type": "end_turn"}, {"type": "end_turn"},
        {"type": "hit", "die": die},
        {"type": "move", "die": die, "to": rng.choice(PATHS)},
        {"type": "block", "dice": rng.sample(range(dice + 1), 2)},
        {"type": "charge", "dice": [die]},
        {"type": "reroll", "dice": [die]},
        {"type": "release"},
        {"type": "mark", "die": die, "target": rng.choice(list(state["guardians"])),
         "to": rng.choice(PATHS)},
        {"type": "ultimate", "target": rng.choice(list(state["guardians"])),
         "to": rng.choice(PATHS)},
    ])


def check_books(state: dict[str, Any]) -> None:
    on_paths = [m["card"] for b in state["paths"].values() for m in b["spaces"] if m]
    seen = [c for c in state["deck"]["seen"] if c != "dawn"]
    assert len(on_paths) == len(set(on_paths))
    assert sorted(on_paths + state["deck"]["discard"]) == sorted(seen)
    assert len(state["deck"]["discard"]) == len(set(state["deck"]["discard"]))
    for guardian in state["guardians"].values():
        assert 0 <= guardian["life"] <= 4 and 0 <= guardian["mana"] <= 4
        assert 0 <= guardian["ultimate"]["track"] <= 4
        assert guardian["alive"] == (guardian["path"] is not None)
    alive_paths = [g["path"] for g in state["guardians"].values() if g["alive"]]
    assert len(alive_paths) == len(set(alive_paths)), "one guardian per path"


SETUPS = [SEATS, (*SEATS, ("neltai", "green")),
          (*SEATS, ("neltai", "green"), ("ismoros", "yellow"))]


@settings(max_examples=24, derandomize=True, deadline=None,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture])
@given(st.sampled_from(SETUPS), st.sampled_from(list(DATA["difficulty"])),
       st.integers(0, 2**32 - 1))
def test_random_games_keep_their_books(tmp_path_factory, seats, difficulty, seed):
    rng = random.Random(seed)
    session = new_session(tmp_path_factory.mktemp("rm"))
    session.submit(setup_event(*seats, difficulty=difficulty))
    for _ in range(400):
        if session.view()["status"] != "playing":
            break
        state, view = session.state, session.view()
        event = propose(state, session.expects(), rng)
        before = [cards_on(state, p) for p in state["paths"]]
        try:
            session.submit(event)
        except RuleError:
            assert session.view() == view, f"refused {event} changed the view"
            continue
        after = session.state
        check_books(after)
        if event["type"] == "end_turn":
            for old, path in zip(before, after["paths"], strict=True):
                assert [c for _, c in old] == [c for _, c in cards_on(after, path)]
    session.close()
