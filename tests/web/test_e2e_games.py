"""End to end for the games besides Last Bastion: the host picks the game in the new-game form,
fills its own setup form, plays one step (Last Heroes: after teaching a weapon's ammo from the
"Teach a card" form, which Runemasters opens on a monster drawn untaught); a second, phone-sized
page follows. With
``COMPANION_SCREENSHOTS`` each game's live page is saved (see docs/web.md)."""

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


def start(browser, server, game: str):  # noqa: F811
    """A viewer and a host; the host has chosen ``game`` in the new-game form."""
    viewer = phone(browser, server.url)
    host = phone(browser, server.url)
    at_version(viewer, 0)
    become_host(host)
    host.select_option("select[name=game-choice]", game)
    return viewer, host


def test_runemasters_from_the_host_page(browser, server):  # noqa: F811
    viewer, host = start(browser, server, "runemasters")
    host.fill("input[name=player-kulak]", "Ann")
    host.click("form[data-form=setup] button")
    at_version(viewer, 1)
    expect(viewer.locator("#deck")).to_contain_text("Temple ♥ 6/6")
    expect(viewer.locator(".path")).to_have_count(4)
    host.click("button[data-act=draw]")
    at_version(viewer, 2)
    expect(viewer.locator(".space.card")).to_have_count(1)
    drawn = viewer.evaluate("app.pic.view.prompts.find((p) => p.answer === 'teach').params.card")
    teach = host.locator("form[data-form=teach-any]")  # opened on the card to teach
    expect(teach.locator("input[name=teach-id]")).to_have_value(drawn)
    expect(teach.locator("[name='weak_points.0']").first).to_be_visible()
    shoot(viewer, "runemasters-phone")
    assert not viewer.errors and not host.errors


def fill_aot_setup(host) -> None:
    """The host names the Titan's player and two heroes' in Attack on Titan's setup form."""
    host.fill("input[name=titan-name]", "Théo")
    host.fill("input[name=h0-name]", "Corentin")
    host.fill("input[name=h1-name]", "Léa")


def commit_aot_cards(host) -> None:
    """The host sends the Titan's two cards of step 1 by their printed names: one face up, then
    one face down (the second tap sends both)."""
    host.click("#host label.pick:has(input[name=up][value=pietinement])")
    host.click("#host button[data-act=commit-down][data-card=frenesie]")


def test_attack_on_titan_from_the_host_page(browser, server):  # noqa: F811
    viewer, host = start(browser, server, "aot-last-stand")
    fill_aot_setup(host)
    host.click("form[data-form=setup] button")
    at_version(viewer, 1)
    expect(viewer.locator("#headline")).to_contain_text("Step 1/7")
    commit_aot_cards(host)
    at_version(viewer, 2)
    expect(viewer.locator("#headline")).to_contain_text("Step 2/7")
    expect(viewer.locator("#heroes .hero")).to_have_count(2)
    assert "frenesie" not in viewer.evaluate("JSON.stringify([app.pic, app.log])")
    shoot(viewer, "aot-phone")
    assert not viewer.errors and not host.errors


def load_charger(host) -> None:
    """The host puts a Flamethrower HIT! in Ana's charger: the card as printed, its ammo (nobody
    taught it) as icons (issue 39: the id was typed, and refused until taught)."""
    host.locator("#host button[data-act=lh][data-k=card]").first.click()
    host.locator("#host button[data-act=lh][data-k=ammo][data-v='2']").click()
    host.locator("#host button[data-act=lh-send]").click()


def test_last_heroes_from_the_host_page(browser, server):  # noqa: F811
    viewer, host = start(browser, server, "last-heroes")
    for hero, player in (("blind", "Ana"), ("echo", "Ben"), ("ace", "Cleo")):
        host.fill(f"input[name=name-{hero}]", player)
    host.click("form[data-form=setup] button")
    at_version(viewer, 1)
    expect(viewer.locator("#headline")).to_contain_text("Turn 0/10")
    expect(viewer.locator(".column")).to_have_count(3)
    expect(viewer.locator("#heroes .hero")).to_have_count(3)
    expect(host.locator("#host button[data-act=lh][data-k=card]")).to_have_count(9)
    load_charger(host)
    at_version(viewer, 2)
    expect(viewer.locator("#heroes .hero").first).to_contain_text("●●")
    correction = host.locator("details[data-details=event-adjust]")
    if not correction.evaluate("(details) => details.open"):
        correction.locator("summary").click()
    correction.locator("select[name=hero]").select_option("echo")
    correction.locator("input[name=charisma]").fill("2")
    correction.locator("input[name=note]").fill("forgot a CLICK")
    correction.locator("form button").click()
    at_version(viewer, 3)
    expect(viewer.locator("#heroes .hero").nth(1)).to_contain_text("Charisma 2")
    shoot(viewer, "last-heroes-phone")
    assert not viewer.errors and not host.errors


def test_what_the_host_types_survives_an_event_from_the_table(browser, server):  # noqa: F811
    """The controls are redrawn at every change of the table: a half-typed correction stays;
    sent, it corrects the Temple's Life («Le Temple ... points de vie», rulebook setup), and the
    form starts afresh."""
    viewer, host = start(browser, server, "runemasters")
    host.fill("input[name=player-kulak]", "Ann")
    host.click("form[data-form=setup] button")
    at_version(host, 1)
    correction = host.locator("details[data-details=event-adjust]")
    if not correction.evaluate("(details) => details.open"):
        correction.locator("summary").click()
    note = correction.locator("input[name=note]")
    note.fill("the Temple lost a point")
    ApiHost(server.url).send({"type": "card", "id": "troll-green"})  # from another phone
    at_version(host, 2)
    expect(note).to_have_value("the Temple lost a point")
    correction.locator("input[name=temple]").fill("5")
    correction.locator("form button").click()
    at_version(viewer, 3)
    expect(viewer.locator("#deck")).to_contain_text("Temple ♥ 5/6")
    expect(note).to_have_value("")
    assert not host.errors
