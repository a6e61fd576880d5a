"""Bad input is refused with a RuleError naming what was wrong, and changes nothing.

Rulebook passages cited per test; the journal length and the view are compared before and after.
"""

from __future__ import annotations

import pytest
from lastbastion import TILES, card, known, play, setup_event
from sessiontools import refused

from companion.engine import RuleError


@pytest.fixture
def table(session):
    """Gary (Kazgin, S) in his Hero phase with an imp on yellow.1; Paul (Teagaan, N) waits."""
    play(session, setup_event([("Gary", "kazgin", "S"), ("Paul", "teagaan", "N")]),
         *known("incube"), card("imp", "yellow", 1, slot="yellow.1"))
    return session


def test_moving_two_tiles(table):
    """«Le joueur peut déplacer sa figurine Héros [...] vers une tuile Bastion adjacente.»"""
    table.submit({"type": "move", "hero": "kazgin", "to": [2, 2]})
    error = refused(table, {"type": "move", "hero": "kazgin", "to": [0, 0]}, "move.already_moved")
    assert error.params["hero"] == "kazgin"


def test_moving_to_a_tile_that_is_not_adjacent(session):
    """Two tiles away is not adjacent, diagonals included."""
    play(session, setup_event([("Gary", "kazgin", "S")]), card("imp", "yellow", 1,
                                                                 slot="yellow.1"),
         {"type": "move", "hero": "kazgin", "to": [0, 1]})
    session.submit({"type": "end_turn"})
    session.submit(card("imp-2", "yellow", 1, slot="yellow.2"))
    error = refused(session, {"type": "move", "hero": "kazgin", "to": [2, 1]}, "move.not_adjacent")
    assert (error.params["origin"], error.params["to"]) == (TILES[0][1], TILES[2][1])  # names


def test_fighting_from_the_centre(table):
    """«Aucun combat n'est possible à partir de la tuile Bastion centrale (sauf Twindalli).»"""
    refused(table, {"type": "fight", "targets": ["yellow.1"]}, "fight.from_centre")


def test_fighting_a_slot_that_is_not_adjacent(table):
    """«Le héros peut combattre un ou plusieurs monstres situés sur des emplacements adjacents.»"""
    table.submit({"type": "move", "hero": "kazgin", "to": [2, 2]})
    error = refused(table, {"type": "fight", "targets": ["yellow.1"]}, "fight.not_adjacent")
    assert error.params["reachable"] == ["blue.2", "yellow.0"]


def test_activating_a_gripped_tile_without_call_to_arms(table):
    """«Une tuile Bastion où se trouve une figurine Emprise du Mal ne peut pas être activée.»"""
    play(table, {"type": "adjust", "tile": [1, 1], "grip": True})
    refused(table, {"type": "activate", "tile": "fountain"}, "activate.gripped")
    table.submit({"type": "activate", "tile": "fountain", "call_to_arms": True})
    assert table.view()["heroes"]["kazgin"]["call_to_arms"] == 0


def test_activating_another_tile_without_call_to_arms(table):
    """«Le héros peut utiliser l'action de la tuile Bastion sur laquelle sa figurine se trouve.»"""
    refused(table, {"type": "activate", "tile": "market"}, "activate.not_on_tile")


def test_spending_a_token_nobody_on_the_tile_has(table):
    """«Le joueur actif peut également utiliser les jetons Équipement d'un (ou de plusieurs)
    héros situé(s) sur la même tuile Bastion que lui.» Paul is elsewhere."""
    play(table, {"type": "move", "hero": "kazgin", "to": [2, 1]},
         {"type": "fight", "targets": ["yellow.1"]},
         {"type": "dice", "faces": ["red", "red", "red"], "grey": "red"})
    refused(table, {"type": "resolve", "falls": ["yellow.1"], "spend": {"teagaan": {"red": 1}}},
            "resolve.not_on_tile")
    refused(table, {"type": "resolve", "falls": ["yellow.1"], "spend": {"kazgin": {"red": 1}}},
            "resolve.not_held")


def test_claiming_a_win_the_dice_do_not_give(table):
    """«doit obtenir un nombre de faces, correspondant à la couleur du monstre ciblé, égal ou
    supérieur à sa résistance.»"""
    play(table, {"type": "move", "hero": "kazgin", "to": [2, 1]},
         {"type": "fight", "targets": ["yellow.1"]},
         {"type": "dice", "faces": ["red", "red", "red"], "grey": "red"})
    refused(table, {"type": "resolve", "falls": ["yellow.1"], "spend": {}}, "resolve.not_enough")


def test_unknown_card_and_tile_and_hero(table):
    """Ids the catalog does not hold are named in the refusal."""
    table.submit({"type": "end_turn"})  # W neutral, then Paul (N) draws
    refused(table, {"type": "card", "id": "no-such-card"}, "card.unknown")
    table.submit(card("bat", "red", 1, slot="red.2"))
    refused(table, {"type": "activate", "tile": "castle"}, "tile.unknown")
    refused(table, {"type": "move", "hero": "gandalf", "to": [0, 1]}, "hero.unknown")


def test_events_the_game_does_not_expect_now(table):
    """A draw during the Hero phase, dice with nothing rolled, an unknown type or field."""
    refused(table, card("extra", "red", 1), "event.not_expected")
    refused(table, {"type": "dice", "faces": ["red"]}, "event.not_expected")
    refused(table, {"type": "teleport"}, "event.unknown_type")
    refused(table, {"type": "move", "hero": "kazgin", "to": [1, 2], "speed": 3},
            "event.unknown_field")
    refused(table, {"type": "move", "hero": "kazgin", "to": [1, 7]}, "event.bad_field")
    refused(table, {"type": "move", "hero": "kazgin"}, "event.missing_field")
    refused(table, ["not", "an", "object"], "event.not_object")


def test_a_warlord_where_the_deck_holds_a_monster(table):
    """The deck is built with the Warlord under the monsters («de haut en bas : 42 cartes Monstre,
    1 carte Seigneur de Guerre, 8 cartes Monstre»): a Warlord cannot come out first."""
    table.submit({"type": "end_turn"})
    refused(table, card("boss", "red", 4, kind="warlord"), "card.wrong_type")


def test_setup_errors(session):
    """«Dans les parties à 2 joueurs, les plateaux Héros des deux joueurs doivent se faire face.»"""
    with pytest.raises(RuleError) as error:
        session.submit(setup_event([("Gary", "kazgin", "S"), ("Paul", "teagaan", "E")]))
    assert error.value.key == "setup.two_players_face"
    with pytest.raises(RuleError) as error:
        session.submit(setup_event([("Gary", "superman", "S")]))
    assert error.value.key == "setup.unknown_hero"
    event = setup_event([("Gary", "kazgin", "S")])
    event["tiles"] = [["market"] * 3] * 3
    with pytest.raises(RuleError) as error:
        session.submit(event)
    assert error.value.key == "setup.tiles_repeated"
    assert session.journal_entries() == [] and session.view()["game"] is None
