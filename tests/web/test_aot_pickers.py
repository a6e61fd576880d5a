"""Attack on Titan's pickers on the table's phone (issue 39, items 1 and 3), at 360 × 740: the
Tactic on top is a chip at set-up and a tap when the table is asked («Which Tactic card is on
top?» had no control); the printed effect the table applies has its form on the host's page
("Say what the printed effect did" had none); the face-up card picked for the commit survives a
redraw caused by another phone. Rulebook: ../shared/rules/attack-on-titan-last-stand.fr.txt
(«Mise en place»: the Tactic pile; «Capacités du Titan»)."""

from __future__ import annotations

from test_aot_round_taps import PHONE, nothing_wider
from test_e2e import ApiHost, at_version, become_host, browser, expect, server  # noqa: F401
from test_phone_layout import in_first_screen

ROLLS = [{"type": "roll", "hero": "eren", "faces": ["titan", "titan", "move", "move", "dodge"]},
         {"type": "roll", "hero": "mikasa", "faces": ["combat"] * 5}]


def host_page(browser, server):  # noqa: F811
    page = browser.new_context(viewport=PHONE).new_page()
    page.goto(server.url)
    become_host(page)
    return page


def test_the_tactic_on_top_is_picked_at_setup(browser, server):  # noqa: F811
    page = host_page(browser, server)
    page.select_option("select[name=game-choice]", "aot-last-stand")
    page.fill("input[name=titan-name]", "Théo")
    page.fill("input[name=h0-name]", "Corentin")
    page.fill("input[name=h1-name]", "Léa")
    page.click("form[data-form=setup] label.pick:has-text('Healing')")
    page.click("form[data-form=setup] button:not([type=button])")
    at_version(page, 1)
    assert page.evaluate("app.pic.view.tactic.top") == "guerison"
    nothing_wider(page)


def test_the_titans_name_is_asked_for_not_said_optional(browser, server):  # noqa: F811
    """The Titan is a player («le joueur Titan», «Mise en place»): its name field is required,
    so its placeholder does not say "empty: no player" as the heroes' do (issue 39, item 5)."""
    page = host_page(browser, server)
    page.select_option("select[name=game-choice]", "aot-last-stand")
    for lang, optional in (("en", "no player"), ("fr", "pas de joueur")):
        page.evaluate(f"app.lang === '{lang}' || document.querySelector('#lang-switch').click()")
        titan = page.locator("input[name=titan-name]")
        assert titan.get_attribute("required") is not None
        shown = titan.get_attribute("placeholder")
        assert shown and optional not in shown, shown
        assert optional in page.locator("input[name=h0-name]").get_attribute("placeholder")


def test_the_table_names_the_top_tactic_and_says_what_a_printed_effect_did(browser, server):  # noqa: F811,E501
    page = host_page(browser, server)
    api = ApiHost(server.url)
    version = api.send({"type": "setup", "game": "aot-last-stand",
                        "titan": {"name": "Théo", "card": "basic"},
                        "heroes": [{"name": "Corentin", "hero": "eren", "level": 0},
                                   {"name": "Léa", "hero": "mikasa", "level": 3}]})
    at_version(page, version)
    top = "button[data-act=tap]:has-text('On top: Rescue')"
    in_first_screen(page, top)
    page.click(top)
    at_version(page, version + 1)
    assert page.evaluate("app.pic.view.tactic.top") == "sauvetage"
    version = api.send({"type": "commit", "up": "pietinement", "down": "frenesie"}, *ROLLS,
                       {"type": "next"}, {"type": "ability", "n": 2, "define": {"cost": 1}})
    at_version(page, version)
    form = page.locator("#host form[data-form=answer]")
    in_first_screen(page, "#host form[data-form=answer] button:not([type=button])")
    form.locator("button:not([type=button])").last.click()  # nothing on the table changed
    at_version(page, version + 1)
    assert page.evaluate("app.pic.view.prompts.filter((p) => p.id === 'text').length") == 0
    nothing_wider(page)


def test_the_picked_card_survives_a_redraw(browser, server):  # noqa: F811
    page = host_page(browser, server)
    api = ApiHost(server.url)
    at_version(page, api.send({"type": "setup", "game": "aot-last-stand",
                               "titan": {"name": "Théo", "card": "basic"},
                               "heroes": [{"name": "Corentin", "hero": "eren", "level": 0},
                                          {"name": "Léa", "hero": "mikasa", "level": 3}]}))
    page.click("#host label.pick:has-text('Frenzy')")
    version = api.send({"type": "top", "card": "decapitation"})  # another phone: a redraw
    at_version(page, version)
    expect(page.locator("#host input[name=up][value=frenesie]")).to_be_checked()
    page.click("#host button[data-act=commit-down]:has-text('Stomp')")
    at_version(page, version + 1)
    assert page.evaluate("app.pic.view.actions[0].card") == "frenesie"


def test_an_ability_or_action_may_be_taught_as_doing_nothing(viewer):
    """The teaching forms of the Titan's abilities and Action cards offer "does nothing here"
    (issue 39, item 4), sent as an empty list of effects, as Last Bastion's timings do."""
    kinds = viewer.get("/api/definitions?game=aot-last-stand").json["kinds"]
    for kind in ("ability", "action"):
        fields = {f["name"]: f for f in next(k for k in kinds if k["kind"] == kind)["fields"]}
        shapes = {c["as"]: c for c in fields["effects"]["choices"]}
        assert shapes["effects"]["type"] == "list"
        assert (shapes["nothing"]["min"], shapes["nothing"]["max"]) == (0, 0)
