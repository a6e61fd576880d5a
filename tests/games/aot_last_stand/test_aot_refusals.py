"""Bad input is refused with a RuleError naming the rule, and changes nothing (view and journal
compared before and after, in ``refused``). Passages of
../shared/rules/attack-on-titan-last-stand.fr.txt cited per test."""

from __future__ import annotations

import pytest
from aot_helpers import NEXT, commit, new_session, play, refused, rolls, setup_event, suffer

from companion.engine import RuleError


@pytest.fixture
def session(table):
    """The standard game, set up (the folder's ``table``)."""
    return table


def round_to_step_6(session, up="pietinement", down="frenesie", **faces):
    faces = faces or {"eren": ["combat"] * 5, "mikasa": ["cannon"] * 5, "armin": ["cannon"] * 5}
    play(session, commit(up, down), *rolls(**faces), NEXT)
    suffer(session)


def test_a_card_played_two_rounds_running(session):
    """«aucune carte ne peut être jouée deux tours consécutifs»; «les cartes Action écartées au
    tour précédent retournent dans la main du Titan»."""
    round_to_step_6(session)
    session.submit(NEXT)
    error = refused(session, commit("pietinement", "basic-3"), "commit.played_last_round")
    assert error.params["card"] == "pietinement"
    play(session, commit("basic-3", "basic-4"),
         *rolls(eren=["combat"] * 5, mikasa=["cannon"] * 5, armin=["cannon"] * 5), NEXT)
    for _ in range(2):  # cards the companion does not know: the table says what they did
        play(session, {"type": "resolve"}, {"type": "answer", "effects": []})
    session.submit(NEXT)
    assert session.view()["titan"]["hand_size"] == 5
    session.submit(commit("pietinement", "frenesie"))


def test_third_ability_outside_the_weak_zone(session):
    """«Le joueur Titan peut recourir à sa troisième capacité uniquement quand le marqueur Santé est
    sur la WEAK ZONE ou sur la KILL ZONE.»"""
    play(session, commit(), *rolls(eren=["titan"] * 5, mikasa=["combat"] * 5,
                                   armin=["cannon"] * 5), NEXT)
    error = refused(session, {"type": "ability", "n": 3, "define": {"cost": 2}},
                    "ability.third_needs_weak_zone")
    assert error.params["zone"] == "start"
    session.submit({"type": "adjust", "health": session.view()["health"]["weak"]})
    session.submit({"type": "ability", "n": 3, "define": {"cost": 2}})
    assert session.view()["prompts"][0]["key"] == "prompt.unknown_effect"


def test_more_cannon_symbols_than_cannons(session):
    """«La somme des symboles [Canon] utilisés par l'ensemble des Héros durant un tour de jeu ne
    peut pas dépasser le nombre de Canons présents sur la Tour.»"""
    session.submit({"type": "adjust", "cannons": 3})
    round_to_step_6(session)  # Frénésie destroys one more: 2 left
    session.submit({"type": "cannon", "hero": "armin", "count": 1})
    error = refused(session, {"type": "cannon", "hero": "armin", "count": 2}, "cannon.too_many")
    assert (error.params["used"], error.params["cannons"]) == (1, 2)


def test_melee_from_the_ground(session):
    """«Le Héros doit se trouver sur le Titan pour l'attaquer au corps-à-corps (c'est-à-dire se
    trouver sur les niveaux 1, 2, 4, 6, 7 ou 8).»"""
    round_to_step_6(session)
    error = refused(session, {"type": "melee", "hero": "eren", "count": 1}, "melee.not_on_titan")
    assert error.params["levels"] == [1, 2, 4, 6, 7, 8]


def test_a_dodge_spent_for_another_hero(session):
    """«Ces symboles sont dépensés à titre personnel, ainsi ils ne fonctionnent que pour le Héros
    qui les dépense et ne peuvent être utilisés pour aider un partenaire.» Armin, on the Tower, is
    not hit by Piétinement: his dodges cannot spare the heroes on the ground."""
    play(session, commit(), *rolls(eren=["combat"] * 5, mikasa=["dodge"] * 2 + ["combat"] * 3,
                                   armin=["dodge"] * 5), NEXT)  # Mikasa may dodge: step 5 waits
    error = refused(session, {"type": "resolve", "pay": {"armin": {"dodge": 2}}},
                    "counter.dodge_not_hit")
    assert error.params == {"hero": "armin", "level": 3, "levels": [0]}
    refused(session, {"type": "resolve", "pay": {"eren": {"dodge": 2}}}, "dice.not_enough")


def test_a_ground_dodge_costs_two(session):
    """«Le(s) Héros présents au sol ont toujours besoin de 2 [Esquive] pour éviter l'attaque.»"""
    play(session, commit(), *rolls(eren=["dodge"] * 5, mikasa=["combat"] * 5,
                                   armin=["dodge"] * 5), NEXT)
    refused(session, {"type": "resolve", "pay": {"eren": {"dodge": 1}}}, "counter.dodge_cost")


def test_rolling_the_wrong_number_of_dice_or_rerolling_a_die_not_held(session):
    """«Les joueurs Héros lancent une première fois tous leurs dés»; a Titan face is with the
    Titan and cannot be rerolled by the hero."""
    session.submit(commit())
    refused(session, {"type": "roll", "hero": "eren", "faces": ["move"] * 4}, "roll.count")
    session.submit({"type": "roll", "hero": "eren", "faces": ["titan", "move", "move", "move",
                                                              "move"]})
    refused(session, {"type": "roll", "hero": "eren", "reroll": ["titan"], "faces": ["move"]},
            "roll.not_held")
    refused(session, NEXT, "roll.not_everyone")


def test_a_card_not_in_hand_and_an_unexpected_event(session):
    """«Le Titan sélectionne deux cartes Action parmi celles de sa main.»"""
    refused(session, commit("pietinement", "destroyer-1"), "commit.not_in_hand")
    refused(session, commit("pietinement", "pietinement"), "commit.same_card")
    refused(session, {"type": "melee", "hero": "eren", "count": 1}, "event.not_expected")


def test_a_tactic_condition_with_the_wrong_symbols(session):
    """«Condition 3 : Les Héros doivent fournir collectivement 2 symboles.»"""
    session.submit({"type": "teach", "kind": "tactic", "id": "sauvetage", "definition": {
        "conditions": [{"level": 4, "symbol": "combat", "count": 2},
                       {"level": 3, "symbol": "dodge", "count": 1},
                       {"symbol": "tactic", "count": 2}]}})
    round_to_step_6(session)
    refused(session, {"type": "provide", "condition": 3, "pay": {"eren": {"combat": 2}}},
            "tactic.wrong_symbols")
    refused(session, {"type": "activate"}, "tactic.conditions_known")


def test_bad_definitions(session):
    """A track whose zones are out of order, an effect outside the vocabulary."""
    refused(session, {"type": "teach", "kind": "track", "id": "health",
                      "definition": {"length": 10, "weak": 8, "kill": 6}},
            "definition.track_order")
    refused(session, {"type": "teach", "kind": "action", "id": "basic-3",
                      "definition": {"name": "X", "effects": [{"op": "explode"}]}},
            "effect.unknown")


def test_a_game_needs_at_least_two_heroes(tmp_path):
    """Rulebook (attack-on-titan-last-stand.fr.txt), «JOUEURS : 2 à 5» and «lorsqu'il n'y a que
    2 joueurs : un joueur interprète le Titan et l'autre joue les rôles de plusieurs Héros»: the
    heroes' side is never a single hero (the counter table covers 2, 3 and 4 heroes)."""
    session = new_session(tmp_path)
    with pytest.raises(RuleError) as refusal:
        session.submit(setup_event(heroes=(("eren", 0),)))
    assert refusal.value.params["field"] == "heroes" and session.state is None
    session.submit(setup_event(heroes=(("eren", 0), ("mikasa", 0))))
    assert len(session.view()["heroes"]) == 2
    session.close()
