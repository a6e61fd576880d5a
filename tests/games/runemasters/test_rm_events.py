"""Every Event card, the Event pile and the end of the round.

Rulebook, "Déroulement" and "Les événements" (../shared/rules/runemasters.fr.txt).
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
    play_game,
    position,
    refused,
    said,
    setup_event,
    strong_turn,
)

from companion.engine import RuleError

OPENING = (card("archer-blue"), card("werewolf-red"), card("troll-yellow"))


@pytest.fixture
def session(tmp_path):
    s = new_session(tmp_path)
    play(s, setup_event(("kyreas", "red"), ("kulak", "blue")), *OPENING)
    yield s
    s.close()


@pytest.mark.parametrize(("event", "count"), [("transcendence", 5), ("rain_of_arrows", 3),
                                              ("all_is_calm", 4)])
def test_dice_count(session, event, count):
    """«Transcendance : les gardiens lancent 5 dés au lieu de 4.» «Pluie de flèches : les
    gardiens lancent 3 dés au lieu de 4.»"""
    play(session, card(event), card("shadow-green"))
    assert session.expects().count == count
    session.submit(dice(*["red"] * count))


def test_guardian_angel(session):
    """«Ange gardien : choisissez un gardien et donnez-lui le marqueur Ange gardien. Ce gardien ne
    peut pas perdre son dernier point de vie. Si des dégâts lui enlèvent plusieurs points de vie
    d'un coup, il conserve toujours le dernier point de vie.»"""
    session.submit(card("guardian_angel"))
    expects = session.expects()
    assert (expects.kind, expects.options) == ("choice", ["kyreas", "kulak"])
    assert session.view()["prompts"][0]["id"] == "angel"
    session.submit({"type": "angel", "guardian": "kulak"})
    state = position(("kulak", "blue"), ("kyreas", "red"), event="guardian_angel",
                     monsters={"blue": {1: "troll-blue"}})
    state["paths"]["blue"]["spaces"][0]["wounds"] = [0, 1]
    state["guardians"]["kulak"].update(life=2, angel=True)
    step = apply(state, "end_turn")
    assert step.state["guardians"]["kulak"]["life"] == 1
    assert step.state["temple"]["life"] == 6
    assert said(step, "angel.saves")


def test_mana_drain_doubles_rerolls(session):
    """«Drain de mana : les relances coûtent 2 points de mana au lieu de 1 point de mana.»"""
    play(session, card("mana_drain"), card("shadow-green"), dice("red", "red", "red", "red"),
         {"type": "reroll", "dice": [0, 1]}, dice("blue", "blue"))
    assert session.view()["guardians"]["kyreas"]["mana"] == 0


def test_hardened_forbids_the_mark(session):
    """«Endurcis : la Marque du gardien ne peut pas être utilisée.»"""
    play(session, card("hardened"), card("shadow-green"), dice("white", "red", "red", "red"))
    refused(session, {"type": "mark", "die": 0}, "mark.hardened")


def test_vivacity_one_free_move(session):
    """«Vivacité : les gardiens peuvent se déplacer une fois gratuitement pendant leur tour.»"""
    play(session, card("vivacity"), card("shadow-green"), dice("red", "red", "red", "red"),
         {"type": "move", "to": "green"})
    assert session.view()["guardians"]["kyreas"]["path"] == "green"
    refused(session, {"type": "move", "to": "red"}, "move.needs_die")


def test_poison_at_the_end_of_the_round(session):
    """«Poison : si un gardien subit au moins une blessure pendant cette manche, placez un
    marqueur Poison sur son plateau. À la fin de la manche, retirez le marqueur Poison et 1 PV
    (cela peut tuer le gardien).»"""
    play(session, card("poison"), card("shadow-red"), dice("green", "green", "green", "green"))
    step = session.submit(END)  # the Archer in contact on blue wounds Kulak
    assert said(step, "guardian.poisoned") == [{"guardian": "kulak"}]
    assert session.view()["guardians"]["kulak"]["poison"]
    play(session, card("werewolf-blue"), dice("green", "green", "green", "green"))
    step = session.submit(END)  # Kulak wounded again (2), Kyreas by the Werewolf (3)
    view = session.view()
    assert not view["guardians"]["kulak"]["poison"] and not view["guardians"]["kyreas"]["poison"]
    assert (view["guardians"]["kulak"]["life"], view["guardians"]["kyreas"]["life"]) == (1, 2)
    assert {"guardian": "kulak", "source": "poison", "life": 1} in said(step, "guardian.wounded")
    assert view["round"] == 2


def test_curse_and_mana_healing():
    """«Maléfice : les monstres tués ne rapportent pas de mana.» «Soin de mana : vous pouvez
    choisir de gagner des points de vie à la place des points de mana gagnés en tuant un
    monstre.»"""
    state = position(("kyreas", "red"), ("kulak", "blue"), event="curse",
                     monsters={"red": {1: "werewolf-red"}}, faces=("red", "violet", "red", "red"))
    state["guardians"]["kyreas"]["mana"] = 1
    state = apply(state, "hit", die=0).state
    state = apply(state, "hit", die=1).state
    assert state["guardians"]["kyreas"]["mana"] == 1
    state = position(("kyreas", "red"), ("kulak", "blue"), event="mana_healing",
                     monsters={"red": {1: "werewolf-red"}}, faces=("red", "violet", "red", "red"))
    state["guardians"]["kyreas"].update(mana=1, life=2)
    state = apply(state, "hit", die=0).state
    state = apply(state, "hit", die=1, as_life=True).state
    assert (state["guardians"]["kyreas"]["mana"], state["guardians"]["kyreas"]["life"]) == (1, 3)


def test_the_pile_follows_the_difficulty(session):
    """«prenez 5 cartes en fonction du niveau de difficulté désiré» — Novice: 2 positive,
    2 negative, 1 neutral."""
    for event in ("pavise", "vivacity"):
        play(session, card(event), card("shadow-green") if event == "pavise" else
             card("shadow-red"), dice("green", "green", "green", "green"), END,
             card("werewolf-green" if event == "pavise" else "werewolf-blue"),
             dice("red", "red", "red", "red"), END)
    error = refused(session, card("transcendence"), "card.event_not_in_pile")
    assert error.params["kind"] == "positive"
    refused(session, card("pavise"), "card.already_drawn")
    refused(session, card("shadow-blue"), "card.not_an_event")


def test_all_is_calm_once_the_pile_is_empty(tmp_path):
    """«S'il n'y a plus de cartes dans la pile Événement, retrouvez la carte Tout est calme et
    placez-la face visible sur la pile. Cette événement s'applique jusqu'à la fin de la
    partie.»"""
    session = new_session(tmp_path)
    play(session, setup_event(("kyreas", "red"), ("kulak", "blue"), difficulty="legend"),
         *OPENING)
    monsters = ["shadow-green", "werewolf-green", "shadow-red", "werewolf-blue", "shadow-blue",
                "archer-green", "troll-red", "archer-red", "troll-blue", "archer-yellow"]
    play_game(session, monsters, ["mana_drain", "hardened", "poison", "rain_of_arrows", "curse"],
              strong_turn, until=lambda view: view["round"] == 6)
    view = session.view()
    assert view["round"] == 6 and view["event"] == "all_is_calm"
    assert session.expects().message.key == "expect.monster"
    session.close()


def test_an_event_refused_as_a_monster(session):
    """Event cards are revealed by the Elder at the start of the round, not drawn as monsters."""
    session.submit(card("all_is_calm"))
    with pytest.raises(RuleError) as error:
        session.submit(card("poison"))
    assert error.value.key == "card.not_a_monster"
