"""Hero powers, Evil grip and the full Bastion.

Powers come from the public research (../shared/research/components.md §1.2); grip and placement
rules from the rulebook (../shared/rules/last-bastion.fr.txt).
"""

from __future__ import annotations

import pytest
from lastbastion import card, play, setup_event, solo

from companion.engine import RuleError


def _pair(session, hero, *events, other="kazgin"):
    """Gary plays ``hero`` on S (yellow), Paul plays ``other`` on N (red); Gary starts."""
    return play(session, setup_event([("Gary", hero, "S"), ("Paul", other, "N")]),
                card("imp", "yellow", 1, slot="yellow.1"), *events)


def test_grip_on_a_tile_sends_its_figure_to_the_reserve_and_back(session):
    """«Si la zone d'icône contient un élément (Filet, Étendard, Enchantement, etc.), celui-ci est
    placé dans la réserve. Il sera replacé sur la zone d'icône correspondante dès que la figurine
    Emprise du Mal sera retirée.»"""
    _pair(session, "teagaan", {"type": "adjust", "tile": [1, 0], "grip": True})
    view = session.view()
    assert view["tiles"][1][0] == {"id": "trebuchet", "grip": True, "items": []}
    assert view["reserve"]["items"] == ["net"] and view["reserve"]["grip"] == 11
    session.submit({"type": "power", "hero": "teagaan", "tile": [1, 0]})
    view = session.view()
    assert view["tiles"][1][0] == {"id": "trebuchet", "grip": False, "items": ["net"]}
    assert view["reserve"]["items"] == [] and view["reserve"]["grip"] == 12


def test_teagaan_gives_up_his_move_to_cleanse(session):
    """Teagaan «may give up his move to remove one Grasp of Evil figure»: after moving he cannot."""
    _pair(session, "teagaan", {"type": "adjust", "tile": [0, 0], "grip": True},
          {"type": "move", "hero": "teagaan", "to": [2, 1]})
    with pytest.raises(RuleError) as error:
        session.submit({"type": "power", "hero": "teagaan", "tile": [0, 0]})
    assert error.value.key == "power.already_moved"


def test_a_gripped_hero_board_blocks_the_power(session):
    """«Les joueurs ne peuvent plus activer cette tuile, ni utiliser ce pouvoir.»"""
    _pair(session, "mylfaar", {"type": "adjust", "hero": "mylfaar", "grip": True})
    with pytest.raises(RuleError) as error:
        session.submit({"type": "power", "hero": "mylfaar", "slot": "yellow.1"})
    assert error.value.key == "power.lost"


def test_elmer_moves_another_hero(session):
    """Elmer «gets one extra move; may use it himself or give it to another hero»."""
    _pair(session, "elmer", {"type": "move", "hero": "elmer", "to": [2, 1]},
          {"type": "move", "hero": "kazgin", "to": [0, 1]})
    assert session.view()["heroes"]["kazgin"]["tile"] == [0, 1]
    with pytest.raises(RuleError):
        session.submit({"type": "move", "hero": "elmer", "to": [2, 2]})


def test_feng_li_rerolls_once_and_the_second_result_stands(session):
    """Feng Li «may reroll any chosen combat dice once [...]; the second result always stands»."""
    _pair(session, "feng_li", {"type": "move", "hero": "feng_li", "to": [2, 1]},
          {"type": "fight", "targets": ["yellow.1"]},
          {"type": "dice", "faces": ["red", "red", "red"]},
          {"type": "dice", "faces": ["yellow", "red", "red"], "reroll": True})
    with pytest.raises(RuleError) as error:
        session.submit({"type": "dice", "faces": ["red", "red", "red"], "reroll": True})
    assert error.value.key == "dice.reroll_used"
    session.submit({"type": "resolve"})
    assert session.view()["boards"]["yellow"][1] is None


def test_only_feng_li_rerolls(session):
    _pair(session, "mylfaar", {"type": "move", "hero": "mylfaar", "to": [2, 1]},
          {"type": "fight", "targets": ["yellow.1"]},
          {"type": "dice", "faces": ["red", "red", "red"]})
    with pytest.raises(RuleError) as error:
        session.submit({"type": "dice", "faces": ["yellow", "red", "red"], "reroll": True})
    assert error.value.key == "dice.no_reroll_power"


def test_kazgin_rolls_the_grey_die(session):
    """«Le quatrième dé, de couleur grise, est associé au pouvoir de l'un des héros (Kazgin).»"""
    _pair(session, "kazgin", {"type": "move", "hero": "kazgin", "to": [2, 1]},
          {"type": "fight", "targets": ["yellow.1"]}, other="mylfaar")
    with pytest.raises(RuleError) as error:
        session.submit({"type": "dice", "faces": ["red", "red", "red"]})
    assert error.value.key == "dice.grey"
    session.submit({"type": "dice", "faces": ["red", "red", "red"], "grey": "yellow"})
    assert session.view()["prompts"][0]["default"]["falls"] == ["yellow.1"]


def test_twindalli_fights_from_the_centre(session):
    """«Aucun combat n'est possible à partir de la tuile Bastion centrale (sauf Twindalli).»"""
    _pair(session, "twindalli", {"type": "fight", "targets": ["yellow.1"]},
          {"type": "dice", "faces": ["yellow", "red", "red"]}, {"type": "resolve"})
    assert session.view()["boards"]["yellow"][1] is None


def test_the_paladin_activates_and_fights_in_one_turn(session):
    """Paladin (name not found): «may both use a Bastion tile action and fight in one turn»."""
    _pair(session, "paladin", {"type": "move", "hero": "paladin", "to": [2, 1]},
          {"type": "activate", "tile": "tower"}, {"type": "answer"},
          {"type": "fight", "targets": ["yellow.1"]},
          {"type": "dice", "faces": ["yellow", "red", "red"]}, {"type": "resolve"})
    assert session.view()["boards"]["yellow"][1] is None
    with pytest.raises(RuleError) as error:
        session.submit({"type": "activate", "tile": "tower"})
    assert error.value.key == "action.already_used"


def test_others_act_only_once(session):
    """«Le héros peut réaliser UNE seule des 2 actions suivantes.»"""
    _pair(session, "mylfaar", {"type": "move", "hero": "mylfaar", "to": [2, 1]},
          {"type": "activate", "tile": "tower"}, {"type": "answer"})
    with pytest.raises(RuleError) as error:
        session.submit({"type": "fight", "targets": ["yellow.1"]})
    assert error.value.key == "action.already_used"


def test_all_twelve_slots_full(session):
    """«Si tous les emplacements des plateaux Horde sont déjà occupés par des cartes et qu'un joueur
    doit mettre une carte en jeu, celle-ci n'est pas mise en jeu, elle reste sur la pioche, et le
    joueur perd un jeton Point de Vie.» A full active board draws nothing, so the twelfth card
    must come from an arrival effect that puts another card into play."""
    session.submit(solo())
    colours = ["green"] * 3 + ["red"] * 3 + ["blue"] * 3 + ["yellow"] * 2
    for n, colour in enumerate(colours):
        session.submit(card(f"c{n}", colour, 5, slot=f"{colour}.{colours[:n].count(colour)}"))
        session.submit({"type": "end_turn"})
        while session.expects().kind == "choice":  # full neutral boards: powers not public
            session.submit({"type": "answer"})
    life = session.view()["heroes"]["kazgin"]["life"]
    session.submit(card("summoner", "yellow", 1, slot="yellow.2", arrival=[{"op": "draw"}]))
    view = session.view()
    assert view["heroes"]["kazgin"]["life"] == life - 1
    assert view["deck"]["remaining"] == 35 - 12, "the extra card stayed on the deck"
    assert view["phase"] == "hero"
