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
    """All ten dice were spent on the ability: no hero has a die the Titan could take, so the
    Obstruction takes nothing and the round goes on (it used to wait for a choice no answer
    could satisfy)."""
    step = _ability(session, 10, [{"op": "obstruct"}])
    assert "effect.no_die" in [m.key for m in step.announcements]
    assert "choose" not in session.expects().events
    assert all(h["obstructed"] == 0 for h in session.view()["heroes"].values())


def test_obstruction_offers_only_heroes_with_a_die(session):
    """With dice still in the Titan's pool, the choice stays the Titan's, among heroes who have a
    die to lose."""
    _ability(session, 9, [{"op": "obstruct"}])
    options = GAME.titan_expects(session.state).options
    assert options == ["armin"], "only Armin's die is left in the pool"
    refused(session, {"type": "choose", "hero": "mikasa", "face": "titan"}, "choose.hero")
    session.submit({"type": "choose", "hero": "armin", "face": "titan"})
    assert session.view()["heroes"]["armin"]["obstructed"] == 1


def test_healing_at_start_says_it_healed_nothing(session):
    """«Guérir X»: the marker is on «Start»; it cannot go back, and the announcement says the
    Titan healed 0, not X."""
    step = _ability(session, 1, [{"op": "heal", "amount": 2}])
    healed = [m.params for m in step.announcements if m.key == "titan.healed"]
    assert healed == [{"amount": 0, "health": 0, "zone": "start"}]
