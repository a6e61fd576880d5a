"""What an owner teaches of a Runemasters monster: "no reward" is an answer, not a gap.

Rulebook, "Les monstres": a monster killed gives its printed rewards to the guardian who killed it
(«Les monstres tués ne rapportent pas de mana» under Maléfice shows a kill may bring none). A
card taught with ``"rewards": {}`` brings nothing and is never refused as untaught; one with no
rewards taught yet is (issue 13: an empty definition is distinct from an unknown one).
"""

from __future__ import annotations

import pytest
from runemasters_helpers import apply, position, said

from companion.engine import Event, RuleError
from companion.games.runemasters import GAME


def _shadow(rewards):
    state = position(("kulak", "blue"), ("kyreas", "red"), monsters={"blue": {1: "shadow-blue"}},
                     faces=("blue", "violet", "red", "red"))
    state["catalog"] = {"monster": {**state["catalog"]["monster"], "shadow-blue": {
        **state["catalog"]["monster"]["shadow-blue"], "rewards": rewards}}}
    return state


def test_a_monster_taught_with_no_reward_dies_and_gives_nothing():
    state = GAME.apply(_shadow(None), Event("teach", {
        "kind": "monster", "id": "shadow-blue", "definition": {"rewards": {}}})).state
    mana = state["guardians"]["kulak"]["mana"]
    state = apply(state, "hit", die=0).state
    step = apply(state, "hit", die=1)
    assert step.state["paths"]["blue"]["spaces"][0] is None, "killed"
    assert step.state["guardians"]["kulak"]["mana"] == mana
    assert said(step, "reward.gained") == []


def test_a_monster_whose_rewards_are_not_taught_is_refused():
    with pytest.raises(RuleError) as error:
        apply(_shadow(None), "hit", die=0)
    assert error.value.key == "card.incomplete" and error.value.params["missing"] == ["rewards"]
