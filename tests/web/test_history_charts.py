"""The history's turn-by-turn charts for every game that tallies itself (``Game.tally``): the
series in ``/api/history`` follow what happened at the table, and ``/history`` draws one chart
per series, titled in the viewer's language."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

GAMES = Path(__file__).resolve().parents[1] / "games"  # the games' own helpers and endings
sys.path[:0] = [str(GAMES / game) for game in ("aot_last_stand", "last_heroes", "runemasters")]

import aot_helpers as aot  # noqa: E402
from lastheroes_helpers import END, kill, load, open_session, play, start, turn  # noqa: E402
from runemasters_helpers import idle_turn, new_session, play_game, setup_event  # noqa: E402
from test_aot_endings import full_round, teach_action  # noqa: E402
from test_rm_endings import CARDS, EVENTS  # noqa: E402

from web import WebConfig, create_app  # noqa: E402


@pytest.fixture
def client_for():
    """A viewer's client on the web app of a given session."""
    apps = []

    def make(session):
        app = create_app(session, WebConfig(simulate=True, seed=7))
        apps.append(app)
        return app.test_client()

    yield make
    for app in apps:
        app.extensions["companion"].hub.close()


def test_last_heroes_charts_kills_hands_and_piles(tmp_path, client_for):
    session = open_session(tmp_path)
    start(session)
    piles = sum(session.state["piles"].values())
    turn(session, load("flamethrower-3", "blind.left"))
    turn(session, load("crossbow-6", "echo.left"))
    play(session, load("pistol-3", "ace.right"), END)
    turn(session, load("flamethrower-6", "blind.right"),
         kill("wolf", "flamethrower-6", "flamethrower-3"))
    client = client_for(session)
    series = client.get("/api/history").json["games"][0]["series"]
    kills = series["chart.kills"]
    assert kills["turns"] == [0, 1, 2]
    assert kills["lines"] == {"Ana": [0, 0, 1], "Ben": [0, 0, 0], "Cleo": [0, 0, 0]}
    assert series["chart.hands"]["lines"]["Ana"][-1] < series["chart.hands"]["lines"]["Ana"][0]
    assert series["chart.piles"]["lines"][""][0] == piles
    page = client.get("/history?lang=fr").get_data(as_text=True)
    assert page.count('<svg class="chart"') == 3
    assert "Monstres tués" in page and "Cartes en main" in page


def test_runemasters_charts_life_temple_and_pile(tmp_path, client_for):
    session = new_session(tmp_path)
    session.submit(setup_event(("kulak", "red"), ("kyreas", "blue"), difficulty="initiation"))
    size = session.state["deck"]["monsters"]
    play_game(session, CARDS, EVENTS, idle_turn,
              until=lambda view: session.state["round"]["number"] >= 3)
    series = client_for(session).get("/api/history?lang=en").json["games"][0]["series"]
    pile = series["chart.monsters"]
    assert pile["top"] == size and pile["turns"] == [0, 1, 2, 3]
    left = pile["lines"][""]
    assert left == sorted(left, reverse=True) and left[-1] < size, "cards are drawn, never added"
    assert set(series["chart.life"]["lines"]) == {"Kulak", "Kyreas"}
    assert series["chart.temple"]["top"] == session.state["temple"]["max"]


def test_attack_on_titan_charts_cannons_citizens_health_and_hearts(tmp_path, client_for):
    """The cannons ending of tests/games/aot_last_stand/test_aot_endings.py, charted:
    one Cannon fewer or more each
    round until none is left."""
    session = aot.new_session(tmp_path)
    aot.play(session, aot.setup_event(),
             teach_action("basic-3", [{"op": "destroy", "amount": 2}]),
             teach_action("basic-4", [{"op": "destroy", "amount": 1}]))
    cards = [("frenesie", "basic-3"), ("basic-4", "pietinement")]
    for n in range(3):
        full_round(session, *cards[n % 2])
        if session.view()["status"] == "playing":
            session.submit(aot.NEXT)
    client = client_for(session)
    series = client.get("/api/history").json["games"][0]["series"]
    cannons = series["chart.cannons"]
    assert cannons["turns"] == [1, 2, 3] and cannons["top"] == 6
    assert cannons["lines"][""][-1] == 0 and cannons["lines"][""] == sorted(
        cannons["lines"][""], reverse=True)
    assert set(series["chart.hearts"]["lines"]) == {"Corentin", "Léa", "Sam"}
    page = client.get("/history?lang=fr").get_data(as_text=True)
    assert page.count('<svg class="chart"') == 4 and "Canons restants" in page
