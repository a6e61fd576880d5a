"""The guardians' Marks and Ultimate Powers, and how damage reaches guardians and the temple.

Rulebook, "Les gardiens" and "Déplacement des monstres" (../shared/rules/runemasters.fr.txt).
"""

from __future__ import annotations

import pytest
from runemasters_helpers import (
    END,
    apply,
    card,
    dice,
    new_session,
    play,
    position,
    row,
    said,
    setup_event,
)

from companion.engine import Event, RuleError
from companion.games.runemasters import GAME


def test_shield_takes_a_whole_troll_attack():
    """«Bouclier : placez un marqueur Bouclier sur un gardien. La prochaine attaque détruira le
    bouclier au lieu de blesser le gardien. Un gardien ne peut avoir qu'un seul bouclier.»"""
    state = position(("ismoros", "red"), ("kulak", "blue"), monsters={"blue": {1: "troll-blue"}},
                     faces=("white", "white", "red", "red"))
    state["paths"]["blue"]["spaces"][0]["wounds"] = [0, 1]
    state = apply(state, "mark", die=0, target="kulak").state
    with pytest.raises(RuleError) as error:
        apply(state, "mark", die=1, target="kulak")
    assert error.value.key == "mark.already_shielded"
    step = apply(state, "end_turn")
    assert step.state["guardians"]["kulak"]["life"] == 4
    assert not step.state["guardians"]["kulak"]["shield"]
    assert said(step, "shield.broken") == [{"guardian": "kulak", "source": "troll-blue"}]


def test_troll_second_damage_goes_to_the_temple():
    """«Troll : quand il a deux blessures, le Troll inflige 2 dégâts au lieu de 1. Si le premier
    dégât tue un gardien, le second dégât est porté contre le temple.»"""
    state = position(("kulak", "blue"), ("kyreas", "red"), monsters={"blue": {1: "troll-blue"}})
    state["paths"]["blue"]["spaces"][0]["wounds"] = [0, 1]
    state["guardians"]["kulak"]["life"] = 1
    step = apply(state, "end_turn")
    assert not step.state["guardians"]["kulak"]["alive"]
    assert step.state["guardians"]["kulak"]["path"] is None
    assert step.state["temple"]["life"] == 5


def test_whirlwind_hits_any_weak_point_of_the_first_monster():
    """«Tourbillon : touchez n'importe quel point faible du premier monstre sur votre chemin.»"""
    state = position(("kyreas", "red"), ("kulak", "blue"), monsters={"red": {2: "troll-red"}},
                     faces=("white", "green", "green", "green"))
    state = apply(state, "mark", die=0, rune="violet").state
    assert state["paths"]["red"]["spaces"][1]["wounds"] == [2]


def test_healing_prayer():
    """«Prière de guérison : un gardien de son choix regagne 1 point de vie. Il n'est pas possible
    de soigner le temple.» Life never passes 4."""
    state = position(("kulak", "blue"), ("kyreas", "red"), monsters={},
                     faces=("white", "white", "red", "red"))
    state["guardians"]["kyreas"]["life"] = 2
    state = apply(state, "mark", die=0, target="kyreas").state
    assert state["guardians"]["kyreas"]["life"] == 3
    with pytest.raises(RuleError) as error:
        apply(state, "mark", die=1, target="kulak")
    assert error.value.key == "heal.full_life"


def test_exchange_moves_a_monster_keeping_its_space():
    """«Échange : déplacez un monstre sur un autre chemin en conservant sa position. Si un
    monstre est présent sur sa case d'arrivée, échangez leurs positions.»"""
    state = position(("neltai", "red"), ("kulak", "blue"),
                     monsters={"red": {1: "troll-red"}, "green": {1: "werewolf-green"}},
                     faces=("white", "white", "red", "red"))
    state = apply(state, "mark", die=0, **{"from": "red", "space": 1, "to": "green"}).state
    assert row(state, "red")[0] == "werewolf-green" and row(state, "green")[0] == "troll-red"
    state = apply(state, "mark", die=1, to="blue").state
    assert state["guardians"]["neltai"]["path"] == "blue"
    assert state["guardians"]["kulak"]["path"] == "red"


def test_stomp_hits_every_monster_of_the_path():
    """«Piétinement : touchez n'importe quel point faible de chaque monstre sur votre chemin.»"""
    state = position(("kyreas", "red"), ("kulak", "blue"),
                     monsters={"red": {1: "shadow-red", 3: "troll-red"},
                               "blue": {1: "archer-blue"}})
    state["guardians"]["kyreas"]["ultimate"]["track"] = 4
    state["paths"]["red"]["spaces"][0]["wounds"] = [0]
    state = apply(state, "ultimate", runes={"3": "violet"}).state
    assert row(state, "red") == [None, None, "troll-red", None, None]
    assert state["paths"]["red"]["spaces"][2]["wounds"] == [2]
    assert state["paths"]["blue"]["spaces"][0]["wounds"] == []
    assert state["guardians"]["kyreas"]["ultimate"] == {"track": 0, "uses": 1}


def test_elemental_storm_hits_space_1_of_every_path():
    """«Tempête élémentaire : touchez n'importe quel point faible de chaque monstre présents sur
    la case 1 de chaque chemin.»"""
    state = position(("neltai", "red"), ("kulak", "blue"),
                     monsters={"red": {1: "shadow-red", 2: "archer-red"},
                               "green": {1: "werewolf-green"}, "blue": {3: "troll-blue"}})
    state["guardians"]["neltai"]["ultimate"]["track"] = 4
    state = apply(state, "ultimate").state
    assert state["paths"]["red"]["spaces"][0]["wounds"] == [0]
    assert state["paths"]["green"]["spaces"][0]["wounds"] == [0]
    assert state["paths"]["red"]["spaces"][1]["wounds"] == []
    assert state["paths"]["blue"]["spaces"][2]["wounds"] == []


def test_the_ultimate_twice_at_most():
    """«S'il s'agit de la seconde utilisation, défaussez le jeton. Vous ne pouvez plus utiliser
    votre Pouvoir ultime durant le reste de la partie.»"""
    state = position(("ismoros", "red"), ("kulak", "blue"), monsters={},
                     faces=("red", "red", "red", "red"))
    state["guardians"]["ismoros"]["ultimate"] = {"track": 4, "uses": 1}
    state = apply(state, "ultimate").state
    assert state["guardians"]["ismoros"]["ultimate"] == {"track": 0, "uses": 2}
    for kind, fields in (("ultimate", {}), ("charge", {"dice": [0]})):
        with pytest.raises(RuleError) as error:
            apply(state, kind, **fields)
        assert error.value.key == "ultimate.spent"


def test_second_wind_and_the_revived_guardian_plays_this_round(tmp_path):
    """«Second souffle : ramenez à la vie un gardien et remontez-le à 4 points de vie. Ses points
    de mana et son pouvoir ultime ne changent pas. Placez-le devant un chemin sans gardien. Il
    peut jouer pendant cette manche si son tour n'est pas déjà passé.» and «si un gardien est
    mort, ignorez son tour de jeu»."""
    session = new_session(tmp_path)
    play(session, setup_event(("kulak", "blue"), ("kyreas", "red"), ("ismoros", "green")),
         card("archer-blue"), card("werewolf-red"), card("troll-green"), card("all_is_calm"),
         card("shadow-blue"), dice("red", "red", "green", "white"))
    state = session.state
    assert state["order"] == ["kulak", "kyreas", "ismoros"]
    # Kyreas, whose turn comes next, is dead; Kulak's Ultimate is charged.
    dead = {**state, "guardians": {**state["guardians"],
                                   "kyreas": {**state["guardians"]["kyreas"], "alive": False,
                                              "path": None, "life": 0, "mana": 2},
                                   "kulak": {**state["guardians"]["kulak"],
                                             "ultimate": {"track": 4, "uses": 0}}}}
    step = GAME.apply(dead, Event("ultimate", {"target": "kyreas", "to": "red"}))
    kyreas = step.state["guardians"]["kyreas"]
    assert (kyreas["alive"], kyreas["life"], kyreas["mana"], kyreas["path"]) == (
        True, 4, 2, "red")
    with pytest.raises(RuleError) as error:
        GAME.apply(dead, Event("ultimate", {"target": "kyreas", "to": "blue"}))
    assert error.value.key == "ultimate.path_taken"
    after = GAME.apply(step.state, Event("end_turn", {})).state
    assert after["active"] == "kyreas"
    skipped = GAME.apply(dead, Event("end_turn", {})).state
    assert skipped["active"] == "ismoros"
    session.close()


def test_last_guardian_killed_is_a_defeat():
    """«La partie se termine sur une défaite si le dernier gardien est tué»."""
    state = position(("kulak", "blue"), ("kyreas", "red"),
                     monsters={"blue": {1: "werewolf-blue"}, "red": {1: "werewolf-red"}})
    state["guardians"]["kulak"]["life"] = 1
    state["guardians"]["kyreas"]["life"] = 1
    step = apply(state, "end_turn")
    assert (step.state["status"], step.state["reason"]) == ("lost", "guardians_dead")
    assert GAME.expects(step.state).kind == "nothing"


def test_temple_falls():
    """«S'il n'y a pas de gardien sur ce chemin : retirez 1 PV du plateau Points de vie du
    temple. Si le temple perd son dernier PV, la partie est perdue !»"""
    state = position(("kulak", "blue"), ("kyreas", "red"),
                     monsters={"green": {1: "werewolf-green"}})
    state["temple"]["life"] = 1
    step = apply(state, "end_turn")
    assert (step.state["status"], step.state["reason"]) == ("lost", "temple_fallen")


def test_wounds_stay_between_turns_except_on_dragons(tmp_path):
    """«Les blessures infligées restent présentes jusqu'à ce que le monstre soit tué.»"""
    session = new_session(tmp_path)
    play(session, setup_event(("kulak", "blue"), ("kyreas", "red")),
         card("werewolf-blue"), card("archer-yellow"), card("troll-green"), card("all_is_calm"),
         card("shadow-red"), dice("blue", "green", "green", "white"), {"type": "hit", "die": 0},
         END)
    assert session.view()["paths"]["blue"]["spaces"][0]["wounds"] == [0]
    assert row(session.state, "blue")[0] == "werewolf-blue"
