"""No 500 for a refusal (issue 40, item 3): an event after the end of a game is refused
``game.over`` with its ``status`` parameter, which once collided with ``ApiError``'s own
``status`` and answered 500; and a write the disk refuses behind any request is a 507 or 503."""

from __future__ import annotations

import errno
import os

import pytest
from test_box import UID, box_app, quiet, table  # noqa: F401
from webtools import login

from companion.engine import RuleError, StoreError
from companion.engine.tags import TagMap
from hardware.inputs import Swipe
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


def refusing(monkeypatch, code: int) -> None:
    """The tag map's writes fail with the system error ``code`` (at the storage boundary)."""
    from companion.engine import tags

    def refused(path, data):
        raise OSError(code, os.strerror(code), str(path))
    monkeypatch.setattr(tags, "write_atomic", refused)


def test_a_write_the_disk_refuses_behind_any_request_is_refused_not_a_500(
        box_app, table, session, monkeypatch):  # noqa: F811
    """Naming a swiped tag writes ``tags.json``: on a full disk (the kernel's ENOSPC) the host
    gets 507 and the page's sentence, on a read-only one (EROFS) 503; the tag stays unknown and
    still waits to be named."""
    host = login(box_app)
    table.swipe(Swipe(UID, "fake reader"))
    for code, status in ((errno.ENOSPC, 507), (errno.EROFS, 503)):
        refusing(monkeypatch, code)
        reply = host.post("/api/box/enroll", {"card": "incube"})
        assert reply.status_code == status, reply.json
        assert "nothing was written" in reply.json["message"]
        assert reply.json["params"]["path"].endswith("tags.json")
        assert host.client.get("/api/box").json["pending_tag"]["uid"] == UID
    monkeypatch.undo()
    assert TagMap(session.data_dir).card(UID) is None
    assert host.post("/api/box/enroll", {"card": "incube"}).status_code == 200


def test_another_system_error_is_still_a_500(box_app, table, monkeypatch):  # noqa: F811
    """Only the errors that mean "cannot write here" are refusals; a bug stays visible."""
    host = login(box_app)
    table.swipe(Swipe(UID, "fake reader"))
    refusing(monkeypatch, errno.EBADF)
    box_app.testing = False
    assert host.post("/api/box/enroll", {"card": "incube"}).status_code == 500
