"""Setting up Last Bastion: deck, heroes, tiles, figures and reserve.

Rulebook, "Mise en place", "Préparation de la pioche pour 4 joueurs", "Parties à moins de 4
joueurs" and "Modes de difficulté".
"""

from __future__ import annotations

import pytest
from lastbastion import setup_event

from companion.games.last_bastion.setup import deck_layout

FOUR = [("A", "kazgin", "N"), ("B", "mylfaar", "E"), ("C", "teagaan", "S"), ("D", "feng_li", "W")]


@pytest.mark.parametrize(("players", "mode", "size", "warlords"), [
    (4, "normal", 51, [42]),     # «42 cartes Monstre, 1 carte Seigneur de Guerre, 8 cartes Monstre»
    (3, "normal", 47, [38]),     # «3 46»
    (2, "normal", 43, [34]),     # «2 42»
    (1, "normal", 39, [30]),     # «1 38»
    (1, "novice", 35, [26]),     # «retirez 4 cartes Monstre en plus»
    (3, "difficult", 48, [30, 39]),  # «30 cartes Monstre, 1 Seigneur, 8 Monstre, 1 Seigneur, 8»
    (4, "heroic", 53, [26, 35, 44]),  # «Héroïque 3»
])
def test_deck_layout(players, mode, size, warlords):
    """The deck from the top: remaining monsters, then a Warlord above each block of 8."""
    layout = deck_layout(mode, players)
    assert layout["size"] == size and layout["warlords"] == warlords
    assert size - 1 - layout["warlords"][-1] == 8


def test_four_players_start(session):
    """«Chaque joueur prend devant lui : 3 jetons Point de Vie, 1 jeton Équipement de la couleur de
    son héros, 1 jeton Appel aux Armes» and the figures go «sur la tuile Bastion centrale».
    «La figurine Filet est placée sur [...] la tuile Bastion Trébuchet», the Trap on the Quarry,
    the Standard on the Standard tile."""
    session.submit(setup_event(FOUR, first="E"))
    view = session.view()
    for hero in view["heroes"].values():
        assert (hero["life"], hero["call_to_arms"], hero["tile"]) == (3, 1, [1, 1])
        assert sum(hero["equipment"].values()) == 1
        assert hero["equipment"][view["sides"][hero["side"]]] == 1
    items = {t["id"]: t["items"] for row in view["tiles"] for t in row}
    assert (items["trebuchet"], items["quarry"], items["standard"]) == (["net"], ["trap"],
                                                                        ["standard"])
    assert view["active"] == "E" and view["phase"] == "horde"
    assert view["reserve"]["life"] == 15 - 12, "the tokens come out of the limited reserve"
    assert view["deck"] == {"remaining": 51, "size": 51, "warlords_remaining": 1,
                            "warlords_in_deck": 1, "next_warlord_in": 43, "seen": []}


def test_novice_gives_a_black_equipment(session):
    """«Chaque joueur commence avec un jeton Équipement noir, en plus du jeton Équipement de sa
    couleur.»"""
    session.submit(setup_event([FOUR[0], FOUR[2]], mode="novice"))
    heroes = session.view()["heroes"]
    assert heroes["kazgin"]["equipment"] == {"red": 1, "green": 0, "blue": 0, "yellow": 0,
                                             "black": 1}


def test_boards_without_players_are_neutral(session):
    """«Dans une partie à moins de 4 joueurs, chaque plateau Horde qui n'est associé à aucun joueur
    est un plateau neutre.» Turns go clockwise: N, E, S, W."""
    session.submit(setup_event([("A", "kazgin", "N"), ("C", "teagaan", "S")]))
    assert session.view()["active"] == "N"
    session.submit({"type": "teach", "kind": "card", "id": "x", "definition": {
        "name": "X", "type": "monster", "colour": "red", "resistance": 1}})
    session.submit({"type": "card", "id": "x", "slot": "red.0"})
    session.submit({"type": "end_turn"})
    view = session.view()
    assert view["active"] == "S", "East is neutral and passed without a draw"
    assert view["turn"] == 3
