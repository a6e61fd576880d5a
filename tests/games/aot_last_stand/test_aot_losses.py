"""Losing what nobody has, in Attack on Titan: The Last Stand (issue 13, the same notion as Last
Bastion's «il ne perd rien et l'effet est ignoré»).

Rulebook, «Capacités du Titan»: «Obstruction des Héros : Pendant un tour, le Titan choisit de
retirer un dé appartenant au Héros de son choix (il n'a que 4 dés pour jouer ce tour)» and
«Guérir X : Le marqueur de la piste Santé du Titan est reculé de X cases» (from «Start», where
it is placed at set-up, it cannot go further back).
"""

from __future__ import annotations

from aot_helpers import NEXT, commit, play, refused, rolls, setup_event

from companion.games.aot_last_stand import GAME


def _ability(session, cost, effects):
    """Mikasa and Armin roll only Titan faces: the Titan holds all ten dice and pays its second
    ability with ``cost`` of them."""
    play(session, setup_event((("mikasa", 0), ("armin", 3))),
         {"type": "teach", "kind": "ability", "id": "basic.2",
          "definition": {"cost": cost, "effects": effects}},
         commit(), *rolls(mikasa=["titan"] * 5, armin=["titan"] * 5), NEXT)
    return session.submit({"type": "ability", "n": 2})


def test_obstruction_with_no_die_left_to_take_is_ignored(session):
    """Step 5: the heroes spent all ten of their dice on the face-up card (its counter is not
    taught: the table says it was not cancelled); the hidden card obstructs. No hero has a die
    the Titan could take, so nobody loses one and the round goes on (it used to wait for a
    choice no answer could satisfy)."""
    play(session, setup_event((("mikasa", 0), ("armin", 3))),
         {"type": "teach", "kind": "action", "id": "basic-3",
          "definition": {"name": "Obstruction", "titan": "basic", "effects": [{"op": "obstruct"}]}},
         {"type": "teach", "kind": "action", "id": "basic-4",
          "definition": {"name": "Rien", "titan": "basic", "effects": []}},
         commit("basic-4", "basic-3"), *rolls(mikasa=["cannon"] * 5, armin=["move"] * 5), NEXT,
         {"type": "resolve", "pay": {"mikasa": {"cannon": 5}, "armin": {"move": 5}},
          "cancelled": False})
    step = session.submit({"type": "resolve", "cancelled": False})
    assert "effect.no_die" in [m.key for m in step.announcements]
    assert "choose" not in session.expects().events
    assert all(h["obstructed"] == 0 for h in session.view()["heroes"].values())


def test_obstruction_offers_only_heroes_with_a_die(session):
    """The choice stays the Titan's, among heroes who have a die to lose: here only Armin, whose
    Titan face was given back at step 4 and not rerolled."""
    play(session, setup_event((("mikasa", 0), ("armin", 3))),
         {"type": "teach", "kind": "action", "id": "basic-3",
          "definition": {"name": "Obstruction", "titan": "basic", "effects": [{"op": "obstruct"}]}},
         commit("basic-3", "frenesie"),
         *rolls(mikasa=["cannon"] * 5, armin=["move"] * 4 + ["titan"]), NEXT, NEXT, NEXT,
         {"type": "resolve", "pay": {"mikasa": {"cannon": 5}, "armin": {"move": 4}},
          "cancelled": False})
    options = GAME.titan_expects(session.state).options
    assert options == ["armin"]
    refused(session, {"type": "choose", "hero": "mikasa", "face": "combat"}, "choose.hero")


def test_a_die_spent_on_an_ability_may_be_obstructed(session):
    """All ten dice went to the Titan and were spent on the ability: they come back to their
    heroes at step 4, so the Titan may still take one of them (that hero has 4 dice this
    round)."""
    _ability(session, 10, [{"op": "obstruct"}])
    assert GAME.titan_expects(session.state).options == ["mikasa", "armin"]
    session.submit({"type": "choose", "hero": "mikasa", "face": "titan"})
    session.submit(NEXT)
    view = session.view()
    assert view["heroes"]["mikasa"]["obstructed"] == 1
    assert (view["heroes"]["mikasa"]["given_back"], view["heroes"]["armin"]["given_back"]) == (
        4, 5)


def test_healing_at_start_says_it_healed_nothing(session):
    """«Guérir X»: the marker is on «Start»; it cannot go back, and the announcement says the
    Titan healed 0, not X."""
    step = _ability(session, 1, [{"op": "heal", "amount": 2}])
    healed = [m.params for m in step.announcements if m.key == "titan.healed"]
    assert healed == [{"amount": 0, "health": 0, "zone": "start"}]
