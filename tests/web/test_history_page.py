"""The history page explains a game (issue 17, finding 6): each player with their hero, chart
lines in the colour of each hero's board, labelled axes, and Last Bastion counted in rounds as
the rulebook counts them: a round is a turn of each of the four Horde boards, neutral ones
included («le tour de jeu d'un plateau neutre», last-bastion.fr.txt, "Plateau neutre")."""

from __future__ import annotations

import re

from test_simulated_cards import play
from webtools import setup_event

from companion.engine import Session
from companion.simulator import Simulator
from web import WebConfig, create_app
from web.charts import INK


def played(tmp_path, turns: int = 9) -> Session:
    """Gary (Teagaan, South: yellow) and Bo (Mylfaar, North: red), simulated up to ``turns``
    board turns."""
    session = Session(tmp_path / "data")
    event = setup_event()
    event["players"].append({"name": "Bo", "hero": "mylfaar", "side": "N"})
    session.submit(event)
    play(session, Simulator(session, 2), lambda: session.state["turn"]["number"] >= turns)
    return session


def test_rounds_players_heroes_colours_and_axes(tmp_path):
    session = played(tmp_path)
    app = create_app(session, WebConfig(simulate=True, seed=7))
    try:
        client = app.test_client()
        series = client.get("/api/history").json["games"][0]["series"]["ui.chart_life"]
        assert series["turns"] == [1, 2, 3]  # 9 board turns are 3 rounds (was 1..9)
        page = client.get("/history?lang=en").get_data(as_text=True)
        assert "Gary — Teagaan (South), Bo — Mylfaar (North)" in page
        life = page[page.index('aria-label="Life"'):]
        life = life[:life.index("</svg>")]
        strokes = re.findall(r'<polyline [^>]*stroke="(#[0-9a-f]+)"', life)
        assert strokes == [INK["yellow"], INK["red"]]  # Gary's board is yellow, Bo's red
        assert "Round (each Horde board once)" in life
        french = client.get("/history?lang=fr").get_data(as_text=True)
        assert "Manche (chaque plateau Horde une fois)" in french and "(Sud)" in french
        spanish = client.get("/history?lang=es").get_data(as_text=True)
        assert "Ronda (cada tablero de la Horda una vez)" in spanish and "(Sur)" in spanish
        assert '<a href="?lang=en" lang="en">English</a>' in spanish  # the switch goes round
    finally:
        app.extensions["companion"].hub.close()
        session.close()
