"""Refusals whose own parameters share a name with the refusal's fields (issue 40, item 3): an
event after the end of a game is refused ``game.over`` with its ``status`` parameter, which once
collided with ``ApiError``'s own ``status`` and answered 500."""

from __future__ import annotations

import pytest

from companion.engine import RuleError, StoreError
from web.errors import ApiError


@pytest.mark.parametrize("event", [{"type": "card", "id": "incube"},
                                   {"type": "dice", "faces": ["red", "white", "yellow"]}])
def test_an_event_after_the_end_of_a_game_is_refused_not_a_500(playing, session, event):
    reply = playing.send({"type": "adjust", "hero": "teagaan", "life": 0})
    assert reply.status_code == 200, reply.json
    assert session.view()["status"] == "lost"
    reply = playing.send(event)
    assert reply.status_code == 422, reply.json
    assert reply.json["error"] == "game.over"
    assert reply.json["params"]["status"] == "lost"
    assert session.version == 2, "nothing was written"


def test_the_simulated_draw_racing_the_end_is_refused_not_a_500(playing, session):
    assert playing.send({"type": "adjust", "hero": "teagaan", "life": 0}).status_code == 200
    reply = playing.post("/api/simulate/draw")
    assert reply.status_code in (409, 422), reply.json
    assert session.version == 2


@pytest.mark.parametrize("name", ["status", "key", "params", "game", "self", "cls", "error"])
def test_any_parameter_name_passes_through_a_refusal(name):
    """The class of bug: the refusal's fields are positional-only, so no parameter of a rule's
    refusal can collide with them on its way to the page."""
    rule = RuleError("x.y", **{name: 1})
    assert ApiError.from_rule(rule).params == {name: 1}
    assert ApiError(400, "x.y", **{name: 1}).params == {name: 1}
    assert StoreError("store.x", **{name: 1}).params == {name: 1}
