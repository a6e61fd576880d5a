"""Bad input is refused with a RuleError naming what was wrong, and changes nothing.

Rulebook passages of ../shared/rules/last-heroes.fr.txt cited per test; the journal length and
the view are compared before and after (``refused``).
"""

from __future__ import annotations

import copy

import pytest
from lastheroes_helpers import (
    END,
    ammo,
    idle,
    kill,
    load,
    open_session,
    play,
    refused,
    setup_event,
    turn,
)

from companion.engine import Event, RuleError
from companion.games.last_heroes import GAME
from companion.i18n import render_error


def test_loading_a_weapon_in_two_goes(table):
    """«Une Arme doit être chargée en une seule fois. S'il n'y a pas assez de Munitions [...] vous
    ne pouvez pas jouer cette carte en tant qu'Arme chargée.»"""
    table.submit({"type": "teach", "kind": "weapon", "id": "flamethrower-6",
                  "definition": {"cost": 2}})
    error = refused(table, load("flamethrower-6", "blind.left"), "load.one_go")
    assert error.params == {"card": "flamethrower-6", "cost": 2, "given": 1}
    refused(table, load("flamethrower-6", "blind.left", "blind.right", jokers=1), "load.too_much")


def test_two_ammo_from_one_charger_card(table):
    """«Vous ne pouvez sélectionner qu'une seule Munition par carte (même si plusieurs sont
    disponibles dessus).»"""
    table.submit({"type": "teach", "kind": "weapon", "id": "flamethrower-6",
                  "definition": {"cost": 2}})
    error = refused(table, load("flamethrower-6", "blind.left", "blind.left"),
                    "load.one_per_card")
    assert error.params["slot"] == "blind.left"


def test_ammo_of_the_wrong_type(table):
    """«Le type de Munitions doit correspondre à l'Arme que vous voulez charger.»"""
    error = refused(table, load("pistol-6", "blind.left"), "load.wrong_type")
    assert error.params == {"slot": "blind.left", "supplied": "flamethrower", "needed": "pistol"}


def test_ammo_already_used(table):
    """«Chaque fois qu'une Munition est utilisée, abaissez le Revolver pour cacher cette
    Munition»: a card with no ammo up supplies nothing."""
    turn(table, load("flamethrower-6", "blind.left"))
    play(table, *idle("echo", 3), *idle("ace", 3), load("flamethrower-7", "blind.left"), END,
         *idle("echo", 4), *idle("ace", 4))
    refused(table, load("flamethrower-8", "blind.left"), "load.no_ammo")


def test_jokers_one_does_not_have(table):
    """«Vous pouvez éventuellement utiliser une ou plusieurs Munitions Joker dont vous disposez»."""
    refused(table, load("flamethrower-6", jokers=1), "load.jokers_short")


def test_a_fourth_joker(table):
    """«La Roue des Jokers indique vos Munitions Joker disponibles (max. 3).» A card into the
    charger leaves a full wheel at 3 (the Joker power on a full wheel: test_lh_powers.py)."""
    for n in (3, 4, 5):
        play(table, ammo(f"flamethrower-{n}", "left"), END, *idle("echo", n), *idle("ace", n))
    state = copy.deepcopy(table.state)
    step = GAME.apply(state, Event("play", {"card": "flamethrower-6", "as": "ammo",
                                            "slot": "left"}))
    assert step.state["players"]["blind"]["jokers"] == 3
    assert "joker.wheel_full" in [m.key for m in step.announcements]


def test_killing_two_monsters_without_adrenaline(table):
    """«vous pouvez tuer un Monstre et un seul.»"""
    table.submit({"type": "teach", "kind": "weapon", "id": "flamethrower-3",
                  "definition": {"cost": 0}})
    play(table, load("flamethrower-3"), END, *idle("echo", 3), *idle("ace", 3),
         load("flamethrower-4", "blind.left"), kill("rat", "flamethrower-4"))
    error = refused(table, kill("bat", "flamethrower-3"), "kill.one_per_turn")
    assert error.params == {"hero": "blind", "kills": 1}


def test_using_a_breach_that_has_closed(table):
    """«Une Brèche reste ouverte pendant un tour de jeu complet, et se termine à la fin du tour du
    joueur l'ayant ouverte»: the Spider needs its two impacts again."""
    turn(table, load("flamethrower-3", "blind.left"), kill("rat", "flamethrower-3"))
    play(table, *idle("echo", 3), *idle("ace", 3))
    turn(table, load("flamethrower-6", "blind.right"))
    table.submit({"type": "reveal", "card": "mole", "define": {"light": [1]}})
    play(table, load("crossbow-6", "echo.left"))
    error = refused(table, kill("spider", "crossbow-6"), "kill.no_breach")
    assert error.params["needed"] == 2


def test_killing_with_a_weapon_not_loaded(table):
    """«vous devez disposer, devant vous, d'une Arme chargée pour chaque Impact»."""
    table.submit(ammo("flamethrower-3", "left"))
    error = refused(table, kill("rat", "flamethrower-6"), "kill.not_loaded")
    assert error.params["loaded"] == []


def test_killing_before_playing_a_card(table):
    """«Après avoir joué une carte (comme Munition ou comme Arme chargée), vous pouvez tuer un
    Monstre»: the card comes first, and the turn cannot end without it («(Obligatoire)»)."""
    error = refused(table, kill("rat", "flamethrower-6"), "event.not_expected")
    assert error.params["expected"] == ["play", "power"]  # teach and adjust: any time, never listed
    refused(table, END, "event.not_expected")


def test_a_card_already_on_the_table(table):
    """A card in a charger is not in anybody's hand (the two cards inserted at setup)."""
    error = refused(table, ammo("crossbow-1", "left"), "card.elsewhere")
    assert error.params["where"] == {"key": "where.charger",
                                     "params": {"hero": "echo", "side": "left"}}
    # issue 39: the place read "charger:echo.left"; it reads as the table says it
    said = {lang: render_error(error, lang, GAME, table.state) for lang in ("en", "fr")}
    assert said == {
        "en": "Crossbow HIT! is not in this hand: it is in the charger of Ben (left).",
        "fr": "Arbalète HIT! n'est pas dans cette main : elle est dans le Chargeur de Ben "
              "(gauche)."}


def test_a_weapon_type_not_in_play(table):
    """«À 3 joueurs, ne conservez que 3 types d'arme»."""
    error = refused(table, ammo("rifle-3", "left"), "card.type_not_in_play")
    assert error.params["in_play"] == ["flamethrower", "crossbow", "pistol"]


def test_swapping_without_a_level_1_kill(table):
    """«Lorsque vous tuez un Monstre de niveau 1... Échangez une carte de votre main avec
    n'importe quelle carte présente dans un Chargeur»: only then."""
    table.submit(ammo("flamethrower-3", "left"))
    refused(table, {"type": "swap", "card": "flamethrower-6", "slot": "echo.left"},
            "swap.not_earned")


def test_a_power_not_held(table):
    """«Chaque Artefact confère un Pouvoir spécial au joueur qui l'a récupéré.»"""
    refused(table, {"type": "power", "power": "reload", "slot": "left"}, "power.not_held")


def test_setup_with_the_wrong_number_of_weapon_types(tmp_path):
    """«Triez les cartes Arme par type d'arme puis gardez autant de paquets que de joueurs.»"""
    session = open_session(tmp_path)
    with pytest.raises(RuleError) as error:
        session.submit(setup_event(weapons=["flamethrower", "crossbow", "pistol", "rifle"]))
    assert error.value.key == "setup.weapons" and error.value.params["expected"] == 3
    assert session.state is None
    session.close()


def test_setup_with_a_first_player_not_at_the_table(tmp_path):
    """«Le premier joueur est choisi au hasard» among the players."""
    session = open_session(tmp_path)
    with pytest.raises(RuleError) as error:
        session.submit(setup_event(first="tank"))
    assert error.value.key == "setup.first_not_playing"
    session.close()
