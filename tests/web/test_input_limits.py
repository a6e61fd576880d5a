"""Issue 12, finding 5: no 5xx and no traceback on bad input.

JSON nested 1,000 deep, a 4,500-digit integer, a lone surrogate, ``game`` as a list and a
15,000-character name each gave a 500 (or were stored); each is now a 400 whose message, in
French and English, names the field, and nothing changes.
"""

from __future__ import annotations

import pytest
from webtools import setup_event

from web.limits import MAX_NAME


def deep(levels: int) -> str:
    return "[" * levels + "]" * levels


def with_setup(**changes) -> str:
    import json

    event = setup_event()
    event.update(changes)
    return json.dumps({"event": event})


CASES = [
    ('{"event": ' + deep(1000) + "}", "request.too_deep", "event"),
    (deep(1000), "request.too_deep", "body"),
    ('{"event": {"type": "setup", "x": ' + "[" * 30 + "]" * 30 + "}}", "request.too_deep",
     "event.x" + "[0]" * 23),
    ('{"event": {"type": "end_turn"}, "based_on": ' + "9" * 4500 + "}", "request.bad_number",
     "based_on"),
    ('{"event": {"type": "end_turn"}, "based_on": NaN}', "request.bad_number", "based_on"),
    ('{"event": {"type": "adjust", "life": 1e999}}', "request.bad_number", "event.life"),
    ('{"event": {"type": "card", "id": "\\ud800"}}', "request.bad_text", "event.id"),
    ('{"event": {"type": "card", "\\udfff": 1}}', "request.bad_text", "event.\\udfff"),
    (with_setup(game=["last-bastion"]), "event.bad_field", "game"),
    (with_setup(players=[{"name": "x" * 15000, "hero": "teagaan", "side": "S"}]),
     "request.too_long", "event.players[0].name"),
    ('{"event": {"type": "teach", "kind": "card", "id": "c", "name": {"fr": "' + "é" * 200
     + '"}}}', "request.too_long", "event.name.fr"),
]


@pytest.mark.parametrize(("body", "key", "field"), CASES)
def test_bad_bodies_are_400_naming_the_field(host, session, body, key, field):
    before = session.journal_entries()
    for lang, word in (("en", "field"), ("fr", "champ")):
        response = host.client.post(f"/api/events?lang={lang}", data=body,
                                    content_type="application/json",
                                    headers={"X-CSRF-Token": host.csrf})
        host.csrf = response.headers.get("X-CSRF-Token", host.csrf)
        assert response.status_code == 400, response.json
        assert response.json["error"] == key and response.json["params"]["field"] == field
        assert word in response.json["message"].lower() and field[:20] in \
            response.json["message"]
    assert session.journal_entries() == before


def test_names_up_to_the_limit_are_kept(host, session):
    event = setup_event()
    event["players"][0]["name"] = "N" * MAX_NAME
    assert host.send(event).status_code == 200
    assert "N" * MAX_NAME in str(session.history()[0].event.fields["players"])


@pytest.mark.parametrize("url", ["/api/login", "/api/pin", "/api/box/enroll",
                                 "/api/sessions/revoke", "/api/role/events"])
def test_every_json_route_has_the_limits(viewer, url):
    response = viewer.post(url, data='{"pin": ' + deep(1000) + "}",
                           content_type="application/json")
    assert response.status_code in (400, 403)
    if response.status_code == 400:
        assert response.json["error"] == "request.too_deep"
