"""Whole games to each of the four endings, and the Titan keywords and Tactic effects on the way.
Passages of ../shared/rules/attack-on-titan-last-stand.fr.txt cited per test."""

from __future__ import annotations

from aot_helpers import NEXT, commit, new_session, play, refused, rolls, setup_event, suffer

from companion.engine import Session
from companion.games.aot_last_stand import GAME

QUIET = {"eren": ["combat"] * 5, "mikasa": ["cannon"] * 5, "armin": ["cannon"] * 5}


def teach_action(card, effects, counter="none"):
    return {"type": "teach", "kind": "action", "id": card,
            "definition": {"name": card, "effects": effects, "counter": {"type": counter}}}


def full_round(session, up, down, faces=None):
    """Steps 1 to 5, nothing countered."""
    play(session, commit(up, down), *rolls(**(faces or QUIET)), NEXT)
    suffer(session)


def test_titan_wins_by_destroying_six_cannons(session):
    """«Tous les canons détruits : Si les 6 canons sont retirés du jeu, la ville est décimée et le
    Titan l'emporte !» Frénésie destroys one Cannon each time it is suffered."""
    play(session, setup_event(), teach_action("basic-3", [{"op": "destroy", "amount": 2}]),
         teach_action("basic-4", [{"op": "destroy", "amount": 1}]))
    cards = [("frenesie", "basic-3"), ("basic-4", "pietinement")]
    for n in range(3):
        full_round(session, *cards[n % 2])
        if session.view()["status"] != "playing":
            break
        session.submit(NEXT)
    view = session.view()
    assert (view["status"], view["winner"], view["reason"]) == ("lost", "titan", "cannons")
    assert view["cannons"]["left"] == 0
    assert session.expects().kind == "nothing"
    refused(session, NEXT, "game.over")


def test_titan_wins_by_devouring_twelve_citizens(session):
    """«Pertes humaines : Si tous les jetons Citoyens sont retournés [...] le Titan l'emporte !»"""
    play(session, setup_event(), {"type": "adjust", "devoured": 11}, commit(),
         *rolls(**QUIET), NEXT)
    assert session.view()["reason"] == "citizens"
    assert session.view()["citizens"]["left"] == 0


def test_titan_wins_when_a_hero_loses_three_hearts_crush_and_strike(session):
    """«Mort d'un Héros : Si un Héros perd le dernier de ses 3 jetons Cœurs [...] le Titan
    l'emporte»; «Frapper les Héros : Les Héros décident lequel d'entre eux perd un jeton Cœur»;
    «Écraser les Héros : Le Titan choisit 1 Héros auquel il retire un jeton Cœur»."""
    play(session, setup_event(), teach_action("basic-3", [{"op": "strike"}]),
         teach_action("basic-4", [{"op": "crush"}]), commit("basic-3", "basic-4"),
         *rolls(**QUIET), NEXT)
    assert session.expects().options == ["eren", "mikasa", "armin"]
    refused(session, {"type": "choose", "hero": "levi"}, "choose.hero")
    play(session, {"type": "choose", "hero": "armin"}, {"type": "choose", "hero": "armin"})
    assert session.view()["heroes"]["armin"]["hearts"] == 1
    play(session, NEXT, {"type": "adjust", "hero": "eren", "hearts": 2}, commit(),
         *rolls(**QUIET), NEXT)  # Piétinement takes one of Eren's hearts, Frénésie none
    assert session.view()["heroes"]["eren"]["hearts"] == 1
    assert session.view()["status"] == "playing", "Frénésie hurts nobody"
    session.submit(NEXT)
    play(session, commit("basic-3", "basic-4"), *rolls(**QUIET), NEXT,
         {"type": "choose", "hero": "eren"})
    view = session.view()
    assert (view["winner"], view["reason"]) == ("titan", "hero_devoured")


def test_heroes_win_by_beheading_in_the_kill_zone(session):
    """«La quatrième, et ultime condition pour activer ces deux cartes Tactique, est la « KILL ZONE
    »»; «Si les Héros parviennent à valider l'une des deux tactiques « Décapitation » ou «
    Éradication », ils terrassent le Titan». Unknown conditions: the table vouches for them
    (``activate``)."""
    play(session, setup_event(tactics=["decapitation"]))
    full_round(session, "pietinement", "frenesie",
               {"eren": ["tactic"] * 5, "mikasa": ["cannon"] * 5, "armin": ["cannon"] * 5})
    error = refused(session, {"type": "activate", "pay": {"eren": {"tactic": 2}}},
                    "tactic.needs_kill_zone")
    assert error.params["zone"] == "start"
    kill = session.view()["health"]["kill"]
    session.submit({"type": "adjust", "health": kill - 2})
    session.submit({"type": "cannon", "hero": "armin", "count": 1})
    assert session.view()["health"]["zone"] == "kill"
    session.submit({"type": "activate", "pay": {"eren": {"tactic": 2}}})
    view = session.view()
    assert (view["status"], view["winner"], view["reason"]) == ("won", "heroes", "beheading")


def test_two_heroes_need_two_conditions_and_a_hero_on_level_8(tmp_path):
    """«Parmi les 3 conditions de la carte Tactique, les Héros sont libres d'en remplir 2 [...] il
    reste obligatoire d'avoir la santé du Titan dans la « KILL ZONE » et d'avoir un Héros au niveau
    8»."""
    session = new_session(tmp_path)
    conditions = [{"symbol": "tactic", "count": 1}, {"symbol": "dodge", "count": 1},
                  {"level": 7, "symbol": "combat", "count": 1}]
    play(session, setup_event((("eren", 0), ("mikasa", 0)), tactics=["eradication"]),
         {"type": "teach", "kind": "tactic", "id": "eradication",
          "definition": {"conditions": conditions}},
         {"type": "adjust", "health": 14}, {"type": "adjust", "hero": "eren", "level": 7})
    full_round(session, "pietinement", "frenesie",
               {"eren": ["tactic", "dodge", "move", "combat", "combat"],
                "mikasa": ["combat"] * 5})
    play(session, {"type": "provide", "condition": 1, "pay": {"eren": {"tactic": 1}}},
         {"type": "provide", "condition": 2, "pay": {"eren": {"dodge": 1}}})
    assert session.view()["status"] == "playing", "two conditions, but nobody on level 8"
    session.submit({"type": "move", "hero": "eren", "to": 8})
    assert session.view()["reason"] == "eradication"
    session.close()


def test_obstruct_sudden_change_and_frenzy_as_titan_abilities(session):
    """«Obstruction des Héros : [...] retirer un dé appartenant au Héros de son choix»; «Changement
    soudain : [...] Si la carte de départ était face cachée, la nouvelle est placée face cachée
    également [...] La carte initialement jouée retourne dans la main»; «Frénésie : [...] 1 carte
    Action de sa main pour la mettre en jeu face visible après les deux cartes»."""
    play(session, setup_event(),
         {"type": "teach", "kind": "ability", "id": "basic.2",
          "definition": {"cost": 1, "effects": [{"op": "obstruct"}, {"op": "sudden_change"},
                                                {"op": "frenzy"}]}},
         commit(), *rolls(eren=["titan", "combat", "combat", "move", "move"],
                          mikasa=["cannon"] * 5, armin=["cannon"] * 5), NEXT,
         {"type": "ability", "n": 2})
    refused(session, {"type": "choose", "hero": "mikasa", "face": "dodge"}, "choose.no_such_die")
    session.submit({"type": "choose", "hero": "mikasa", "face": "cannon"})
    assert session.view()["heroes"]["mikasa"]["obstructed"] == 1
    assert session.expects().options is None, "the hand is the Titan's secret"
    assert {"replace": "frenesie", "card": "basic-3"} in GAME.titan_expects(session.state).options
    session.submit({"type": "choose", "replace": "frenesie", "card": "basic-3"})
    titan = GAME.titan_view(session.state)
    assert titan["hidden"] == "basic-3" and "frenesie" in titan["hand"]
    assert session.view()["actions"][1]["card"] is None
    session.submit({"type": "choose", "card": "basic-4"})
    assert [a["card"] for a in session.view()["actions"]] == ["pietinement", None, "basic-4"]
    assert session.view()["titan"]["hand_size"] == 4


def test_blinding_shot_mutilation_and_steep_fall(session):
    """Tir Aveuglant: «le Titan jouera ses 2 Actions faces visibles»; Mutilation: «l'une des cartes
    Action du Titan [...] ne sera plus utilisée pour cette partie»; Chute Raide: «déplacez le
    marqueur de Santé sur la dernière case»."""
    play(session, setup_event(tactics=["tir-aveuglant", "mutilation", "chute-raide"]))
    full_round(session, "pietinement", "frenesie",
               {"eren": ["tactic"] * 5, "mikasa": ["tactic"] * 5, "armin": ["cannon"] * 5})
    session.submit({"type": "activate", "pay": {"eren": {"tactic": 1}}})
    session.submit({"type": "activate", "pay": {"eren": {"tactic": 1}}})
    assert session.expects().events == ("choose",)
    session.submit({"type": "choose", "card": "basic-5"})
    session.submit({"type": "activate", "pay": {"mikasa": {"tactic": 1}}})
    view = session.view()
    assert view["titan"]["removed"] == ["basic-5"]
    assert view["health"]["marker"] == view["health"]["length"]
    assert view["health"]["zone"] == "kill"
    assert view["tactic"]["top"] is None, "the rest of the pile was never seen"
    play(session, NEXT, commit("basic-3", "basic-4"))
    assert session.view()["actions"][1] == {"card": "basic-4", "face_up": True,
                                            "resolved": False}


def test_a_game_resumes_from_its_journal(tmp_path):
    """The session folds the journal: a reopened data directory is where it stopped."""
    session = new_session(tmp_path)
    play(session, setup_event(), commit(), *rolls(**QUIET), NEXT)
    before = session.view()
    session.close()
    again = Session(tmp_path / "data", games={"aot-last-stand": GAME})
    assert again.view() == before
    again.close()
