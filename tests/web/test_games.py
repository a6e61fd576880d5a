"""Every installed game through the web API: set up, state, an accepted event, a refusal; the
catalogs and the simulated table per game; and Attack on Titan's secret Titan role, whose hidden
Action card never reaches a viewer's or a host's responses or the shared stream."""

from __future__ import annotations

import json

import pytest
from test_stream import messages
from webtools import GAME_SETUPS

# per game: an event accepted right after the setup, and one the rules refuse then
FIRST = {
    "runemasters": ({"type": "card", "id": "troll-green"}, {"type": "end_turn"}),
    "aot-last-stand": ({"type": "commit", "up": "pietinement", "down": "frenesie"},
                       {"type": "commit", "up": "frenesie", "down": "frenesie"}),
    "last-heroes": ({"type": "charger", "hero": "blind", "card": "flamethrower-1",
                     "define": {"ammo": 2}},
                    {"type": "end_turn"}),
}


@pytest.mark.parametrize("game", sorted(GAME_SETUPS))
def test_set_up_play_and_refuse(host, viewer, game):
    assert host.send(GAME_SETUPS[game]).status_code == 200
    state = viewer.get("/api/state").json
    assert state["view"]["game"] == game and state["texts"]["expects"]["fr"]
    accepted, refused = FIRST[game]
    reply = host.send(accepted)
    assert reply.status_code == 200, reply.json
    version = viewer.get("/api/state").json["version"]
    reply = host.send(refused)
    assert reply.status_code in (400, 422) and reply.json["message"]
    assert viewer.get("/api/state").json["version"] == version
    assert viewer.get("/history").status_code == 200
    assert viewer.get("/api/history").status_code == 200


def test_games_and_their_catalogs(viewer):
    games = viewer.get("/api/games").json["games"]
    assert games[0] == "last-bastion" and set(GAME_SETUPS) <= set(games)
    assert "kulak" not in viewer.get("/api/catalog?game=runemasters").json["ids"]
    assert "troll-green" in viewer.get("/api/catalog?game=runemasters").json["ids"]["monster"]
    assert "eren" in viewer.get("/api/catalog?game=aot-last-stand").json["ids"]["hero"]
    assert viewer.get("/api/catalog?game=chess").status_code == 422
    page = viewer.get("/").get_data(as_text=True)
    for game in games:
        assert f"/games/{game}.js" in page
        assert viewer.get(f"/games/{game}.js").status_code == 200


def test_simulator_rolls_any_profile_and_draws_from_any_deck(host, session):
    host.send(GAME_SETUPS["runemasters"])
    while (expects := session.expects()).kind in ("card", "choice"):
        reply = (host.post("/api/simulate/draw") if expects.kind == "card" else
                 host.send({"type": "angel", "guardian": expects.options[0]}))
        assert reply.status_code == 200, reply.json
    assert session.expects().kind == "dice"
    assert host.post("/api/simulate/roll").json["event"]["type"] == "dice"
    host.send(GAME_SETUPS["aot-last-stand"])
    host.send(FIRST["aot-last-stand"][0])
    rolled = host.post("/api/simulate/roll").json  # the heroes throw together: one each
    heroes = list(session.state["heroes"])
    assert [(e["type"], e["hero"], len(e["faces"])) for e in rolled["events"]] == [
        ("roll", hero, 5) for hero in heroes]
    assert rolled["event"] == rolled["events"][0] and len(heroes) >= 2
    host.send(GAME_SETUPS["last-heroes"])  # issue 39: refused, every card's ammo unknown
    drawn = host.post("/api/simulate/draw").json["event"]
    assert drawn["type"] == "charger" and set(drawn["define"]) == {"cost", "ammo"}


def test_titan_role_sees_the_hidden_card_and_nobody_else(app, host, viewer):
    stream = viewer.get("/api/stream", buffered=False)
    host.send(GAME_SETUPS["aot-last-stand"])
    assert viewer.get("/api/role").status_code == 403
    assert viewer.post("/api/role/titan", json={}).status_code == 403
    link = host.post("/api/role/titan").json
    titan = {"X-Role-Token": link["token"]}
    assert link["link"].endswith(link["token"])
    own = viewer.get("/api/role", headers=titan).json
    assert own["view"]["hand"] and own["view"]["hidden"] is None
    reply = viewer.post("/api/role/events", headers=titan, json={"event": {
        "type": "commit", "up": "pietinement", "down": "frenesie"}})
    assert reply.status_code == 200, reply.json
    assert viewer.get("/api/role", headers=titan).json["view"]["hidden"] == "frenesie"
    refused = viewer.post("/api/role/events", headers=titan,
                          json={"event": {"type": "undo"}})
    assert refused.status_code == 403
    bodies = [reply.get_data(as_text=True), viewer.get("/api/state").get_data(as_text=True),
              host.client.get("/api/state").get_data(as_text=True),
              host.client.get("/api/history").get_data(as_text=True),
              json.dumps([m for m in messages(stream, 3) if m[1]["version"] >= 2])]
    # before the commit (step 1) the shared page lists the hand to commit from: the seven
    # cards less those set aside, which tells nothing of the card that will be hidden
    for body in bodies:
        assert "frenesie" not in body and "Frénésie" not in body
    host.send({"type": "undo"})  # the host's own commit answers without the card either
    reply = host.send({"type": "commit", "up": "pietinement", "down": "frenesie"})
    assert "frenesie" not in reply.get_data(as_text=True)
    assert host.post("/api/role/titan").status_code == 200  # a new link revokes the old
    assert viewer.get("/api/role", headers=titan).status_code == 403
