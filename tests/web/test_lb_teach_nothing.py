"""Teaching from the page that a printed Last Bastion effect does nothing at this table (issue
13, finding 3): a timing is printed text, effects, or nothing; "nothing" is sent as an empty
list, saved as such, and the companion stops asking about it
(tests/games/last_bastion/test_lb_teaching.py plays
the game side)."""

from __future__ import annotations

import json

from test_e2e import at_version, browser, server  # noqa: F401
from test_teach_effects import teach_form_on
from webtools import setup_event


def test_a_timing_may_be_described_as_nothing(viewer):
    kinds = viewer.get("/api/definitions?game=last-bastion").json["kinds"]
    face = {f["name"]: f for f in next(k for k in kinds if k["kind"] == "corruption")["fields"]}
    nothing = next(c for c in face["effects"]["choices"] if c["as"] == "nothing")
    assert (nothing["type"], nothing["min"], nothing["max"]) == ("list", 0, 0)


def test_the_api_teaches_an_empty_list_and_the_face_is_no_longer_asked(app, host):
    assert host.send(setup_event()).status_code == 200
    reply = host.send({"type": "teach", "kind": "corruption", "id": "corruption-2",
                       "definition": {"effects": []}})
    assert reply.status_code == 200, reply.json
    saved = app.extensions["companion"].session.definitions("last-bastion").load()
    assert saved["corruption"]["corruption-2"] == {"effects": []}


def test_the_owner_teaches_a_face_that_does_nothing_from_the_page(browser, server,  # noqa: F811
                                                                  tmp_path):
    host, form = teach_form_on(browser, server, setup_event(), "corruption", "corruption-2")
    form.locator("select[name='effects.as']").select_option("nothing")
    form.locator("button:not([data-act])").click()
    at_version(host, 2)
    saved = json.loads((tmp_path / "data" / "definitions" / "last-bastion.json").read_text())
    assert saved["corruption"]["corruption-2"] == {"effects": []}
    assert not host.errors
