"""End to end in a real browser: the Titan player's phone, opened from the host's role link,
commits its two Action cards (two taps on their printed names), spends its Titan faces on its
first ability, then on its second (its cost on a stepper, and what its printed text did said in
the effect vocabulary) and gives the dice back, while a heroes' phone follows; the hidden card
never reaches the heroes' page.
Rulebook: «Théo [...] choisit de les dépenser afin d'utiliser sa première aptitude : son Titan
dévore donc un Citoyen»; «Il peut éventuellement déclencher plusieurs fois la même capacité».
"""

from __future__ import annotations

from test_e2e import (  # noqa: F401
    ApiHost,
    at_version,
    become_host,
    browser,
    expect,
    phone,
    server,
    shoot,
)
from webtools import GAME_SETUPS

ROLLS = {"eren": ["titan", "titan", "titan", "titan", "move"], "mikasa": ["combat"] * 5}


def test_the_titan_phone_spends_an_ability(browser, server):  # noqa: F811
    become_host(phone(browser, server.url))  # chooses the PIN
    api = ApiHost(server.url)
    api.send(GAME_SETUPS["aot-last-stand"])
    link = api._post("api/role/titan", {})["link"]
    viewer = phone(browser, server.url)
    titan = phone(browser, server.url.rstrip("/") + link)
    at_version(viewer, 1)
    titan.click("#role label.pick:has-text('Stomp')")
    titan.click("#role button[data-act=titan-down]:has-text('Frenzy')")
    at_version(viewer, 2)
    version = api.send(*({"type": "roll", "hero": h, "faces": f} for h, f in ROLLS.items()),
                       {"type": "next"})
    at_version(titan, version)
    ability = titan.locator("button[data-act=titan-tap]:has-text('Ability 1')")
    expect(ability).to_be_enabled()
    expect(titan.locator("button[data-act=titan-tap]:has-text('Ability 3')")).to_have_count(0)
    ability.click()
    at_version(viewer, version + 1)
    at_version(titan, version + 1)  # the titan's page re-renders its forms: fill the new ones
    expect(viewer.locator("#deck")).to_contain_text("Citizens 11")
    define = titan.locator("form[data-form=titan-define-2]")  # ability 2: cost unknown
    define.locator("button[data-by='1']").click()
    define.locator("button[data-by='1']").click()
    titan.evaluate("loadRole()")  # the role's page is redrawn (another phone's event does it)
    expect(define.locator("input[name=cost]")).to_have_value("2")  # what was chosen survives
    define.locator("button:not([data-act])").click()
    at_version(viewer, version + 2)
    at_version(titan, version + 2)
    answer = titan.locator("form[data-form=titan-answer]")
    answer.locator("select[name='effects.0.op']").select_option("devour")
    answer.locator("input[name='effects.0.amount']").fill("2")
    answer.locator("button:not([data-act])").click()
    at_version(viewer, version + 3)
    expect(viewer.locator("#deck")).to_contain_text("Citizens 9")
    titan.click("button[data-act=titan-tap]:has-text('Give the dice back')")
    at_version(viewer, version + 4)
    expect(viewer.locator("#headline")).to_contain_text("Step 4/7")
    expect(titan.locator("#role")).to_contain_text("Face-down card: Frenzy")
    assert "frenesie" not in viewer.evaluate("JSON.stringify([app.pic, app.log])")
    shoot(titan, "aot-titan-phone")
    assert not viewer.errors and not titan.errors
