"""The effects a printed text had, given from the page without JSON, and no internal error from
any form (issue 17, finding 1).

A Last Bastion card whose arrival is printed text asks the table what it did (docs/cards.md,
"Effect vocabulary"). The old form let the host add ``{"op": "gain", "token": "equipment"}``
(shown as raw JSON, its target dropped, no colour asked) and the server crashed on it with
``KeyError: None``. Now each op shows exactly its fields, the colour of an Equipment token is
asked, what is missing is said before anything is sent, and the server refuses such an effect
with a 400 naming the field, before any rule runs. Every op of every game's effect vocabulary is
then walked through the page: none reaches an internal error.
"""

from __future__ import annotations

import json

import pytest
from test_e2e import ApiHost, at_version, become_host, browser, expect, phone, server  # noqa: F401
from test_teach_effects import open_teach_form
from webtools import GAME_SETUPS, setup_event

PRINTED = {"type": "teach", "kind": "card", "id": "xx", "definition": {
    "name": "Xx", "type": "monster", "colour": "red", "resistance": 2,
    "arrival": "Chaque héros gagne un jeton Équipement.", "complete": True}}
"""A card whose arrival is printed text: the table is asked what it did once it is placed."""

TO_THE_QUESTION = (setup_event(), PRINTED, {"type": "card", "id": "xx"},
                   {"type": "place", "slot": "red.0"})


def test_an_equipment_token_without_its_colour_is_refused_before_the_rules(playing, viewer):
    for event in TO_THE_QUESTION[1:]:
        assert playing.send(event).status_code == 200
    before = viewer.get("/api/state").json
    reply = playing.send({"type": "answer", "effects": [{"op": "gain", "token": "equipment"}]})
    assert reply.status_code == 400, reply.json
    assert reply.json["error"] == "effect.needs"
    assert reply.json["params"]["field"] == "effects[0].colour"
    assert "effects[0].colour" in reply.json["message"]
    assert viewer.get("/api/state").json["version"] == before["version"]
    french = playing.client.post("/api/events", json={"event": {
        "type": "answer", "effects": [{"op": "lose", "token": "equipment"}]}},
        headers={"X-CSRF-Token": playing.csrf, "X-Companion-Lang": "fr"})
    playing.csrf = french.headers.get("X-CSRF-Token", playing.csrf)
    assert french.status_code == 400 and "manque" in french.json["message"]


def test_the_definitions_say_when_a_colour_is_needed(viewer):
    card = next(k for k in viewer.get("/api/definitions?game=last-bastion").json["kinds"]
                if k["kind"] == "card")
    timing = next(f for f in card["fields"] if f["name"] == "arrival")
    ops = {o["op"]: o for o in next(c for c in timing["choices"]
                                    if c["as"] == "effects")["item"]["ops"]}
    colour = next(f for f in ops["gain"]["fields"] if f["name"] == "colour")
    assert colour["needed_when"] == {"field": "token", "value": "equipment"}
    assert [f["name"] for f in ops["grip"]["fields"]] == ["target"]


def at_the_question(browser, server):  # noqa: F811
    host = phone(browser, server.url)
    become_host(host)
    at_version(host, ApiHost(server.url).send(*TO_THE_QUESTION))
    expect(host.locator("form[data-form=answer-effects]")).to_be_visible()
    return host


def test_gain_equipment_asks_its_colour_and_is_applied(browser, server):  # noqa: F811
    host = at_the_question(browser, server)
    form = host.locator("form[data-form=answer-effects]")
    form.locator("select[name='effects.0.op']").select_option("gain")
    # exactly gain's fields: the token, the amount; no target; the colour once it is Equipment
    assert form.locator("[name='effects.0.target']").count() == 0
    expect(form.locator("input[name='effects.0.colour']")).to_have_count(0)
    form.locator("label.pick:has(input[name='effects.0.token'][value=equipment])").click()
    expect(form.locator("input[name='effects.0.colour']")).not_to_have_count(0)
    requests: list[str] = []
    host.on("request", lambda r: requests.append(r.url) if "/api/events" in r.url else None)
    form.locator("button.strong").click()
    expect(form.locator("[role=alert]")).to_contain_text("Colour")
    assert requests == []  # said in the form: nothing was sent
    form.locator("label.pick:has(input[name='effects.0.colour'][value=red])").click()
    form.locator("button.step[data-by='1']").click()
    form.locator("button.step[data-by='1']").click()
    expect(form.locator("input[name='effects.0.amount']")).to_have_value("2")
    form.locator("button.strong").click()
    at_version(host, 5)
    assert host.evaluate("app.pic.view.heroes.teagaan.equipment.red") == 2
    assert "{" not in host.locator("#host").inner_text()  # no raw JSON anywhere
    assert not host.errors


EMPTY = """([selector, scope]) => {
  const form = document.querySelector(selector);
  const fields = [...form.querySelectorAll(`[name^="${scope}"]`)]
    .filter((f) => !f.name.endsWith('.op') && !f.name.endsWith('.as'));
  const empty = fields.find((f) => (f.type === 'radio'
    ? !form.querySelector(`input[name="${f.name}"]:checked`) : !f.value));
  return empty ? {name: empty.name, type: empty.type, tag: empty.tagName} : null;
}"""
"""The first field under a name prefix that has no value yet (a radio group: none chosen)."""


def fill_every_field(page, selector: str, scope: str) -> None:
    """Give every field drawn under ``scope`` (a name prefix) a value, one at a time as the form
    redraws: the first chip of each group, one step up for a number, a word, the first choice
    of a list; fields that appear meanwhile (an Equipment token's colour) too."""
    for _ in range(12):
        empty = page.evaluate(EMPTY, [selector, scope])
        if empty is None:
            return
        field = page.locator(f"{selector} [name='{empty['name']}']").first
        if empty["type"] == "radio":
            field.locator("xpath=..").click()
        elif empty["type"] == "number":
            field.locator("xpath=..").locator("button[data-by='1']").click()
        elif empty["tag"] == "SELECT":
            field.select_option(index=1)
        else:
            field.fill("1")
    raise AssertionError(f"fields under {scope} never all filled")


def ops_of(page, game: str) -> dict[str, list[str]]:
    """Each kind of ``game`` with an effect list, and its ops (from /api/definitions)."""
    kinds = page.evaluate("""async (game) => (await (await fetch('/api/definitions?game=' +
        game)).json()).kinds""", game)
    found: dict[str, list[str]] = {}
    for kind in kinds:
        for field in kind["fields"]:
            shapes = field.get("choices") or [field]
            for shape in shapes:
                if shape["type"] == "list" and shape["item"]["type"] == "effect":
                    found.setdefault(f"{kind['kind']}/{field['name']}",
                                     [o["op"] for o in shape["item"]["ops"]])
    return found


def watch_errors(page) -> list[int]:
    statuses: list[int] = []
    page.on("response", lambda r: statuses.append(r.status) if "/api/" in r.url else None)
    return statuses


def test_every_answer_op_is_applied_or_refused_never_an_internal_error(
        browser, server):  # noqa: F811
    host = at_the_question(browser, server)
    api = ApiHost(server.url)
    statuses = watch_errors(host)
    ops = ops_of(host, "last-bastion")["card/arrival"]
    assert len(ops) == 8
    for op in ops:
        form = host.locator("form[data-form=answer-effects]")
        form.locator("select[name='effects.0.op']").select_option(op)
        fill_every_field(host, "form[data-form=answer-effects]", "effects.0.")
        before = host.evaluate("app.version")
        form.locator("button.strong").click()
        if host.evaluate("app.busy.then(() => app.version)") > before:  # accepted: undo it
            at_version(host, api.send({"type": "undo"}))
        expect(host.locator("form[data-form=answer-effects]")).to_be_visible()
    assert statuses and max(statuses) < 500, statuses
    assert not host.errors


@pytest.mark.parametrize("game", ["last-bastion", "aot-last-stand"])
def test_every_op_of_every_teach_form_is_saved_or_refused_never_an_error(
        browser, server, game):  # noqa: F811
    host = phone(browser, server.url)
    become_host(host)
    at_version(host, ApiHost(server.url).send(setup_event() if game == "last-bastion"
                                              else GAME_SETUPS[game]))
    statuses = watch_errors(host)
    walked = 0
    for where, ops in ops_of(host, game).items():
        kind, field = where.split("/")
        for op in ops:
            open_teach_form(host)
            form = host.locator("form[data-form=teach-any]")
            form.locator("select[name=teach-kind]").select_option(kind)
            form.locator("input[name=teach-id]").fill(f"walk-{op}")
            if form.locator(f"select[name='{field}.as']").count():
                form.locator(f"select[name='{field}.as']").select_option("effects")
            form.locator(f"select[name='{field}.0.op']").select_option(op)
            fill_every_field(host, "form[data-form=teach-any]", f"{field}.0.")
            form.locator("button:not([data-act])").last.click()
            host.evaluate("app.busy")  # the teach sent (and shown) or refused
            walked += 1
    assert walked >= 8
    assert statuses and max(statuses) < 500, statuses
    assert not host.errors


def test_an_unknown_effect_answered_is_remembered_for_the_card(browser, server, tmp_path):  # noqa: F811
    """«Apply the arrival effect printed on Incube, if it has one, then teach it once»: the
    answer is taught with it (unless the host unticks "Remember"), so Incube's arrival is not
    asked about again, in this game or the next."""
    host = phone(browser, server.url)
    become_host(host)
    at_version(host, ApiHost(server.url).send(setup_event(), {"type": "card", "id": "incube"},
                                              {"type": "place", "slot": "red.0"}))
    expect(host.locator("label.remember")).to_contain_text("Remember it for Incube")
    host.click("button[data-act=answer-none]")
    at_version(host, 5)  # the answer, then what it taught
    saved = json.loads((tmp_path / "data" / "definitions" / "last-bastion.json").read_text())
    assert saved["card"]["incube"]["arrival"] == []
    assert not host.errors
