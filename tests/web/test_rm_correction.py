"""Runemasters' correction form on a 360 × 740 phone, in English and French (issue 39, item 1:
no typed ids): a path's space is picked by its colour and number, a monster card by its printed
name, a wounded weak point by its place on the card; what was typed as ``red.1``,
``troll-green`` and ``0`` sends the same event."""

from __future__ import annotations

import pytest
from test_e2e import ApiHost, at_version, browser, server  # noqa: F401
from test_phone_layout import SIZES, host_phone, no_sideways_scroll
from webtools import GAME_SETUPS

ADJUST = "form[data-form=event][data-event=adjust]"
TROLL = {"type": "teach", "kind": "monster", "id": "troll-green",  # its weak points known
         "definition": {"weak_points": ["red", "blue"], "rewards": {"mana": 1, "life": 0}}}
NAMES = {"en": ("Red 1", "Green Troll"), "fr": ("Rouge 1", "Troll vert")}


@pytest.mark.parametrize("lang", ["en", "fr"])
def test_a_monster_put_on_a_space_is_pointed_at(browser, server, lang):  # noqa: F811
    page = host_phone(browser, server, SIZES[0])
    if lang == "fr":
        page.click("#lang-switch")
    at_version(page, ApiHost(server.url).send(GAME_SETUPS["runemasters"], TROLL))
    page.locator("details[data-details=event-adjust] > summary").click()
    form = page.locator(ADJUST)
    typed = form.locator("input[type=text]")
    assert sorted(typed.nth(i).get_attribute("name") for i in range(typed.count())) == \
        ["note"]  # only the note is typed
    space, card = NAMES[lang]
    assert form.locator("select[name=space] option[value='red.1']").inner_text().lower() == \
        space.lower()
    form.locator("select[name=card] option[value=troll-green]").wait_for(state="attached")
    assert form.locator("select[name=card] option[value=troll-green]").inner_text() == card
    form.locator("select[name=space]").select_option("red.1")
    form.locator("select[name=card]").select_option("troll-green")
    no_sideways_scroll(page)
    before = page.evaluate("app.version")
    form.locator("button:not([type=button])").last.click()
    at_version(page, before + 1)
    red = page.evaluate("app.pic.view.paths.red.spaces[0]")
    assert red["card"] == "troll-green"
    assert card in page.inner_text("#board")

    form = page.locator(ADJUST)  # its first weak point wounded: ticked, not typed
    form.locator("select[name=space]").select_option("red.1")
    form.locator("input[name=wounds][value='0']").check()
    form.locator("button:not([type=button])").last.click()
    at_version(page, before + 2)
    assert page.evaluate("app.pic.view.paths.red.spaces[0].wounds") == [0]
    assert not page.errors
