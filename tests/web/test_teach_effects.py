"""Teaching Attack on Titan's abilities and Action cards from the page: ``/api/definitions``
describes a list of effects (each effect: its op of the game's vocabulary, then that op's fields)
and a count per symbol; the generated form sends them nested; a wrong effect is refused naming
its field and nothing is saved. In a real browser, the owner fills an ability's effects one after
the other. Until the health track and the heroes' lost symbols are taught, the page warns in
French and English, and "Teach it" opens the form on the hero."""

from __future__ import annotations

import json

from test_e2e import ApiHost, at_version, become_host, browser, expect, phone, server  # noqa: F401
from webtools import GAME_SETUPS, setup_event

ABILITY = {"cost": 3, "effects": [{"op": "devour", "amount": 1}, {"op": "crush"}]}


def described(viewer, kind: str) -> dict:
    kinds = viewer.get("/api/definitions?game=aot-last-stand").json["kinds"]
    return {f["name"]: f for f in next(k for k in kinds if k["kind"] == kind)["fields"]}


def test_effects_and_counts_are_described(viewer):
    shapes = described(viewer, "ability")["effects"]  # effects, or nothing at this table
    assert [(c["as"], c["type"]) for c in shapes["choices"]] == [("effects", "list"),
                                                                ("nothing", "list")]
    effects = shapes["choices"][0]
    assert (effects["max"], effects["item"]["type"]) == (None, "effect")
    ops = {o["op"]: o["fields"] for o in effects["item"]["ops"]}
    assert set(ops) == {"heal", "devour", "destroy", "strike", "crush", "obstruct",
                        "sudden_change", "frenzy", "attack"}
    assert [(f["name"], f["type"]) for f in ops["attack"]] == [("levels", "list"),
                                                               ("hearts", "number")]
    counter = described(viewer, "action")["counter"]
    symbols = next(f for f in counter["fields"] if f["name"] == "symbols")
    assert [f["name"] for f in symbols["fields"]] == ["combat", "tactic", "move", "cannon",
                                                      "dodge"]
    assert symbols["fields"][0] == {"name": "combat", "required": False, "type": "number",
                                    "min": 1, "max": 12}


def test_an_ability_and_an_action_are_taught_and_saved(app, host):
    host.send(GAME_SETUPS["aot-last-stand"])
    assert host.send({"type": "teach", "kind": "ability", "id": "basic.2",
                      "definition": ABILITY}).status_code == 200
    action = {"name": "Coup de pied", "titan": "basic", "effects": [
        {"op": "attack", "levels": [6, 7, 8], "hearts": 1}],
        "counter": {"type": "symbols", "symbols": {"combat": 2, "move": 1}}}
    assert host.send({"type": "teach", "kind": "action", "id": "basic-3",
                      "definition": action}).status_code == 200
    saved = app.extensions["companion"].session.definitions("aot-last-stand").load()
    assert saved["ability"]["basic.2"] == ABILITY and saved["action"]["basic-3"] == action


def test_a_wrong_effect_is_refused_naming_its_field(app, host, viewer):
    host.send(GAME_SETUPS["aot-last-stand"])
    version = viewer.get("/api/state").json["version"]
    for effect, field in (({"op": "explode"}, "ability.basic.2.effects[1]"),
                          ({"op": "heal"}, "ability.basic.2.effects[1].amount"),
                          ({"op": "heal", "amount": 40}, "ability.basic.2.effects[1].amount")):
        reply = host.send({"type": "teach", "kind": "ability", "id": "basic.2", "definition": {
            "cost": 2, "effects": [{"op": "crush"}, effect]}})
        assert reply.status_code == 400, reply.json
        assert reply.json["params"]["field"] == field and field in reply.json["message"]
    assert viewer.get("/api/state").json["version"] == version
    assert app.extensions["companion"].session.definitions("aot-last-stand").load() == {}


def open_teach_form(page) -> None:
    """Unfold "Teach a card" (again if a redraw of the host controls folded it meanwhile)."""
    kind = page.locator("select[name=teach-kind]")
    for _ in range(5):
        if kind.is_visible():
            return
        page.locator("details[data-details=teach-any] > summary").click()
        page.wait_for_timeout(200)
    expect(kind).to_be_visible()


def teach_form_on(browser, server, setup: dict, kind: str, item: str):  # noqa: F811
    """A host's phone on a table set up with ``setup``, its "Teach a card" form open on
    ``kind`` and ``item``: (the page, the form)."""
    host = phone(browser, server.url)
    become_host(host)
    at_version(host, ApiHost(server.url).send(setup))
    open_teach_form(host)
    form = host.locator("form[data-form=teach-any]")
    form.locator("select[name=teach-kind]").select_option(kind)
    form.locator("input[name=teach-id]").fill(item)
    return host, form


def test_the_owner_teaches_an_ability_from_the_page(browser, server, tmp_path):  # noqa: F811
    host, form = teach_form_on(browser, server, GAME_SETUPS["aot-last-stand"], "ability",
                               "basic.2")
    form.locator("input[name=cost]").fill("3")
    form.locator("select[name='effects.0.op']").select_option("devour")
    form.locator("button[data-act=more-items]").click()
    form.locator("select[name='effects.1.op']").select_option("crush")
    form.locator("button:not([data-act])").click()  # the amount to devour is missing
    expect(form.locator("[role=alert]")).to_contain_text("Effects 1: Amount")
    expect(form.locator("select[name='effects.1.op']")).to_have_value("crush")
    form.locator("input[name='effects.0.amount']").fill("1")
    form.locator("button:not([data-act])").click()
    at_version(host, 2)
    saved = json.loads((tmp_path / "data" / "definitions" / "aot-last-stand.json").read_text())
    assert saved["ability"]["basic.2"] == ABILITY
    expect(form.locator("input[name=teach-id]")).to_have_value("")  # emptied once taught
    assert not host.errors


def test_the_page_warns_until_the_track_and_symbols_are_taught(host, viewer):
    """The health track is not public and Sasha's symbol is blank in the rulebook («Sasha peut
    utiliser ses  comme s'ils étaient n'importe quel autre symbole.»): the page says so, in
    French and English, until both are taught from the page."""
    setup = GAME_SETUPS["aot-last-stand"]
    host.send({**setup, "heroes": [*setup["heroes"], {"name": "Zoé", "hero": "sasha",
                                                       "level": 5}]})
    picture = viewer.get("/api/state").json
    assert picture["view"]["health"]["assumed"] is True
    assert picture["view"]["heroes"]["sasha"]["power_off"] is True
    track, sasha = picture["texts"]["warnings"]
    assert "supposée" in track["fr"] and "assumed" in track["en"]
    assert "Sasha : pouvoir éteint" in sasha["fr"] and "Sasha's power is off" in sasha["en"]
    assert "Teach a card → Hero" in sasha["en"] and "--kind" not in sasha["en"]  # no terminal
    for kind, item, definition in (("track", "health", {"length": 18, "weak": 9, "kill": 14}),
                                   ("hero", "sasha", {"symbols": ["dodge"]})):
        assert host.send({"type": "teach", "kind": kind, "id": item,
                          "definition": definition}).status_code == 200
    picture = viewer.get("/api/state").json
    assert picture["texts"]["warnings"] == [] and picture["view"]["health"]["assumed"] is False
    assert picture["view"]["heroes"]["sasha"]["power_off"] is False


def test_teach_it_opens_the_form_on_the_hero(browser, server):  # noqa: F811
    host = phone(browser, server.url)
    become_host(host)
    setup = GAME_SETUPS["aot-last-stand"]
    at_version(host, ApiHost(server.url).send({**setup, "heroes": [
        *setup["heroes"], {"name": "Zoé", "hero": "conny", "level": 5}]}))
    expect(host.locator("#prompts")).to_contain_text("Conny's power is off")
    host.click("button[data-act=teach-hero][data-hero=conny]")
    form = host.locator("form[data-form=teach-any]")
    expect(form.locator("select[name=teach-kind]")).to_have_value("hero")
    expect(form.locator("input[name=teach-id]")).to_have_value("conny")
    form.locator("label.pick:has(input[name='symbols.0'][value=move])").click()
    form.locator("button:not([data-act])").click()
    at_version(host, 2)
    expect(host.locator("#heroes")).not_to_contain_text("Power off")
    assert not host.errors


def test_a_last_bastion_timing_is_printed_text_or_effects(viewer):
    card = {f["name"]: f for f in next(k for k in viewer.get(
        "/api/definitions?game=last-bastion").json["kinds"] if k["kind"] == "card")["fields"]}
    choices = card["exit"]["choices"]
    assert card["exit"]["type"] == "either"
    assert [(c["as"], c["type"]) for c in choices] == [("text", "text"), ("effects", "list"),
                                                       ("nothing", "list")]
    assert {o["op"] for o in choices[1]["item"]["ops"]} >= {"gain", "lose", "grip", "draw"}


def test_the_owner_teaches_a_cards_effects_from_the_page(browser, server, tmp_path):  # noqa: F811
    """A card's «Sortie» effect given as effects, not text, so the companion applies it itself
    (docs/cards.md, the effect vocabulary)."""
    host, form = teach_form_on(browser, server, setup_event(), "card", "grey-ghoul")
    form.locator("input[name=name]").fill("Grey ghoul")
    form.locator("label.pick:has(input[name=type][value=monster])").click()
    form.locator("label.pick:has(input[name=colour][value=red])").click()
    form.locator("input[name=resistance]").fill("3")
    form.locator("select[name='exit.as']").select_option("effects")
    form.locator("select[name='exit.0.op']").select_option("gain")
    form.locator("label.pick:has(input[name='exit.0.token'][value=call_to_arms])").click()
    form.locator("button:not([data-act])").click()
    at_version(host, 2)
    saved = json.loads((tmp_path / "data" / "definitions" / "last-bastion.json").read_text())
    assert saved["card"]["grey-ghoul"]["exit"] == [{"op": "gain", "token": "call_to_arms"}]
    assert not host.errors
