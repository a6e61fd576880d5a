"""Bad input is refused with a RuleError naming the rule, and nothing changes (view and journal).

Rulebook passages cited per test (../shared/rules/runemasters.fr.txt).
"""

from __future__ import annotations

import pytest
from runemasters_helpers import card, dice, new_session, play, refused, setup_event


@pytest.fixture
def table(tmp_path):
    """Ismoros (blue, Elder), Kyreas (red), Kulak (green): a Warrior in contact on blue,
    Ismoros to act with blue, blue, green, white."""
    session = new_session(tmp_path)
    play(session, setup_event(("ismoros", "blue"), ("kyreas", "red"), ("kulak", "green")),
         card("warrior-blue"), card("sorcerer-red"), card("dragon-green"), card("all_is_calm"),
         card("werewolf-blue"), dice("blue", "blue", "green", "white"))
    yield session
    session.close()


def test_using_a_die_twice(table):
    """«Important : chaque dé ne peut être utilisé que pour une seule action.»"""
    table.submit({"type": "hit", "die": 0})
    refused(table, {"type": "hit", "die": 0}, "die.used")
    refused(table, {"type": "charge", "dice": [2, 2]}, "die.used")


def test_a_die_that_was_not_rolled(table):
    """Four dice are rolled («Au début de votre tour, lancez 4 dés»): there is no fifth."""
    error = refused(table, {"type": "hit", "die": 4}, "die.unknown")
    assert error.params["rolled"] == 4


def test_hitting_a_monster_that_is_not_first(table):
    """«Vous ne pouvez blesser que le premier monstre de votre chemin.»"""
    refused(table, {"type": "hit", "die": 0, "space": 3}, "hit.not_first")


def test_hitting_with_a_rune_the_monster_does_not_show(table):
    """«Les points faibles de chaque monstre sont indiqués par des runes sur leur carte.»"""
    error = refused(table, {"type": "hit", "die": 2}, "hit.no_weak_point")
    assert error.params["open"] == ["blue", "violet"]


def test_hitting_with_the_white_rune(table):
    """The white rune «Utilisez la Marque du gardien»: it touches no weak point."""
    refused(table, {"type": "hit", "die": 3}, "hit.not_a_weak_point_rune")


def test_wounding_a_warrior_with_a_rerolled_die(table):
    """«Guerrier : vous ne pouvez pas utiliser de dés relancés pour toucher ses points faibles.»"""
    play(table, {"type": "reroll", "dice": [2]}, dice("blue"))
    refused(table, {"type": "hit", "die": 2}, "hit.warrior_rerolled")
    table.submit({"type": "hit", "die": 0})


def test_blocking_with_two_different_runes(table):
    """«Utiliser deux runes identiques vous permet de bloquer votre chemin.»"""
    refused(table, {"type": "block", "dice": [0, 2]}, "block.not_a_pair")


def test_blocking_a_dragons_path(tmp_path):
    """«Il n'est pas possible de bloquer un chemin comportant un Dragon.»"""
    session = new_session(tmp_path)
    play(session, setup_event(("kulak", "green"), ("kyreas", "red"), ("ismoros", "blue")),
         card("warrior-blue"), card("sorcerer-red"), card("dragon-green"), card("all_is_calm"),
         card("werewolf-blue"), dice("red", "red", "green", "white"))
    refused(session, {"type": "block", "dice": [0, 1]}, "block.dragon")
    session.close()


def test_releasing_mana_on_a_sorcerer(tmp_path):
    """«Note : la libération de mana ne fonctionne pas sur les Sorciers.»"""
    session = new_session(tmp_path)
    play(session, setup_event(("kyreas", "red"), ("ismoros", "blue"), ("kulak", "green")),
         card("sorcerer-red"), card("warrior-blue"), card("dragon-green"), card("all_is_calm"),
         card("werewolf-blue"), dice("red", "red", "green", "white"))
    refused(session, {"type": "release"}, "release.sorcerer")
    session.close()


def test_releasing_with_less_than_4_mana(table):
    """«Si vous avez moins de 4 PM disponibles, vous ne pouvez pas utiliser la libération de
    mana.»"""
    play(table, {"type": "reroll", "dice": [2]}, dice("green"))
    error = refused(table, {"type": "release"}, "release.not_enough_mana")
    assert error.params == {"mana": 3, "cost": 4}


def test_rerolling_without_the_mana(table):
    """«en dépensant 1 point de Mana (PM) par dé relancé»: 3 spent, 1 left, 2 dice cost 2."""
    play(table, {"type": "reroll", "dice": [0, 1, 2]}, dice("red", "red", "red"))
    refused(table, {"type": "reroll", "dice": [3, 0]}, "reroll.not_enough_mana")


def test_moving_with_the_wrong_rune(table):
    """«vous devez utiliser la rune correspondant au chemin où vous souhaitez vous déplacer»."""
    refused(table, {"type": "move", "die": 2, "to": "red"}, "move.wrong_rune")
    refused(table, {"type": "move", "to": "red"}, "move.needs_die")


def test_moving_to_the_unused_yellow_path(table):
    """With 3 guardians «le chemin jaune n'est pas utilisé»."""
    play(table, {"type": "reroll", "dice": [2]}, dice("violet"))
    refused(table, {"type": "move", "die": 2, "to": "yellow"}, "path.not_in_play")


def test_mark_without_a_white_rune(table):
    """«La Rune [blanche] vous permet d'utiliser votre Marque du gardien.»"""
    refused(table, {"type": "mark", "die": 0, "target": "kulak"}, "mark.not_white")


def test_ultimate_not_charged(table):
    """«Si votre jeton de Pouvoir ultime atteint la case 4 de sa piste, vous pouvez déclencher
    votre Pouvoir ultime.»"""
    refused(table, {"type": "ultimate"}, "ultimate.not_charged")


def test_charging_past_space_4(table):
    """The track ends on space 4 («Si votre marqueur atteint la case 4, votre Pouvoir ultime est
    chargé»): the token starts on 1, so four dice are one too many."""
    refused(table, {"type": "charge", "dice": [0, 1, 2, 3]}, "ultimate.overcharged")


def test_wrong_number_of_dice(tmp_path):
    """«Au début de votre tour, lancez 4 dés.»"""
    session = new_session(tmp_path)
    play(session, setup_event(("kyreas", "red"), ("ismoros", "blue")),
         card("archer-blue"), card("werewolf-red"), card("troll-yellow"), card("all_is_calm"),
         card("shadow-green"))
    refused(session, dice("red", "blue", "green"), "dice.count")
    session.close()


def test_an_action_before_the_roll(tmp_path):
    """The phases come in order: «1. Apparition d'un monstre 2. Actions du gardien»."""
    session = new_session(tmp_path)
    play(session, setup_event(("kyreas", "red"), ("ismoros", "blue")),
         card("archer-blue"), card("werewolf-red"), card("troll-yellow"), card("all_is_calm"))
    error = refused(session, {"type": "hit", "die": 0}, "event.not_expected")
    assert error.params["expected"] == ["card"]
    session.close()


def test_life_instead_of_mana_without_mana_healing(table):
    """«Soin de mana : vous pouvez choisir de gagner des points de vie à la place des points de
    mana» — only under that Event."""
    refused(table, {"type": "hit", "die": 0, "as_life": True}, "reward.no_mana_healing")
