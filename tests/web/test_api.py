"""The JSON API: state, host events and every refusal (the journal is unchanged after each)."""

from __future__ import annotations

import re

import pytest
from webtools import PIN, login, setup_event


def test_state_before_any_game(viewer):
    data = viewer.get("/api/state").json
    assert data["version"] == 0 and data["view"]["game"] is None
    assert data["texts"]["expects"] == {"en": "Set up a game.", "fr": "Mettez une partie en place.",
                                        "es": "Prepara una partida."}


def test_accepted_event_says_it_in_both_languages(playing, session):
    data = playing.client.get("/api/state").json
    assert data["version"] == session.version == 1
    assert data["view"]["expects"]["kind"] == "card"
    response = playing.send({"type": "card", "id": "canon-de-l-infamie"}, based_on=1)
    assert response.status_code == 200
    assert response.json["label"]["fr"].startswith("Pioché")
    assert response.json["said"][0]["en"].startswith("Drawn: Canon")
    assert session.history()[-1].event.source == "web"


@pytest.mark.parametrize(("kwargs", "status", "key"), [
    ({"data": "{}", "content_type": "text/plain"}, 415, "request.not_json"),
    ({"data": "{not json", "content_type": "application/json"}, 400, "request.bad_json"),
    ({"json": [1, 2]}, 400, "request.not_object"),
    ({"json": {"event": {"type": "end_turn"}, "extra": 1}}, 400, "request.unknown_field"),
    ({"json": {"based_on": 1}}, 400, "request.missing_field"),
    ({"json": {"event": "end_turn"}}, 400, "request.bad_field"),
    ({"json": {"event": {"type": "end_turn"}, "based_on": "1"}}, 400, "request.bad_field"),
    ({"json": {"event": {"type": "end_turn", "source": "camera"}}}, 400,
     "request.reserved_field"),
    ({"json": {"event": {"type": "card", "id": "x", "colour": "red"}}}, 400,
     "event.unknown_field"),
    ({"json": {"event": {"type": "card"}}}, 400, "event.missing_field"),
    ({"json": {"event": {"type": "bogus"}}}, 400, "event.unknown_type"),
    ({"json": {"event": {"type": "end_turn"}}}, 422, "event.not_expected"),
    ({"json": {"event": {"type": "card", "id": "nope"}}}, 422, "card.unknown"),
    ({"json": {"event": {"type": "card", "id": "incube"}, "based_on": 0}}, 409, "event.stale"),
    ({"data": "{" + " " * 20000 + "}", "content_type": "application/json"}, 413,
     "request.too_large"),
])
def test_bad_requests_are_named_and_change_nothing(playing, session, kwargs, status, key):
    before = session.journal_entries()
    response = playing.client.post("/api/events", headers={"X-CSRF-Token": playing.csrf},
                                   **kwargs)
    assert response.status_code == status, response.json
    assert response.json["error"] == key and response.json["message"]
    assert session.journal_entries() == before


def test_refusals_speak_the_requested_language(playing):
    response = playing.post("/api/events?lang=fr", {"event": {"type": "end_turn"}})
    assert "n'attend pas" in response.json["message"]
    response = playing.post("/api/events", {"event": {"type": "end_turn"}},
                            headers={"X-Companion-Lang": "en"})
    assert "is not expected now" in response.json["message"]


def test_viewer_cannot_change_anything(playing, viewer, session):
    before = session.journal_entries()
    for url, body in [("/api/events", {"event": {"type": "card", "id": "incube"}}),
                      ("/api/simulate/draw", {}), ("/api/logout", {})]:
        response = viewer.post(url, json=body)
        assert response.status_code == 403 and response.json["error"] == "host.required"
    assert session.journal_entries() == before


def test_csrf_missing_replayed_and_unknown(playing, session):
    event = {"event": {"type": "card", "id": "incube"}}
    used = playing.csrf
    assert playing.client.post("/api/events", json=event).json["error"] == "csrf.missing"
    before = session.journal_entries()
    response = playing.client.post("/api/events", json=event, headers={"X-CSRF-Token": "forged"})
    assert response.status_code == 403 and response.json["error"] == "csrf.invalid"
    assert playing.post("/api/events", {"event": {"type": "end_turn"}}).status_code == 422
    response = playing.client.post("/api/events", json=event, headers={"X-CSRF-Token": used})
    assert response.status_code == 403 and response.json["error"] == "csrf.replayed"
    assert session.journal_entries() == before


def test_a_token_of_another_host_is_refused(app, playing):
    other = login(app)
    response = playing.client.post("/api/events", json={"event": {"type": "end_turn"}},
                                   headers={"X-CSRF-Token": other.csrf})
    assert response.json["error"] == "csrf.invalid"


def test_two_hosts_see_the_same_state_and_stale_is_refused(app, playing, session):
    second = login(app)
    version = second.client.get("/api/state").json["version"]
    first = playing.send({"type": "card", "id": "canon-de-l-infamie"}, based_on=version)
    assert first.status_code == 200
    stale = second.send({"type": "card", "id": "incube"}, based_on=version)
    assert stale.status_code == 409 and stale.json["error"] == "event.stale"
    message = stale.json["message"]
    assert f"version {version}" in message and f"version {session.version}" in message
    assert second.client.get("/api/state").json == playing.client.get("/api/state").json


def test_cross_site_requests_are_refused(playing):
    response = playing.post("/api/events", {"event": {"type": "end_turn"}},
                            headers={"Origin": "http://evil.example"})
    assert response.status_code == 403 and response.json["error"] == "request.cross_origin"


def test_unknown_api_paths_and_methods_answer_json(viewer):
    assert viewer.get("/api/nothing").json["error"] == "http.404"
    response = viewer.get("/api/events")
    assert response.status_code == 405 and response.json["error"] == "http.405"


def test_catalog_lists_cards_heroes_and_tiles(playing):
    data = playing.client.get("/api/catalog").json
    assert data["cards"]["incube"]["colour"] == "red"
    assert "kazgin" in data["heroes"] and data["tiles"]["market"]["fr"] == "Marché"
    assert data["seen"] == []


def test_helper_gives_exact_odds_of_a_declared_fight(playing):
    playing.send({"type": "card", "id": "canon-de-l-infamie", "define": {"complete": True}})
    playing.send({"type": "place", "slot": "yellow.2"})
    playing.send({"type": "move", "hero": "teagaan", "to": [2, 0]})
    playing.send({"type": "fight", "targets": ["yellow.2"]})
    helper = playing.client.get("/api/state").json["helper"]
    assert helper["odds"]["outcomes"] == 216 and helper["targets"][0]["resistance"] == 3
    assert (helper["odds"]["all"]["num"], helper["odds"]["all"]["den"]) == (1, 27)


def test_openapi_documents_every_api_route(app, viewer):
    doc = viewer.get("/api/openapi.json").json
    assert doc["openapi"].startswith("3.")
    routes = {re.sub(r"<(?:\w+:)?(\w+)>", r"{\1}", rule.rule)  # <int:game_id>: {game_id}
              for rule in app.url_map.iter_rules() if rule.rule.startswith("/api/")}
    assert routes == set(doc["paths"])


def test_pin_is_rate_limited_and_never_stored_in_clear(app, viewer, session):
    pins = app.extensions["companion"].pins
    pins.set(PIN)
    assert PIN not in pins.path.read_text() and oct(pins.path.stat().st_mode)[-3:] == "600"
    for _ in range(3):
        response = viewer.post("/api/login", json={"pin": "0000"})
        assert response.status_code == 401 and response.json["error"] == "pin.wrong"
    locked = viewer.post("/api/login", json={"pin": PIN})
    assert locked.status_code == 429 and locked.json["error"] == "pin.rate_limited"
    assert int(locked.headers["Retry-After"]) > 0


def test_first_run_pin_then_login_cookie_flags(app, viewer):
    assert viewer.get("/api/host").json == {"host": False, "pin_set": False, "simulate": True,
                                              "sensors": False}
    assert viewer.post("/api/login", json={"pin": PIN}).json["error"] == "pin.not_set"
    code = app.extensions["companion"].setup.current()
    assert viewer.post("/api/pin", json={"pin": "12", "code": code}).json["error"] == \
        "pin.bad_format"
    response = viewer.post("/api/pin", json={"pin": PIN, "code": code})
    assert response.status_code == 201 and response.json["csrf"]
    cookie = response.headers["Set-Cookie"]
    assert "HttpOnly" in cookie and "SameSite=Strict" in cookie
    assert viewer.get("/api/host").json["host"] is True
    again = app.test_client().post("/api/pin", json={"pin": "9999", "code": code})
    assert again.status_code == 409 and again.json["error"] == "pin.already_set"


def test_logout_and_pin_change_end_host_sessions(app, playing):
    other = login(app)
    assert playing.post("/api/logout").status_code == 200
    assert playing.send({"type": "end_turn"}).json["error"] == "host.required"
    app.extensions["companion"].pins.set("5555")
    assert other.send({"type": "end_turn"}).json["error"] == "host.required"


def test_simulated_table_rolls_and_draws(playing, session):
    drawn = playing.post("/api/simulate/draw")
    assert drawn.status_code == 200 and drawn.json["event"]["type"] == "card"
    assert session.history()[-1].event.source == "simulator"
    refused = playing.post("/api/simulate/roll")
    assert refused.status_code == 422 and refused.json["error"] == "event.not_expected"
    assert playing.post("/api/simulate/fly").status_code == 404


def test_history_api_and_page(playing, session):
    playing.send({"type": "card", "id": "canon-de-l-infamie", "define": {"complete": True}})
    playing.send({"type": "undo"})
    playing.send(setup_event(hero="kazgin"))
    data = playing.client.get("/api/history").json
    assert [g["id"] for g in data["games"]] == [2, 1] and data["current"] == 2
    assert data["games"][0]["frames"][0]["label"]["en"].startswith("New game")
    past = playing.client.get("/api/history/1").json
    assert [f["type"] for f in past["frames"]] == ["setup"], "the undone card is left out"
    assert past["sheet"]["total"] == past["score"]
    assert playing.client.get("/api/history/9").json["error"] == "history.unknown_game"
    page = playing.client.get("/history?lang=fr").get_data(as_text=True)
    assert page.count("<svg") == 6 and "Feuille de score" in page


def test_page_is_self_contained(viewer):
    page = viewer.get("/").get_data(as_text=True)
    assert "http://" not in page and "https://" not in page
    assert '"ui.live"' in page
    for asset in ("/static/app.js", "/static/app.css"):
        assert viewer.get(asset).status_code == 200
