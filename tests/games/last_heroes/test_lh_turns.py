"""A turn of Last Heroes: the card played, ammo and Charisma, breaches, the end of the turn.

Rulebook passages of ../shared/rules/last-heroes.fr.txt cited per test.
"""

from __future__ import annotations

from lastheroes_helpers import (
    END,
    act,
    ammo,
    idle,
    kill,
    level,
    load,
    play,
    player,
    setup_event,
    turn,
)

from companion.engine import Event
from companion.games.last_heroes import GAME
from companion.i18n import render


def test_a_card_into_the_charger_replaces_one_and_gives_a_joker(table):
    """«Défaussez la carte présente dans l'un des 2 emplacements [...] Ces Munitions sont
    perdues.» «Enfin, gagnez immédiatement une Munition Joker»; the wheel stops at 3 («max. 3»)."""
    step = table.submit(ammo("crossbow-6", "left"))
    ana = player(table, "blind")
    assert ana["charger"]["left"] == {"card": "crossbow-6", "type": "crossbow", "ammo": 2,
                                      "printed": 2}
    assert ana["jokers"] == 1 and ana["hand"] == 9
    assert table.view()["discard"] == ["flamethrower-1"]
    assert [m.key for m in step.announcements] == ["charger.replaced", "joker.gained"]
    # issue 39: a card put into an empty slot said "(replacing —)"
    assert render(step.announcements[0], "en", GAME, table.state) == (
        "Crossbow BAM! goes into the charger of Ana with 2 ammo up, replacing Flamethrower HIT!.")
    opening = GAME.setup({k: v for k, v in setup_event().items()
                          if k not in ("type", "game")}).state
    said = act(opening, "charger", hero="blind", card="flamethrower-1").announcements[0]
    assert render(said, "fr", GAME, opening) == (
        "Lance-flammes HIT! entre dans le Chargeur d'Ana avec 2 Munitions.")
    for n in (3, 4, 5):
        play(table, END, *idle("echo", n), *idle("ace", n), ammo(f"flamethrower-{n}", "right"))
    assert player(table, "blind")["jokers"] == 3
    assert table.history()[-1].label["key"] == "history.play"


def test_loading_pays_the_suppliers_in_charisma(table):
    """«Chaque adversaire dont vous utilisez les Munitions marque 1 point par Munition fournie
    sur sa Roue de Charisme.» «Vous ne marquez pas de point si vous avez utilisé des Munitions de
    votre propre Chargeur.» «abaissez le Revolver pour cacher cette Munition»."""
    play(table, ammo("pistol-3", "right"), END, *idle("echo", 3), *idle("ace", 4))
    table.submit({"type": "teach", "kind": "weapon", "id": "pistol-6",
                  "definition": {"cost": 3}})
    step = table.submit(load("pistol-6", "ace.left", "ace.right", "blind.right"))
    assert player(table, "blind")["loaded"] == [{"card": "pistol-6", "type": "pistol",
                                                 "impact": 2}]
    assert player(table, "ace")["charisma"] == 2 and player(table, "blind")["charisma"] == 0
    assert player(table, "ace")["charger"]["left"]["ammo"] == 1
    assert player(table, "blind")["charger"]["right"]["ammo"] == 1
    assert step.announcements[-1].params["charisma"] == {"ace": 2}


def test_a_weapon_loaded_with_jokers_only(table):
    """«Une Arme peut n'être chargée qu'avec des Munitions Joker.» «Chaque fois que vous utilisez
    une Munition Joker, tournez la Roue des Jokers pour diminuer sa valeur de 1.»"""
    play(table, ammo("flamethrower-3", "left"), END, *idle("echo", 3), *idle("ace", 3))
    table.submit(load("crossbow-6", jokers=1))
    assert player(table, "blind")["jokers"] == 0
    assert [w["card"] for w in player(table, "blind")["loaded"]] == ["crossbow-6"]


def test_an_empty_charger_card_costs_a_point_at_the_end_of_the_turn(table):
    """«Si plus aucune Munition n'apparaît sur une ou les deux cartes de votre Chargeur à la fin
    de votre tour, perdez 1 point par carte vide sur votre Roue de Charisme.»"""
    turn(table, load("flamethrower-6", "blind.left"))
    assert player(table, "blind")["charisma"] == 0
    play(table, *idle("echo", 3), *idle("ace", 3))
    step = turn(table, load("flamethrower-7", "blind.left"))
    assert "charger.click" in [m.key for m in step.announcements]
    assert player(table, "blind")["charisma"] == -1
    play(table, *idle("echo", 4), *idle("ace", 4), *idle("blind", 3))
    assert player(table, "blind")["charisma"] == -2, "the empty card costs a point each turn"


def test_a_breach_lasts_until_the_end_of_its_openers_next_turn(table):
    """«Une Brèche reste ouverte pendant un tour de jeu complet, et se termine à la fin du tour du
    joueur l'ayant ouverte» and «Reprenez votre pion Héros si vous n'avez pas tué de Monstre ce
    tour-ci.»"""
    turn(table, load("flamethrower-3", "blind.left"), kill("rat", "flamethrower-3"))
    assert level(table, 1, 2)["pawn"] == "blind"
    play(table, *idle("echo", 3), *idle("ace", 3))
    assert level(table, 1, 2)["breach"], "open through the other heroes' turns"
    step = turn(table, ammo("flamethrower-4", "right"))
    assert "breach.closed" in [m.key for m in step.announcements]
    assert player(table, "blind")["pawn"] is None
    assert not level(table, 1, 2)["breach"]


def test_columns_held_by_a_pawn_are_not_refilled(table):
    """«Pour chaque colonne de Monstres, vérifiez tout d'abord si un pion Héros est présent. Si
    oui, ignorez la colonne et passez à la suivante. Sinon, comblez les vides»."""
    turn(table, load("flamethrower-3", "blind.left"), kill("rat", "flamethrower-3"))
    assert table.expects().kind == "action", "column 1 is held: nothing to reveal"
    assert level(table, 1, 1)["monster"] is None
    play(table, *idle("echo", 3), *idle("ace", 3), ammo("flamethrower-4", "right"))
    table.submit(END)
    assert table.expects().kind == "card" and table.expects().options == [[1, 1]]
    table.submit({"type": "reveal", "card": "mole", "define": {"light": [1], "points": 1}})
    assert level(table, 1, 1)["monster"] == "mole"
    assert table.view()["piles"]["1"] == 11
    assert table.view()["active"] == "echo"


def test_an_empty_pile_leaves_a_permanent_breach(table):
    """«S'il n'y a plus de cartes Monstre dans un paquet, la Brèche à ce niveau reste permanente
    jusqu'à la fin de la partie. Pour attaquer les Monstres depuis cette Brèche, seuls les Impacts
    sur fond clair sont requis.» The level-1 pile is emptied by hand, as after many kills."""
    turn(table, load("flamethrower-3", "blind.left"), kill("rat", "flamethrower-3"))
    play(table, *idle("echo", 3), *idle("ace", 3), ammo("flamethrower-4", "right"))
    state = table.state
    state = {**state, "piles": {**state["piles"], "1": 0}}
    step = GAME.apply(state, Event("end_turn"))
    assert "breach.permanent" in [m.key for m in step.announcements]
    view = GAME.view(step.state)
    assert view["active"] == "echo", "nothing to reveal: the void stays"
    spider = view["battlefield"][0]["levels"][1]
    assert spider["permanent_breach"] and spider["breach"] and spider["pawn"] is None
    state = act(step.state, "play", card="crossbow-6",
                **{"as": "weapon", "ammo": ["echo.left"]}).state
    state = act(state, "kill", monster="spider", weapons=["crossbow-6"]).state
    assert GAME.view(state)["players"][1]["monsters"] == [
        {"card": "spider", "name": {"fr": "Araignée", "en": "Spider", "es": "Araña"},
         "points": 3}]


def test_the_level_1_swap_with_ones_own_charger_gives_a_joker(table):
    """«Si vous effectuez l'échange avec une carte de votre Chargeur, gagnez immédiatement un
    Joker sur votre Roue des Jokers. Ajoutez la carte récupérée à votre main. Ajustez
    correctement le Revolver sur la carte échangée»."""
    play(table, load("flamethrower-3", "blind.left"), kill("rat", "flamethrower-3"))
    table.submit({"type": "swap", "card": "crossbow-6", "slot": "blind.left"})
    ana = player(table, "blind")
    assert ana["jokers"] == 1 and ana["charger"]["left"]["ammo"] == 2
    assert table.state["where"]["flamethrower-1"] == "hand:blind"
    table.submit(END)
    play(table, *idle("echo", 3), *idle("ace", 3))
    table.submit(ammo("flamethrower-1", "right"))
    assert player(table, "blind")["hand"] == 8
