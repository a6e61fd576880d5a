"""The F.A.Q. of the Last Bastion rulebook, one test per answer (rulebook, "F.A.Q.")."""

from __future__ import annotations

import pytest
from lastbastion import card, known, play, setup_event, solo

from companion.engine import RuleError


def _duo(session, *events):
    """Gary (Mylfaar, S, yellow) and Paul (Kazgin, N, red); Gary plays first."""
    return play(session, setup_event([("Gary", "mylfaar", "S"), ("Paul", "kazgin", "N")]),
                *events)


def test_resistance_zero_is_not_discarded_but_any_fight_wins(session):
    """«Si un monstre voit sa résistance réduite à 0 [...] est-il mis automatiquement dans la
    défausse ? Non, il n'est vaincu que si un héros fait l'action Combattre ce monstre (la réussite
    du combat est alors automatique).»"""
    _duo(session, card("imp", "yellow", 1, slot="yellow.1"),
         {"type": "power", "hero": "mylfaar", "slot": "yellow.1"})
    view = session.view()
    assert view["boards"]["yellow"][1]["resistance"] == 0, "Mylfaar's enchantment: -1"
    assert view["boards"]["yellow"][1]["id"] == "imp", "still in play"
    play(session, {"type": "move", "hero": "mylfaar", "to": [2, 1]},
         {"type": "fight", "targets": ["yellow.1"]},
         {"type": "dice", "faces": ["red", "red", "red"]}, {"type": "resolve"})
    view = session.view()
    assert view["boards"]["yellow"][1] is None
    assert view["heroes"]["mylfaar"]["equipment"]["yellow"] == 1, "nothing was spent"


def test_moving_and_acting_are_optional(session):
    """«Un héros est-il obligé de se déplacer / d'effectuer une action ? Non.»"""
    _duo(session, card("imp", "yellow", 1, slot="yellow.1"), {"type": "end_turn"})
    view = session.view()
    assert view["active"] == "N", "the neutral West board passed without a draw: Paul's turn"
    assert view["heroes"]["mylfaar"]["tile"] == [1, 1]


def test_life_is_only_limited_by_the_reserve(session):
    """«Un héros peut-il posséder plus de jetons Point de Vie qu'il n'en avait au début ? Oui, les
    jetons Point de Vie sont uniquement limités par la quantité de jetons dans la réserve.»"""
    play(session, solo(reserve={"life": 5}),
         card("healer", "yellow", 0, slot="yellow.2",
              exit=[{"op": "gain", "token": "life", "amount": 4}]),
         {"type": "move", "hero": "kazgin", "to": [2, 0]},
         {"type": "fight", "targets": ["yellow.2"]},
         {"type": "dice", "faces": ["red", "red", "red"], "grey": "red"}, {"type": "resolve"})
    view = session.view()
    assert view["heroes"]["kazgin"]["life"] == 5, "3 + 2 left in a reserve of 5; 2 gains lost"
    assert view["reserve"]["life"] == 0


def test_losing_a_round_token_you_lack_is_ignored(session):
    """«Que se passe-t-il si un joueur doit perdre un jeton rond et qu'il n'en a pas ? Si un joueur
    n'a pas de jeton rond, il ne perd rien.»"""
    play(session, solo(), {"type": "adjust", "hero": "kazgin",
                           "equipment": {"yellow": 0, "black": 0}},
         card("thief", "yellow", 2, slot="yellow.0", recurring=[{"op": "lose", "token": "round"}]),
         {"type": "end_turn"})
    before = session.view()["heroes"]["kazgin"]
    session.submit(card("next", "green", 1, slot="green.0"))
    after = session.view()["heroes"]["kazgin"]
    assert after == before


def test_equipment_may_be_spent_even_if_the_dice_suffice(session):
    """«Lors d'un combat, le joueur actif peut choisir de dépenser un jeton Équipement
    correspondant même si les dés Combat auraient suffi à vaincre le monstre.»"""
    _duo(session, card("imp", "yellow", 1, slot="yellow.1"),
         {"type": "move", "hero": "mylfaar", "to": [2, 1]},
         {"type": "fight", "targets": ["yellow.1"]},
         {"type": "dice", "faces": ["yellow", "yellow", "red"]})
    with pytest.raises(RuleError) as refused:
        session.submit({"type": "resolve", "falls": ["yellow.1"],
                        "spend": {"mylfaar": {"red": 1}}})
    assert refused.value.key in ("resolve.not_held", "resolve.useless_spend")
    session.submit({"type": "resolve", "falls": ["yellow.1"],
                    "spend": {"mylfaar": {"yellow": 1}}})
    view = session.view()
    assert view["heroes"]["mylfaar"]["equipment"]["yellow"] == 0
    assert view["reserve"]["equipment"]["yellow"] == 4


def test_a_won_fight_may_be_declined(session):
    """«Est-il obligatoire de remporter un combat si j'ai obtenu les faces nécessaires ? Non, le
    joueur actif peut renoncer à remporter un combat (par exemple s'il craint l'effet de sortie
    d'un monstre).»"""
    _duo(session, card("bomb", "yellow", 1, slot="yellow.1",
                       exit=[{"op": "lose", "token": "life", "amount": 3}]),
         {"type": "move", "hero": "mylfaar", "to": [2, 1]},
         {"type": "fight", "targets": ["yellow.1"]},
         {"type": "dice", "faces": ["yellow", "white", "white"]},
         {"type": "resolve", "falls": []})
    view = session.view()
    assert view["boards"]["yellow"][1]["id"] == "bomb"
    assert view["heroes"]["mylfaar"]["life"] == 3
    assert session.history()[-1].label["params"]["result"] == "fight_declined"


def test_no_call_to_arms_between_a_win_and_its_exit_effect(session):
    """«Peut-on utiliser un jeton Appel aux Armes après avoir remporté un combat et avant
    d'appliquer l'effet de sortie du monstre ? Non, la résolution du combat doit être terminée.»"""
    _duo(session, card("riddle", "yellow", 1, slot="yellow.1", exit="Something printed."),
         {"type": "move", "hero": "mylfaar", "to": [2, 1]},
         {"type": "fight", "targets": ["yellow.1"]},
         {"type": "dice", "faces": ["yellow", "red", "red"]}, {"type": "resolve"})
    assert session.view()["prompts"][0]["params"]["text"] == "Something printed."
    with pytest.raises(RuleError) as refused:
        session.submit({"type": "activate", "tile": "market", "call_to_arms": True})
    assert refused.value.key == "event.not_expected"
    session.submit({"type": "answer"})
    session.submit({"type": "activate", "tile": "market", "call_to_arms": True})


def test_second_exit_effect_goes_to_another_player(session):
    """«Si un monstre avec deux effets de sortie est vaincu et que le premier de ces effets fait
    perdre au héros son dernier jeton Point de Vie, le second effet est-il appliqué ? Oui, un autre
    joueur doit appliquer l'effet restant.»"""
    _duo(session, card("martyr", "yellow", 1, slot="yellow.1", exit=[
        {"op": "lose", "token": "life", "amount": 3}, {"op": "gain", "token": "call_to_arms"}]),
         {"type": "move", "hero": "mylfaar", "to": [2, 1]},
         {"type": "fight", "targets": ["yellow.1"]},
         {"type": "dice", "faces": ["yellow", "red", "red"]}, {"type": "resolve"})
    view = session.view()
    assert view["heroes"]["mylfaar"]["state"] == "knocked_out"
    assert view["heroes"]["kazgin"]["call_to_arms"] == 2, "Paul took the remaining effect"
    assert view["active"] == "N", "a knocked-out hero's turn ends; Paul plays next"


def test_knocked_out_hero_is_healed_at_the_dispensary_then_dies(session):
    """«Si un héros est soigné, il retourne son plateau Héros du côté blessé [...] Il perd l'usage
    de son pouvoir [...] Sa figurine revient en jeu sur la tuile Bastion Dispensaire et le joueur
    récupère 3 jetons Point de Vie ainsi qu'un jeton Appel aux Armes. Si un héros devait perdre
    tous ses jetons Point de Vie une seconde fois, il serait alors mort.»"""
    _duo(session, *known("incube"),
         {"type": "adjust", "hero": "kazgin", "life": 0, "state": "knocked_out"})
    # «Tous ses jetons (Équipement, Appel aux Armes) sont perdus et placés dans la réserve»
    assert session.view()["heroes"]["kazgin"]["equipment"]["red"] == 0
    play(session, card("imp", "yellow", 1, slot="yellow.1"),
         {"type": "activate", "tile": "dispensary", "call_to_arms": True})
    paul = session.view()["heroes"]["kazgin"]
    assert (paul["state"], paul["life"], paul["tile"], paul["power"]) == (
        "wounded", 3, [2, 2], False)
    play(session, {"type": "end_turn"},
         {"type": "adjust", "hero": "kazgin", "life": 1})
    # Paul's own turn (N): a recurring loss on his board kills him this time
    assert session.view()["active"] == "N"
    play(session, card("reaper", "red", 3, slot="red.0",
                       arrival=[{"op": "lose", "token": "life"}]))
    assert session.view()["heroes"]["kazgin"]["state"] == "dead"
