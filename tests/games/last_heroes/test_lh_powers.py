"""The six artefact powers, each usable once (rulebook, the power tiles at the end of
../shared/rules/last-heroes.fr.txt: «Ce pouvoir ne peut être utilisé qu'une seule fois dans la
partie. Lorsque vous utilisez un pouvoir, défaussez la tuile Pouvoir»).

The powers are granted on a copy of the state, as if won with an artefact, and the events applied
with the pure rules; how an artefact is won is played through in test_lh_examples.py.
"""

from __future__ import annotations

import pytest
from lastheroes_helpers import (
    END,
    act,
    ammo,
    granted,
    idle,
    load,
    play,
    turn,
)

from companion.engine import RuleError


def ana(state):
    """Ana's part of the state."""
    return state["players"]["blind"]


def test_joker(table):
    """«JOKER. Gagnez immédiatement une Munition Joker.» Then the tile is gone."""
    step = act(granted(table, "blind", "joker"), "power", power="joker")
    assert ana(step.state)["jokers"] == 1 and ana(step.state)["powers"] == []
    with pytest.raises(RuleError) as error:
        act(step.state, "power", power="joker")
    assert error.value.key == "power.not_held"


def test_joker_on_a_full_wheel_spends_the_tile_and_loses_the_joker(table):
    """Issue 40, item 11. The tile is limited to one use («Ce pouvoir ne peut être utilisé
    qu'une seule fois dans la partie») and the wheel to 3 («La Roue des Jokers indique vos
    Munitions Joker disponibles (max. 3)»); neither passage forbids a play whose gain is lost,
    so players who discard the tile on a full wheel record it: the tile is spent, the wheel
    stays on 3."""
    for n in (3, 4, 5):
        play(table, ammo(f"flamethrower-{n}", "left"), END, *idle("echo", n), *idle("ace", n))
    assert ana(table.state)["jokers"] == 3
    granted_state = granted(table, "blind", "joker", "impact")
    step = act(granted_state, "power", power="joker")
    assert ana(step.state)["jokers"] == 3 and ana(step.state)["powers"] == ["impact"]
    said = [m.key for m in step.announcements]
    assert said == ["joker.wheel_full", "power.used"]
    assert step.label.params == {"hero": "blind", "power": "joker"}
    with pytest.raises(RuleError) as error:
        act(step.state, "power", power="joker")
    assert error.value.key == "power.not_held", "used once in the game"


def test_exchange(table):
    """«ÉCHANGE. Échangez une carte de votre main avec une carte de votre choix parmi celles
    défaussées depuis le début du jeu.»"""
    play(table, {"type": "play", "card": "flamethrower-3", "as": "ammo", "slot": "left"})
    state = granted(table, "blind", "exchange")
    with pytest.raises(RuleError) as error:
        act(state, "power", power="exchange", card="pistol-6", discard="crossbow-1")
    assert error.value.key == "exchange.not_discarded"
    state = act(state, "power", power="exchange", card="pistol-6", discard="flamethrower-1").state
    assert state["discard"] == ["pistol-6"] and ana(state)["hand"] == 9
    assert state["where"]["flamethrower-1"] == "hand:blind"
    with pytest.raises(RuleError) as error:  # Ben cannot play the card Ana took back
        act(act(state, "end_turn").state, "play", card="flamethrower-1", slot="left",
            **{"as": "ammo"})
    assert error.value.key == "card.elsewhere"


def test_impact(table):
    """«IMPACT. Lorsque vous attaquez un Monstre, utilisez un HIT! pour un BAM! ou un BAM! pour
    un POW!»: a BAM! and a HIT! kill the Spider (2 BAM!)."""
    turn(table, load("flamethrower-6", "blind.left"))
    play(table, *idle("echo", 3), *idle("ace", 3), load("flamethrower-3", "blind.right"))
    state = granted(table, "blind", "impact")
    with pytest.raises(RuleError):
        act(state, "kill", monster="spider", weapons=["flamethrower-6", "flamethrower-3"])
    state = act(state, "power", power="impact").state
    step = act(state, "kill", monster="spider", weapons=["flamethrower-6", "flamethrower-3"])
    assert ana(step.state)["monsters"] == ["spider"]
    assert "power.impact_used" in [m.key for m in step.announcements]


def test_immunity(table):
    """«IMMUNITÉ. Ne perdez pas de point à la fin de votre tour si un ou les deux emplacements de
    votre Chargeur ne contiennent plus de Munitions.»"""
    turn(table, load("flamethrower-6", "blind.left"))
    play(table, *idle("echo", 3), *idle("ace", 3), load("flamethrower-7", "blind.left"))
    state = act(granted(table, "blind", "immunity"), "power", power="immunity").state
    step = act(state, "end_turn")
    assert ana(step.state)["charisma"] == 0
    assert "immunity.saved" in [m.key for m in step.announcements]


def test_reload(table):
    """«RECHARGE. Rechargez intégralement l'une de vos cartes Munition (ajustez le Revolver afin
    d'afficher l'ensemble des Munitions).»"""
    turn(table, load("flamethrower-6", "blind.left"))
    play(table, *idle("echo", 3), *idle("ace", 3), load("flamethrower-7", "blind.left"))
    state = act(granted(table, "blind", "reload"), "power", power="reload", slot="left").state
    assert ana(state)["charger"]["left"] == {"card": "flamethrower-1", "ammo": 2}
    assert act(state, "end_turn").state["players"]["blind"]["charisma"] == 0


def test_adrenaline(table):
    """«ADRÉNALINE. Lors d'un même tour, vous pouvez attaquer deux Monstres au lieu d'un [...] et
    profiter de la Brèche ouverte au niveau inférieur.» The Rat, then the Spider in its breach."""
    turn(table, load("flamethrower-6", "blind.left"))
    play(table, *idle("echo", 3), *idle("ace", 3), load("flamethrower-3", "blind.right"))
    state = act(granted(table, "blind", "adrenaline"), "power", power="adrenaline").state
    state = act(state, "kill", monster="rat", weapons=["flamethrower-3"]).state
    step = act(state, "kill", monster="spider", weapons=["flamethrower-6"])
    assert ana(step.state)["monsters"] == ["rat", "spider"]
    assert ana(step.state)["pawn"] == [1, 3]
    with pytest.raises(RuleError) as error:
        act(step.state, "kill", monster="bat", weapons=["flamethrower-6"])
    assert error.value.key == "kill.one_per_turn", "two monsters, not three"
