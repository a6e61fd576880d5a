"""The worked examples of the Runemasters rulebook, through the session or on a built position.

Every test cites the passage of ../shared/rules/runemasters.fr.txt it encodes. Rune icons are
missing from the text; the tests use the colours the examples imply.
"""

from __future__ import annotations

import pytest
from runemasters_helpers import (
    END,
    apply,
    card,
    dice,
    play,
    position,
    refused,
    row,
    said,
    setup_event,
)

from companion.engine import RuleError
from companion.games.runemasters import GAME


def test_green_troll_cannot_enter(session):
    """«Exemple : les cases 3, 4 et 5 étant déjà occupées, le Troll vert ne peut pas être mis en
    jeu. La carte est défaussée et le gardien du chemin vert subit une blessure.»"""
    play(session, setup_event(("kyreas", "red"), ("ismoros", "blue"), ("kulak", "green"),
                              ("neltai", "yellow")),
         card("werewolf-green"), card("shadow-green"), card("archer-green"), card("all_is_calm"),
         card("warrior-green"), dice("red", "red", "blue", "white"), END,   # Kyreas: green 4
         card("sorcerer-green"), dice("red", "red", "blue", "white"), END)  # Ismoros: green 5
    assert row(session.state, "green") == ["werewolf-green", "shadow-green", "archer-green",
                                           "warrior-green", "sorcerer-green"]
    life = session.view()["guardians"]["kulak"]["life"]
    step = session.submit(card("troll-green"))
    assert said(step, "monster.cannot_enter") == [{"card": "troll-green", "path": "green"}]
    view = session.view()
    assert view["guardians"]["kulak"]["life"] == life - 1
    assert view["deck"]["discard"] == ["troll-green"]
    assert "troll-green" not in str(view["paths"])


def test_shadow_enters_on_space_2_else_3(session):
    """«Ombre : elle arrive en jeu directement sur la case 2 de son chemin. Si cette case est
    occupée, placez-la sur la case 3 (en suivant les règles habituelles).»"""
    play(session, setup_event(("kulak", "blue"), ("kyreas", "red")),
         card("archer-green"), card("werewolf-red"), card("troll-yellow"), card("all_is_calm"))
    session.submit(card("shadow-blue"))
    assert row(session.state, "blue") == [None, "shadow-blue", None, None, None]
    play(session, dice("red", "green", "blue", "white"), END,
         card("shadow-red"))
    assert row(session.state, "red")[:3] == ["werewolf-red", "shadow-red", None]


def test_kulak_and_kyreas_kill_the_troll(session):
    """«Exemple : contre le Troll marqué des runes [...], Kulak obtient les runes et lui inflige
    2 blessures. Au tour d'après, Kyreas échange de place avec Kulak puis utilise une rune [...],
    lui inflige la dernière blessure nécessaire et le tue.» and «le gardien qui a porté le dernier
    coup gagne immédiatement les récompenses». The Troll, wounded twice, «inflige 2 dégâts» to
    Kulak in between. (Test Troll: weak points blue, blue, violet.)"""
    play(session, setup_event(("kulak", "blue"), ("kyreas", "red")),
         card("troll-blue"), card("werewolf-yellow"), card("archer-green"),
         card("all_is_calm"), card("shadow-red"), dice("blue", "blue", "green", "white"),
         {"type": "hit", "die": 0}, {"type": "hit", "die": 1})
    troll = session.view()["paths"]["blue"]["spaces"][0]
    assert troll["open"] == ["violet"] and len(troll["wounds"]) == 2
    step = session.submit(END)
    assert said(step, "guardian.wounded")[:2] == [
        {"guardian": "kulak", "source": "troll-blue", "life": 3},
        {"guardian": "kulak", "source": "troll-blue", "life": 2}]
    play(session, card("werewolf-red"), dice("blue", "violet", "green", "green"))
    session.submit({"type": "move", "die": 0, "to": "blue"})
    view = session.view()
    assert view["guardians"]["kyreas"]["path"] == "blue"
    assert view["guardians"]["kulak"]["path"] == "red"
    step = session.submit({"type": "hit", "die": 1})
    assert said(step, "monster.killed") == [{"card": "troll-blue", "guardian": "kyreas"}]
    view = session.view()
    assert view["paths"]["blue"]["spaces"][0] is None
    assert "troll-blue" in view["deck"]["discard"]
    assert view["guardians"]["kyreas"]["mana"] == 4, "rewards are capped at 4"


def test_ismoros_pair_serves_one_action(session):
    """«Exemple : Ismoros obtient [deux runes identiques]. Elle peut soit utiliser les deux runes
    pour bloquer le chemin A, soit utiliser une rune pour blesser le Guerrier B. Mais elle ne
    peut pas utiliser le même dé pour deux actions différentes.»"""
    play(session, setup_event(("ismoros", "blue"), ("kyreas", "red"), ("kulak", "green")),
         card("warrior-blue"), card("werewolf-red"), card("archer-green"), card("all_is_calm"),
         card("shadow-green"), dice("blue", "blue", "green", "red"))
    session.submit({"type": "block", "dice": [0, 1]})
    assert session.view()["paths"]["blue"]["blocked"]
    error = refused(session, {"type": "hit", "die": 0}, "die.used")
    assert error.params == {"die": 0, "face": "blue"}


def test_ismoros_pair_the_other_way(session):
    """The same roll, the other choice: the Warrior is wounded, the pair is gone."""
    play(session, setup_event(("ismoros", "blue"), ("kyreas", "red"), ("kulak", "green")),
         card("warrior-blue"), card("werewolf-red"), card("archer-green"), card("all_is_calm"),
         card("shadow-green"), dice("blue", "blue", "green", "red"),
         {"type": "hit", "die": 1})
    assert session.view()["paths"]["blue"]["spaces"][0]["wounds"] == [0]
    refused(session, {"type": "block", "dice": [0, 1]}, "die.used")


def test_the_march_example():
    """«Exemple : sur le chemin bleu, l'Ombre en case 1 engage le combat et inflige une blessure
    à Kulak. L'Archer en case 2 ne peut ni avancer ni tirer puisque la case devant lui n'est pas
    libre. Sur le chemin vert, sans gardien, le Troll en case 1 frappe le temple (qui perd 1 PV)
    et le Guerrier en case 3 avance sur la case 2.» Green is left unguarded by a dead Neltaï."""
    state = position(("kulak", "blue"), ("kyreas", "red"), ("ismoros", "yellow"),
                     ("neltai", "green"),
                     monsters={"blue": {1: "shadow-blue", 2: "archer-blue"},
                               "green": {1: "troll-green", 3: "warrior-green"}})
    state["guardians"]["neltai"].update(alive=False, path=None, life=0)
    step = apply(state, "end_turn")
    after = step.state
    assert after["guardians"]["kulak"]["life"] == 3
    assert row(after, "blue") == ["shadow-blue", "archer-blue", None, None, None]
    assert not said(step, "march.arrow")
    assert after["temple"]["life"] == 3
    assert row(after, "green") == ["troll-green", "warrior-green", None, None, None]
    assert {"path": "green"} in [m.params for m in step.announcements
                                 if m.key == "warning.unguarded"]


def test_the_march_order_shadow_archer_troll():
    """«Sur chaque chemin, déplacez en premier le monstre le plus proche du gardien puis les
    autres dans l'ordre. Exemple : à la fin du tour, l'Ombre avance en premier, suivie de
    l'Archer puis du Troll.» The Archer has the Shadow in front of it: no arrow."""
    state = position(("kulak", "blue"), ("kyreas", "red"),
                     monsters={"blue": {2: "shadow-blue", 3: "archer-blue", 4: "troll-blue"}})
    step = apply(state, "end_turn")
    moves = said(step, "march.advances")
    assert [m["card"] for m in moves] == ["shadow-blue", "archer-blue", "troll-blue"]
    assert row(step.state, "blue") == ["shadow-blue", "archer-blue", "troll-blue", None, None]
    assert not said(step, "march.arrow")
    assert step.state["guardians"]["kulak"]["life"] == 4


def test_archer_shoots_with_no_monster_in_front():
    """«Archer : lorsqu'il se déplace, s'il n'y a pas de monstre devant lui, il inflige 1 dégât
    au gardien de son chemin (ou au temple s'il n'y a pas de gardien).»"""
    state = position(("kulak", "blue"), ("kyreas", "red"),
                     monsters={"blue": {3: "archer-blue"}, "green": {4: "archer-green"}})
    step = apply(state, "end_turn")
    assert step.state["guardians"]["kulak"]["life"] == 3
    assert step.state["temple"]["life"] == 5
    assert [m["card"] for m in said(step, "march.arrow")] == ["archer-blue", "archer-green"]


def test_blocked_path_and_pavise():
    """«Notes : s'il y a un Archer sur le chemin, il ne peut pas tirer.» «Si le chemin est
    bloqué, retirez le marqueur Blocage et ne déplacez pas les monstres sur ce chemin.»
    «Pavois : ignorez les attaques à distance des Archers.»"""
    state = position(("kulak", "blue"), ("kyreas", "red"), event="pavise",
                     monsters={"blue": {3: "archer-blue"}, "red": {1: "shadow-red"},
                               "green": {2: "archer-green"}})
    state["paths"]["red"]["blocked"] = True
    step = apply(state, "end_turn")
    after = step.state
    assert row(after, "blue")[1] == "archer-blue" and after["guardians"]["kulak"]["life"] == 4
    assert row(after, "red")[0] == "shadow-red" and after["guardians"]["kyreas"]["life"] == 4
    assert not after["paths"]["red"]["blocked"]
    assert after["temple"]["life"] == 6
    assert len(said(step, "march.arrow_stopped")) == 2


def test_dragon_release_spares_the_troll_behind(session):
    """«Exemple : Ismoros peut utiliser 4 PM pour libérer tout son mana sur le Dragon rouge car
    il est au contact. Elle ne peut pas l'utiliser sur le Troll qui est derrière.» and «Quand un
    Dragon est tué, le gardien victorieux gagne un point de vie et un point de mana.»"""
    play(session, setup_event(("ismoros", "red"), ("kyreas", "blue"), ("kulak", "green")),
         card("dragon-red"), card("troll-red"), card("archer-green"), card("all_is_calm"),
         card("werewolf-blue"), dice("green", "green", "blue", "white"))
    state = session.state
    assert row(state, "red")[:2] == ["dragon-red", "troll-red"]
    step = session.submit({"type": "release"})
    assert said(step, "monster.killed") == [{"card": "dragon-red", "guardian": "ismoros"}]
    view = session.view()
    assert view["guardians"]["ismoros"]["mana"] == 1
    assert view["guardians"]["ismoros"]["life"] == 4
    assert row(session.state, "red")[:2] == [None, "troll-red"]
    refused(session, {"type": "release"}, "release.not_enough_mana")


def test_release_reaches_only_space_1():
    """The Troll behind is not «au contact»: with the Dragon gone and 4 Mana, still no release."""
    state = position(("ismoros", "red"), ("kyreas", "blue"), monsters={"red": {2: "troll-red"}})
    with pytest.raises(RuleError) as error:
        apply(state, "release")
    assert error.value.key == "release.no_contact"


def test_dragon_heals_at_the_end_of_the_turn():
    """«Dragon : pour tuer un Dragon, vous devez lui infliger seul 3 blessures dans le même
    tour. [...] À la fin du tour, les blessures d'un Dragon sont automatiquement soignées.»"""
    state = position(("kyreas", "red"), ("kulak", "blue"), monsters={"red": {2: "dragon-red"}},
                     faces=("red", "red", "green", "blue"))
    state = apply(state, "hit", die=0).state
    state = apply(state, "hit", die=1).state
    assert len(state["paths"]["red"]["spaces"][1]["wounds"]) == 2
    step = apply(state, "end_turn")
    assert step.state["paths"]["red"]["spaces"][0]["wounds"] == []
    assert said(step, "dragon.heals") == [{"card": "dragon-red", "path": "red"}]


def test_three_identical_runes_kill_a_dragon():
    """«Plusieurs moyens sont à votre disposition : soit obtenir 3 runes identiques [...]»"""
    state = position(("kyreas", "red"), ("kulak", "blue"), monsters={"red": {1: "dragon-red"}},
                     faces=("red", "red", "red", "blue"))
    state["guardians"]["kyreas"].update(life=2, mana=1)
    for die in range(3):
        state = apply(state, "hit", die=die).state
    assert state["paths"]["red"]["spaces"][0] is None
    assert (state["guardians"]["kyreas"]["life"], state["guardians"]["kyreas"]["mana"]) == (3, 2)


def test_kyreas_moves_to_green_and_swaps_with_ismoros(session):
    """«Exemple : en utilisant la rune [violette], Kyreas se déplace sur le chemin vert et
    échange sa place avec Ismoros.»"""
    play(session, setup_event(("kyreas", "red"), ("ismoros", "green")),
         card("archer-blue"), card("werewolf-red"), card("troll-yellow"), card("all_is_calm"),
         card("shadow-green"), dice("violet", "red", "green", "white"),
         {"type": "move", "die": 0, "to": "green"})
    guardians = session.view()["guardians"]
    assert (guardians["kyreas"]["path"], guardians["ismoros"]["path"]) == ("green", "red")


def test_kyreas_charges_his_ultimate_by_two(session):
    """«Exemple : en défaussant les runes [...], Kyreas charge son Pouvoir ultime de 2 cases.»"""
    play(session, setup_event(("kyreas", "red"), ("ismoros", "green")),
         card("archer-blue"), card("werewolf-red"), card("troll-yellow"), card("all_is_calm"),
         card("shadow-green"), dice("violet", "red", "green", "white"),
         {"type": "charge", "dice": [1, 2]})
    assert session.view()["guardians"]["kyreas"]["ultimate"]["track"] == 3


def test_kyreas_rerolls_for_one_mana(session):
    """«Exemple : en défaussant un jeton Mana, Kyreas relance le dé avec la rune [...] et obtient
    la rune [...].»"""
    play(session, setup_event(("kyreas", "red"), ("ismoros", "green")),
         card("archer-blue"), card("werewolf-red"), card("troll-yellow"), card("all_is_calm"),
         card("shadow-green"), dice("violet", "blue", "green", "white"),
         {"type": "reroll", "dice": [1]})
    expects = session.expects()
    assert (expects.kind, expects.count, expects.profile) == ("dice", 1, "runemasters/rune")
    session.submit(dice("red"))
    view = session.view()
    assert view["guardians"]["kyreas"]["mana"] == 3
    assert view["dice"][1] == {"index": 1, "face": "red", "used": False, "rerolled": True}


def test_kulak_blocks_her_path(session):
    """«Exemple : Kulak utilise les deux runes pour bloquer son chemin et ainsi empêcher l'avancée
    des monstres. Il place un jeton Blocage sur son chemin.»"""
    play(session, setup_event(("kulak", "blue"), ("kyreas", "red")),
         card("archer-yellow"), card("werewolf-red"), card("troll-green"), card("all_is_calm"),
         card("shadow-blue"), dice("green", "green", "blue", "white"),
         {"type": "block", "dice": [0, 1]})
    step = session.submit(END)
    assert said(step, "march.blocked") == [{"path": "blue"}]
    assert row(session.state, "blue")[1] == "shadow-blue"
    assert not session.view()["paths"]["blue"]["blocked"]


def test_kulak_cannot_reach_the_warrior_behind_the_archer():
    """«Exemple : avec son lancer de dés, Kulak peut blesser l'Archer qui est au contact [...].
    Mais tant que l'Archer est vivant, elle ne peut pas atteindre le Guerrier situé derrière.»"""
    state = position(("kulak", "blue"), ("kyreas", "red"), ("ismoros", "green"),
                     monsters={"blue": {1: "archer-blue", 2: "warrior-blue"}},
                     faces=("blue", "violet", "blue", "white"))
    with pytest.raises(RuleError) as error:
        apply(state, "hit", die=0, space=2)
    assert error.value.key == "hit.not_first" and error.value.params["first"] == 1
    state = apply(state, "hit", die=0, space=1).state
    state = apply(state, "hit", die=1).state
    assert row(state, "blue")[:2] == [None, "warrior-blue"]
    state = apply(state, "hit", die=2, space=2).state
    assert state["paths"]["blue"]["spaces"][1]["wounds"] == [0]


def test_ismoros_petrification():
    """«Exemple : Ismoros a son jeton sur la case 4 de sa piste. Elle déclenche sa Pétrification
    et replace le jeton sur la case 0 de la piste, retourné côté 2 visible.» and «Pétrification :
    ignorez la prochaine phase de Déplacement des monstres pour l'ensemble des chemins. Retirez
    tous les marqueurs Blocage»."""
    state = position(("ismoros", "red"), ("kulak", "blue"),
                     monsters={"red": {1: "shadow-red"}, "green": {3: "archer-green"}})
    state["guardians"]["ismoros"]["ultimate"]["track"] = 4
    state["paths"]["blue"]["blocked"] = True
    state = apply(state, "ultimate").state
    assert state["guardians"]["ismoros"]["ultimate"] == {"track": 0, "uses": 1}
    assert not state["paths"]["blue"]["blocked"]
    assert GAME.view(state)["guardians"]["ismoros"]["ultimate"]["side"] == 2
    step = apply(state, "end_turn")
    assert row(step.state, "green")[2] == "archer-green"
    assert step.state["guardians"]["ismoros"]["life"] == 4
    assert said(step, "march.petrified") == [{}]
