"""The two endings, the final count and the tie-break (rulebook, «L'issue de la bataille (fin de
partie)» and «Décompte final», ../shared/rules/last-heroes.fr.txt)."""

from __future__ import annotations

import copy

import pytest
from lastheroes_helpers import (
    END,
    act,
    ammo,
    idle,
    kill,
    load,
    open_session,
    play,
    player,
    refused,
    start,
    turn,
)

from companion.engine import RuleError
from companion.games.last_heroes import GAME
from companion.games.last_heroes.scoring import winners


def snake_for_ana(session):
    """Ana opens a breach on the Snake (killing the Wolf); Ben kills the Snake in it, so the
    Impact artefact goes to Ana. Ben's turn is not ended."""
    turn(session, load("flamethrower-3", "blind.left"))
    turn(session, load("crossbow-6", "echo.left"))
    play(session, *idle("ace", 3))
    turn(session, load("flamethrower-6", "blind.right"),
         kill("wolf", "flamethrower-6", "flamethrower-3"))
    play(session, load("crossbow-10", "echo.right"), kill("snake", "crossbow-10", "crossbow-6"))


def test_all_artefacts_taken_ends_the_game_at_once(table):
    """«La partie s'arrête dès que tous les Artefacts ont été récupérés» and «Il ajoute 5 points
    par Artefact en sa possession (seulement s'ils ont tous été récupérés - cas A)». The other
    two artefacts are given on a copy of the state, as if won earlier."""
    turn(table, load("flamethrower-3", "blind.left"))
    turn(table, load("crossbow-6", "echo.left"))
    play(table, *idle("ace", 3))
    turn(table, load("flamethrower-6", "blind.right"),
         kill("wolf", "flamethrower-6", "flamethrower-3"))
    table.submit(load("crossbow-10", "echo.right"))
    state = copy.deepcopy(table.state)
    for column, hero in ((0, "echo"), (2, "ace")):
        state["columns"][column]["holder"] = hero
        state["players"][hero]["artefacts"].append(state["columns"][column]["artefact"])
    step = act(state, "kill", monster="snake", weapons=["crossbow-10", "crossbow-6"])
    final = step.state
    assert final["status"] == "won" and final["reason"] == "artefacts"
    assert "game.over_artefacts" in [m.key for m in step.announcements]
    view = GAME.view(final)
    ana = next(p for p in view["players"] if p["hero"] == "blind")
    assert ana["score"] == {"monsters": 2, "artefacts": 5, "charisma": 0, "total": 7, "kills": 1}
    assert view["winners"] == ["echo"], "Ben: Snake 7 + artefact 5"
    assert view["expects"] == {"kind": "nothing", "events": []}
    with pytest.raises(RuleError) as error:
        act(final, "end_turn")
    assert error.value.key == "game.over"


def test_ten_turns_end_the_game_without_artefact_points(table, tmp_path):
    """«Plus aucun joueur n'a de carte en main (10 tours de jeu ont été joués)» and «si les Héros
    ont eu besoin de renfort (cas B), les pions Artefact ne sont pas comptabilisés»."""
    snake_for_ana(table)
    spare = {"blind": [f"flamethrower-{n}" for n in (4, 5, 7, 8, 9, 10, 11, 12)],
             "echo": [f"crossbow-{n}" for n in (3, 4, 5, 7, 8, 9, 11, 12)],
             "ace": [f"pistol-{n}" for n in range(4, 13)]}
    table.submit(END)
    monsters = iter(["mole", "crow", "toad", "newt"])
    while table.view()["status"] == "playing":
        if table.expects().kind == "card":
            table.submit({"type": "reveal", "card": next(monsters)})
            continue
        hero = table.view()["active"]
        play(table, ammo(spare[hero].pop(0), "right"), END)
    view = table.view()
    assert view["reason"] == "ten_turns" and view["round"] == 10
    assert all(not cards for cards in spare.values()), "each hero played all ten cards"
    assert all(p["hand"] == 0 for p in view["players"])
    ana = player(table, "blind")
    assert ana["artefacts"] == ["impact"] and ana["score"]["artefacts"] == 0
    assert ana["score"]["total"] == 2
    assert view["winners"] == ["echo"]
    refused(table, ammo("pistol-3", "left"), "game.over")
    reopened = open_session(tmp_path)
    assert reopened.view() == table.view(), "the journal folds back to the same end"
    reopened.close()


def test_unknown_points_are_asked_before_the_count(tmp_path):
    """«Il fait la somme de la valeur des cartes Monstre qu'il a acquises»: a monster nobody has
    taught stays playable (its impacts given as it is killed); its points are asked for, and the
    winner waits for them."""
    session = open_session(tmp_path)
    start(session, battlefield=[["shrew", "spider", "dragon"], ["bat", "wolf", "snake"],
                                ["imp", "ghoul", "hydra"]])
    session.submit(load("flamethrower-3", "blind.left"))
    refused(session, kill("shrew", "flamethrower-3"), "card.incomplete")
    session.submit(kill("shrew", "flamethrower-3", define={"light": [1]}))
    assert session.view()["prompts"][-1]["params"] == {"monsters": ["shrew"]}
    state = copy.deepcopy(session.state)
    state["status"], state["reason"] = "won", "ten_turns"
    assert GAME.expects(state).events == ("teach",) and winners(state) == []
    taught = act(state, "teach", kind="monster", id="shrew", definition={"points": 1}).state
    assert winners(taught) == ["blind"] and GAME.expects(taught).kind == "nothing"
    session.close()


def test_a_tie_goes_to_the_most_monsters_killed(table):
    """«En cas d'égalité, le gagnant est celui qui a vaincu le plus de monstres parmi les joueurs
    à égalité.» Ana (Rat 1 + Charisma 2) ties Ben (Charisma 3) and wins: she killed a monster."""
    turn(table, load("flamethrower-3", "blind.left"), kill("rat", "flamethrower-3"))
    state = copy.deepcopy(table.state)
    state["players"]["blind"]["charisma"] = 2
    state["players"]["echo"]["charisma"] = 3
    state["status"], state["reason"] = "won", "ten_turns"
    assert winners(state) == ["blind"]
    state["players"]["ace"]["monsters"] = ["bat"]
    state["players"]["ace"]["charisma"] = 2
    assert winners(state) == ["blind", "ace"], "still tied after the tie-break: both win"
