"""Host corrections (``adjust``) of every count the table could get wrong: each value checked,
a refusal naming it and changing nothing, the correction undoable. Passages of
../shared/rules/attack-on-titan-last-stand.fr.txt cited where a rule bounds the value."""

from __future__ import annotations

import pytest
from aot_helpers import NEXT, PILE, commit, new_session, play, refused, rolls, setup_event, suffer

from companion.games.aot_last_stand import GAME
from companion.i18n import render


@pytest.fixture
def session(table):
    """The standard game, set up (the folder's ``table``)."""
    return table


def adjust(**fields):
    return {"type": "adjust", **fields}


def test_hearts_level_and_dice_of_a_hero(session):
    """A hero's dice: «Les joueurs Héros lancent une première fois tous leurs dés» (five each)."""
    play(session, commit(), *rolls(eren=["titan", "move", "move", "dodge", "combat"],
                                   mikasa=["combat"] * 5, armin=["cannon"] * 5))
    step = session.submit(adjust(hero="eren", hearts=2, level=4,
                                 dice=["move", "cannon", "cannon", "dodge"], note="misread"))
    hero = session.view()["heroes"]["eren"]
    assert (hero["hearts"], hero["level"]) == (2, 4)
    assert hero["dice"] == ["cannon", "cannon", "dodge", "move"]
    assert step.label.params == {"what": ["dice", "hearts", "level"], "note": "misread"}
    assert render(step.announcements[-1], "fr", GAME) == \
        "Correction : dice, hearts, level (misread)."
    # one of Eren's five dice is with the Titan: four at most in front of him
    error = refused(session, adjust(hero="eren", dice=["move"] * 5), "adjust.too_many_dice")
    assert error.params["most"] == 4
    refused(session, adjust(hero="mikasa", dice=["titan"]), "adjust.titan_face")
    refused(session, adjust(hearts=2), "event.missing_field")
    refused(session, adjust(hero="levi", hearts=2), "hero.unknown")
    refused(session, adjust(hero="eren"), "adjust.nothing")


def test_a_corrected_die_keeps_its_owner(session):
    """Eren's gifts: «il récupère ses dés à la fin du tour» — a gifted die keeps its owner."""
    play(session, commit(), *rolls(eren=["move"] * 5, mikasa=["combat"] * 5,
                                   armin=["cannon"] * 5),
         {"type": "give", "gifts": {"mikasa": "move"}})
    session.submit(adjust(hero="mikasa", dice=["move", "combat", "combat", "combat", "combat",
                                               "combat"]))
    held = session.state["heroes"]["mikasa"]["held"]
    assert sorted((d["face"], d["owner"]) for d in held)[-1] == ("move", "eren")


def test_health_citizens_and_cannons(session):
    """The marker stays on the track; 12 Citizens and 6 Cannons («12 jetons Citoyen», «6
    figurines de Canon»)."""
    session.submit(adjust(health=9, devoured=4, cannons=5))
    view = session.view()
    assert (view["health"]["marker"], view["health"]["zone"]) == (9, "weak")
    assert (view["citizens"]["left"], view["cannons"]["left"]) == (8, 5)
    error = refused(session, adjust(health=16), "adjust.above_max")
    assert error.params == {"field": "health", "value": 16, "max": 15}
    refused(session, adjust(devoured=13), "event.bad_field")
    refused(session, adjust(cannons=7), "event.bad_field")


def test_a_correction_reaching_a_limit_ends_the_game(session):
    """«Tous les canons détruits : Si les 6 canons sont retirés du jeu [...] le Titan
    l'emporte !»"""
    session.submit(adjust(cannons=0))
    assert (session.view()["status"], session.view()["reason"]) == ("lost", "cannons")
    session.submit({"type": "undo"})
    assert session.view()["status"] == "playing"


def test_the_titans_hand_and_set_aside_cards(session):
    """«Le joueur Titan écarte les deux cartes Actions utilisées durant le tour de jeu. Elles ne
    pourront pas être jouées au tour suivant.» Each of the seven cards is in one place."""
    hand = ["frenesie", "basic-3", "basic-4", "basic-5", "basic-6"]
    session.submit(adjust(hand=hand, set_aside=["pietinement", "basic-7"]))
    assert session.view()["titan"] == {**session.view()["titan"], "hand_size": 5,
                                       "set_aside": ["pietinement", "basic-7"]}
    refused(session, commit("pietinement", "frenesie"), "commit.played_last_round")
    error = refused(session, adjust(hand=[*hand, "basic-7"]), "adjust.titan_cards")
    assert error.params == {"twice": ["basic-7"], "foreign": [], "missing": []}
    error = refused(session, adjust(set_aside=["destroyer-1"]), "adjust.titan_cards")
    assert error.params == {"twice": [], "foreign": ["destroyer-1"],
                            "missing": ["basic-7", "pietinement"]}


def test_the_tactic_pile_order_and_top(session):
    """«Les joueurs ne peuvent ni choisir l'ordre d'apparition des cartes, ni le modifier» — only
    a host correction of a misplaced pile does."""
    order = list(reversed(PILE))
    session.submit(adjust(pile=order))
    assert session.state["tactics"]["pile"] == order
    session.submit(adjust(top="guerison"))
    assert session.state["tactics"]["pile"][:3] == ["guerison", "eradication", "decapitation"]
    refused(session, adjust(pile=order[:-1]), "adjust.pile_cards")
    refused(session, adjust(pile=[*order[:-1], "eradication"]), "adjust.pile_cards")
    refused(session, adjust(top="nope"), "tactic.not_in_pile")


def test_the_top_of_a_pile_not_seen_yet(tmp_path):
    """A pile named only on top: its unseen cards can be put in order, or one brought on top."""
    session = new_session(tmp_path)
    session.submit(setup_event(tactics=["sauvetage"]))
    session.submit(adjust(top="chute-raide"))
    assert session.view()["tactic"]["top"] == "chute-raide"
    assert session.state["tactics"]["pile"][1] == "sauvetage"
    session.close()


def test_the_step(session):
    """«Déroulement de la partie»: the Titan commits in step 1; its cards are in play until the
    clean-up (step 7)."""
    refused(session, adjust(step=3), "adjust.step_cards")
    play(session, commit(), *rolls(eren=["titan"] * 5, mikasa=["dodge"] * 2 + ["combat"] * 3,
                                   armin=["cannon"] * 5))  # Mikasa may dodge Piétinement
    session.submit(adjust(step=4))
    assert session.view()["step"] == 4
    refused(session, adjust(step=1), "adjust.step_cards")
    play(session, NEXT)
    suffer(session)
    assert session.view()["step"] == 6
    refused(session, adjust(step=5), "adjust.step_nothing_to_resolve")
    session.submit({"type": "undo"})
    session.submit(adjust(step=5))
    assert session.view()["step"] == 5


def test_no_step_change_while_a_choice_waits(session):
    """«Frénésie : Le joueur Titan peut sélectionner 1 carte Action de sa main»: the Titan's
    choice is answered first."""
    session.submit({"type": "teach", "kind": "action", "id": "basic-3", "definition": {
        "name": "X", "effects": [{"op": "frenzy"}], "counter": {"type": "none"}}})
    play(session, commit("basic-3", "pietinement"),
         *rolls(eren=["combat"] * 5, mikasa=["combat"] * 5, armin=["cannon"] * 5), NEXT)
    error = refused(session, adjust(step=6), "adjust.step_choice_waiting")
    assert error.params["choice"] == "frenzy"
