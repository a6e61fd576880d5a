"""Host corrections that cross a threshold of the rules (issue 13, finding 2).

Rulebook p.9, "Héros blessé, héros mort": «Un héros qui perd son dernier jeton Point de Vie est
hors combat. Tous ses jetons (Équipement, Appel aux Armes) sont perdus et placés dans la réserve.
Sa figurine est placée sur son plateau Héros» and «Si un héros devait perdre tous ses jetons Point
de Vie une seconde fois, il serait alors mort». p.10, "Fin de la partie": defeat when «Tous les
héros sont hors combat» or «Une troisième tuile Bastion passe sous l'Emprise du Mal».
A correction must lead to the state the rules give, with the announcements of play.
"""

from __future__ import annotations

from lastbastion import play, setup_event, solo
from sessiontools import refused


def _duo(session, *events):
    """Gary (Kazgin, S) plays first; Paul (Mylfaar, N)."""
    return play(session, setup_event([("Gary", "kazgin", "S"), ("Paul", "mylfaar", "N")]),
                *events)


def _keys(step):
    return [m.key for m in step.announcements]


def test_life_corrected_to_zero_knocks_the_hero_out(session):
    """The issue's case: after ``adjust`` sets Life to 0 the hero must be hors combat, his
    tokens in the reserve, his figure off the Bastion, his board neutral."""
    _duo(session)
    reserve = session.view()["reserve"]
    step = session.submit({"type": "adjust", "hero": "kazgin", "life": 0})
    view = session.view()
    gary = view["heroes"]["kazgin"]
    assert gary["state"] == "knocked_out"
    assert gary["tile"] is None
    assert gary["call_to_arms"] == 0 and sum(gary["equipment"].values()) == 0
    assert view["reserve"]["life"] == reserve["life"] + 3
    assert view["reserve"]["call_to_arms"] == reserve["call_to_arms"] + 1
    assert view["reserve"]["equipment"]["yellow"] == reserve["equipment"]["yellow"] + 1
    assert "hero.knocked_out" in _keys(step)
    assert view["active"] != "S", "Gary's board is neutral: his Hero phase is over"


def test_the_phone_form_sending_the_unchanged_state_still_knocks_out(session):
    """The phone's hero correction sends every field, the current state included."""
    _duo(session, {"type": "adjust", "hero": "kazgin", "life": 0, "call_to_arms": 1,
                   "state": "healthy", "equipment": {"yellow": 1}})
    gary = session.view()["heroes"]["kazgin"]
    assert gary["state"] == "knocked_out"
    assert gary["call_to_arms"] == 0 and gary["equipment"]["yellow"] == 0


def test_a_wounded_hero_corrected_to_zero_life_dies(session):
    """«perdre tous ses jetons Point de Vie une seconde fois, il serait alors mort»."""
    _duo(session, {"type": "adjust", "hero": "mylfaar", "state": "wounded"})
    step = session.submit({"type": "adjust", "hero": "mylfaar", "life": 0})
    assert session.view()["heroes"]["mylfaar"]["state"] == "dead"
    assert "hero.dead" in _keys(step)


def test_solo_hero_corrected_to_zero_life_loses_the_game(session):
    """Defeat: «Tous les héros sont hors combat»."""
    play(session, solo())
    step = session.submit({"type": "adjust", "hero": "kazgin", "life": 0})
    view = session.view()
    assert view["status"] == "lost" and view["reason"] == "all_heroes_out"
    assert _keys(step)[-2:] == ["hero.knocked_out", "game.lost"]


def test_later_losses_after_the_correction_are_not_lost_in_limbo(session):
    """The issue: after the correction every later loss said «Nobody can suffer this effect»;
    now the hero is out, and Paul suffers what a neutral board deals."""
    _duo(session, {"type": "adjust", "hero": "kazgin", "life": 0})
    view = session.view()
    assert view["heroes"]["kazgin"]["state"] == "knocked_out"
    assert view["neutral"] is (view["active"] != "N")


def test_setting_a_hero_out_gives_his_tokens_back(session):
    """A correction to «hors combat» or «mort» is the same as one in play: every token to the
    reserve, the figure off the Bastion, and the announcement."""
    _duo(session)
    reserve = session.view()["reserve"]
    step = session.submit({"type": "adjust", "hero": "mylfaar", "state": "dead"})
    view = session.view()
    paul = view["heroes"]["mylfaar"]
    assert (paul["life"], paul["call_to_arms"], paul["tile"]) == (0, 0, None)
    assert view["reserve"]["life"] == reserve["life"] + 3
    assert "hero.dead" in _keys(step)


def test_an_out_hero_cannot_be_given_tokens_without_coming_back(session):
    """A hero out of play holds no token: giving him Life alone is refused, nothing changes."""
    _duo(session, {"type": "adjust", "hero": "mylfaar", "life": 0})
    refused(session, {"type": "adjust", "hero": "mylfaar", "life": 2}, "adjust.out_of_play")
    refused(session, {"type": "adjust", "hero": "mylfaar", "to": [1, 1]}, "adjust.out_of_play")
    refused(session, {"type": "adjust", "hero": "kazgin", "state": "knocked_out", "to": [1, 1]},
            "adjust.out_of_play")


def test_bringing_a_hero_back_needs_life(session):
    """Back in play (healthy or wounded) with no Life would be knocked out at once: refused."""
    _duo(session, {"type": "adjust", "hero": "mylfaar", "life": 0})
    refused(session, {"type": "adjust", "hero": "mylfaar", "state": "wounded", "to": [1, 1]},
            "adjust.no_life")
    session.submit({"type": "adjust", "hero": "mylfaar", "state": "wounded", "life": 3,
                    "to": [1, 1]})
    paul = session.view()["heroes"]["mylfaar"]
    assert (paul["state"], paul["life"], paul["tile"]) == ("wounded", 3, [1, 1])


def test_a_third_gripped_tile_by_correction_loses(session):
    """«Une troisième tuile Bastion passe sous l'Emprise du Mal»: a correction too."""
    play(session, solo(), {"type": "adjust", "tile": [0, 1], "grip": True},
         {"type": "adjust", "tile": [0, 2], "grip": True})
    step = session.submit({"type": "adjust", "tile": [1, 0], "grip": True})
    assert session.view()["reason"] == "third_tile_gripped"
    assert "game.lost" in _keys(step)
