"""Set-up, the monster pile per guardian count, Dawn's place, and teaching the cards.

Rulebook, "Mise en place" (../shared/rules/runemasters.fr.txt).
"""

from __future__ import annotations

import json

import pytest
from runemasters_helpers import card, dice, play, refused, setup_event

from companion.engine import RuleError


@pytest.mark.parametrize(("seats", "temple", "size", "paths"), [
    ((("kulak", "red"), ("kyreas", "blue")), 6, 14, ["red", "blue", "yellow", "green"]),
    ((("kulak", "red"), ("kyreas", "blue"), ("neltai", "green")), 4, 20,
     ["red", "blue", "green"]),
    ((("kulak", "red"), ("kyreas", "blue"), ("neltai", "green"), ("ismoros", "yellow")), 4, 25,
     ["red", "blue", "yellow", "green"]),
])
def test_table_by_guardian_count(session, seats, temple, size, paths):
    """«6 PV pour 2 gardiens et 4 PV pour 3/4 gardiens»; «Pour 4 gardiens : mélangez les 32
    cartes Monstre et retirez-en 8 [...] Pour 3 gardiens : retirez les cartes Monstres jaunes,
    mélangez les 25 cartes restantes, et retirez-en 6 [...] Pour 2 gardiens : [...] 17 cartes
    puis retirez en 4» — plus Dawn. «Chaque gardien commence avec 4 points de vie (PV) et 4 points
    de mana (PM).» «Placez le jeton de Pouvoir ultime [...] sur la case 1».
    """
    session.submit(setup_event(*seats))
    view = session.view()
    assert view["temple"] == {"life": temple, "max": temple}
    assert view["deck"]["size"] == size and view["deck"]["before_dawn"] == size - 4
    assert list(view["paths"]) == paths
    for guardian in view["guardians"].values():
        assert (guardian["life"], guardian["mana"], guardian["ultimate"]["track"]) == (4, 4, 1)
    assert session.expects().kind == "card"


def test_initiation_starts_the_ultimate_on_2(session):
    """«Note : pour une partie d'initiation, placez le jeton de Pouvoir ultime sur la case 2.»"""
    session.submit(setup_event(("kulak", "red"), ("kyreas", "blue"), difficulty="initiation"))
    assert session.view()["guardians"]["kulak"]["ultimate"]["track"] == 2


def test_first_three_monsters_on_spaces_1_2_3_and_the_elder_plays_first(session):
    """«Tirez la première carte [...] sur la case 1 du chemin de sa couleur. Puis [...] case 2
    [...] Enfin [...] case 3.» «chaque gardien en vie joue un tour de jeu, en commençant par le
    Doyen.»"""
    play(session, setup_event(("kulak", "red"), ("kyreas", "blue"), ("ismoros", "green"),
                              elder="kyreas"),
         card("troll-red"), card("warrior-red"), card("shadow-red"))
    spaces = session.view()["paths"]["red"]["spaces"]
    assert [s["card"] for s in spaces[:3]] == ["troll-red", "warrior-red", "shadow-red"]
    assert session.view()["order"] == ["kyreas", "ismoros", "kulak"]
    session.submit(card("pavise"))
    assert session.view()["active"] == "kyreas"


def test_bad_setups(session):
    """«Chaque joueur place ensuite son personnage sur le temple face au chemin sans gardien de
    son choix»; with 3 guardians the yellow path is not used."""
    for event, key in (
        (setup_event(("kulak", "red"), ("kyreas", "red")), "setup.repeated"),
        (setup_event(("kulak", "red"), ("kulak", "blue")), "setup.repeated"),
        (setup_event(("kulak", "red"), ("kyreas", "blue"), ("neltai", "yellow")),
         "setup.path_unused"),
        (setup_event(("kulak", "red"), ("kyreas", "blue"), elder="neltai"),
         "setup.elder_not_playing"),
    ):
        with pytest.raises(RuleError) as error:
            session.submit(event)
        assert error.value.key == key
    assert session.state is None


def test_three_guardians_have_no_yellow_monsters(session):
    """«Pour 3 gardiens : retirez les cartes Monstres jaunes»."""
    session.submit(setup_event(("kulak", "red"), ("kyreas", "blue"), ("neltai", "green")))
    error = refused(session, card("troll-yellow"), "card.not_in_deck")
    assert error.params["reason"] == "path_unused"


def test_two_guardians_use_the_two_player_cards_and_one_dragon(session):
    """«Pour 2 gardiens : prenez les 16 cartes marquées du symbole 2 joueurs (4 Archers,
    4 Loups-garous, 4 Trolls, 4 Ombres) et 1 Dragon au hasard.»"""
    session.submit(setup_event(("kulak", "red"), ("kyreas", "blue")))
    assert refused(session, card("warrior-red"), "card.not_in_deck").params["reason"] == (
        "not_two_player")
    session.submit(card("dragon-green"))
    assert refused(session, card("dragon-red"), "card.not_in_deck").params["reason"] == (
        "one_dragon")
    refused(session, card("dragon-green"), "card.already_drawn")


def test_dawn_is_among_the_last_four_cards(session):
    """«Mélangez la carte Aube avec les 3 dernières cartes Monstres (du bas) et remettez-les en
    bas de la pile.» «La partie se termine immédiatement sur une victoire commune dès que la carte
    Aube est révélée.»"""
    session.submit(setup_event(("kulak", "red"), ("kyreas", "blue")))
    assert refused(session, card("dawn"), "card.dawn_too_early").params["left"] == 10


def test_an_unknown_card_is_taught_as_it_appears(session):
    """The box has 32 monster cards, the package knows 28 by type and colour: the owner adds the
    others (here a second red Archer) the first time they are drawn; it is kept for later."""
    play(session, setup_event(("kulak", "red"), ("kyreas", "blue"), ("neltai", "green")))
    refused(session, card("archer-red-2"), "card.unknown")
    step = session.submit({"type": "card", "id": "archer-red-2", "define": {
        "type": "archer", "colour": "red", "weak_points": ["red", "green"],
        "rewards": {"mana": 1}}})
    assert step.learned[0][:2] == ("monster", "archer-red-2")
    saved = json.loads((session.data_dir / "definitions" / "runemasters.json").read_text())
    assert saved["monster"]["archer-red-2"]["weak_points"] == ["red", "green"]


def test_a_card_without_weak_points_stays_playable_and_asks_to_be_taught(session):
    """The monster cards' weak points and rewards are not public: the card enters play, the
    companion asks for what is printed on it, and no wound is possible until it is taught."""
    play(session, setup_event(("kulak", "red"), ("kyreas", "blue"), taught=False),
         card("werewolf-red"), card("archer-blue"), card("troll-green"), card("all_is_calm"),
         card("shadow-yellow"), dice("red", "violet", "blue", "white"))
    prompts = {p["params"]["card"]: p for p in session.view()["prompts"]}
    assert sorted(prompts) == ["archer-blue", "shadow-yellow", "troll-green", "werewolf-red"]
    assert prompts["werewolf-red"]["params"]["missing"] == ["weak_points", "rewards"]
    error = refused(session, {"type": "hit", "die": 0}, "card.incomplete")
    assert error.params["missing"] == ["weak_points", "rewards"]
    session.submit({"type": "teach", "kind": "monster", "id": "werewolf-red",
                    "definition": {"weak_points": ["red", "violet"], "rewards": {"mana": 2}}})
    play(session, {"type": "hit", "die": 0}, {"type": "hit", "die": 1})
    assert session.view()["paths"]["red"]["spaces"][0] is None
    refused(session, {"type": "teach", "kind": "monster", "id": "troll-green",
                      "definition": {"colour": "red"}}, "teach.in_play")


def test_a_dragon_has_three_weak_points(session):
    """«Dragon : pour tuer un Dragon, vous devez lui infliger seul 3 blessures dans le même
    tour.»"""
    session.submit(setup_event(("kulak", "red"), ("kyreas", "blue")))
    refused(session, {"type": "teach", "kind": "monster", "id": "dragon-red",
                      "definition": {"weak_points": ["red", "red"]}},
            "definition.dragon_weak_points")
