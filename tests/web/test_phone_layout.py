"""One screen per decision on a phone (issue 17, findings 3 and 4), at 360 × 740 and 430 × 932.

No page scrolls sideways (the set-up form was 836 px wide); what the host acts on (the board's
slots and tiles, die faces, Confirm) and the action's buttons are in the first screen without
scrolling; the header says the outcome before Confirm; controls the rules would refuse for this
table are not offered (a reroll without Feng Li, "Who moves" when one hero only may move), and a
white die at the Market asks its colour (rulebook, «Le Marché»: a white face is any colour).
"""

from __future__ import annotations

import pytest
from test_e2e import (  # noqa: F401
    ApiHost,
    at_version,
    become_host,
    browser,
    expect,
    server,
    shoot,
)
from webtools import GAME_SETUPS, setup_event

INCUBE = {"type": "card", "id": "incube", "define": {"complete": True}}
"""The rulebook's Incube, known whole (no question about its arrival)."""
SIZES = [{"width": 360, "height": 740}, {"width": 430, "height": 932}]
GAMES = ["last-bastion", "runemasters", "aot-last-stand", "last-heroes"]


@pytest.fixture(params=SIZES, ids=lambda s: f"{s['width']}x{s['height']}")
def size(request):
    return request.param


def host_phone(browser, server, size):  # noqa: F811
    page = browser.new_context(viewport=size).new_page()
    page.errors = []
    page.on("pageerror", lambda error: page.errors.append(str(error)))
    page.goto(server.url)
    become_host(page)
    return page


def shoot_first_screen(page, name: str) -> None:
    """The first screen only (what the host sees without scrolling), for docs/screenshots."""
    page.evaluate("window.scrollTo(0, 0)")
    shoot(page, name, full_page=False)


def no_sideways_scroll(page) -> None:
    wide = page.evaluate("""() => [...document.querySelectorAll('body *')]
        .filter((e) => e.getBoundingClientRect().right > window.innerWidth + 0.5 &&
                       !e.closest('[hidden], details:not([open]) > :not(summary)'))
        .map((e) => e.tagName + '.' + e.className + '#' + (e.name || e.id))""")
    assert page.evaluate("document.documentElement.scrollWidth") <= page.viewport_size["width"], \
        wide[:5]


def in_first_screen(page, selector: str) -> None:
    """Every element matching ``selector`` is inside the first screen, the page not scrolled."""
    page.evaluate("window.scrollTo(0, 0)")
    boxes = page.locator(selector)
    assert boxes.count(), selector
    height = page.viewport_size["height"]
    for i in range(boxes.count()):
        box = boxes.nth(i).bounding_box()
        assert box and box["y"] >= 0 and box["y"] + box["height"] <= height, (selector, i, box)


@pytest.mark.parametrize("game", GAMES)
def test_no_set_up_form_and_no_first_screen_scrolls_sideways(browser, server, size, game):  # noqa: F811
    page = host_phone(browser, server, size)
    page.select_option("select[name=game-choice]", game)
    expect(page.locator(f"form[data-form=setup][data-game={game}]")).to_be_visible()
    no_sideways_scroll(page)
    in_first_screen(page, "select[name=game-choice]")
    at_version(page, ApiHost(server.url).send(setup_event() if game == "last-bastion"
                                              else GAME_SETUPS[game]))
    no_sideways_scroll(page)
    page.locator("#host-more details").first.locator("summary").click()
    no_sideways_scroll(page)
    assert not page.errors


def test_a_last_bastion_turn_fits_one_screen_per_decision(browser, server, size):  # noqa: F811
    page = host_phone(browser, server, size)
    api = ApiHost(server.url)
    at_version(page, api.send(setup_event(), INCUBE))
    in_first_screen(page, ".slot.picked")  # where the card may go, to tap
    page.locator(".slot.picked").first.click()
    at_version(page, 3)
    in_first_screen(page, "#host .actions button")
    in_first_screen(page, "#board .grid")  # every tile and slot to tap
    if size["width"] == 360:
        shoot_first_screen(page, "phone-360-hero-phase")
    page.locator('[data-tile="0,0"]').click()  # a tile tapped is a move, no mode first
    at_version(page, 4)
    version = api.send({"type": "adjust", "hero": "teagaan", "equipment": {"red": 1}})
    at_version(page, version)
    page.locator('[data-slot="red.0"]').click()  # a card tapped is a fight against it
    at_version(page, version + 1)
    in_first_screen(page, "#host .dice button")
    for i, face in enumerate(["red", "green", "blue"]):  # the third face sends the roll
        page.locator(f"button[data-act=face][data-die='{i}'][data-face={face}]").click()
    at_version(page, version + 2)
    headline = page.locator("#headline")
    expect(headline).to_contain_text("Won: Incube falls — Gary spends red")
    in_first_screen(page, "#headline .result")
    in_first_screen(page, "button[data-act=resolve]")
    expect(page.locator("button[data-act=mode-reroll]")).to_have_count(0)  # no Feng Li here
    if size["width"] == 360:
        shoot_first_screen(page, "phone-360-result")
    no_sideways_scroll(page)
    assert not page.errors


def test_feng_li_is_offered_her_reroll(browser, server):  # noqa: F811
    page = host_phone(browser, server, SIZES[0])
    version = ApiHost(server.url).send(
        setup_event(hero="feng_li"),
        {"type": "card", "id": "incube", "slot": "red.0", "define": {"complete": True}},
        {"type": "move", "hero": "feng_li", "to": [0, 0]},
        {"type": "fight", "targets": ["red.0"]}, {"type": "dice", "faces": ["green"] * 3})
    at_version(page, version)
    expect(page.locator("#headline .result")).to_contain_text("Lost: Incube holds")
    expect(page.locator("button[data-act=mode-reroll]")).to_have_text("Reroll (Gary (Feng Li))")


def two_players(first: str) -> dict:
    event = setup_event(hero=first)
    event["players"].append({"name": "Bo", "hero": "teagaan", "side": "N"})
    return event


@pytest.mark.parametrize(("hero", "choice"), [("elmer", True), ("kazgin", False)])
def test_who_moves_is_asked_only_when_several_heroes_may(browser, server, hero, choice):  # noqa: F811
    """Elmer & Almond's power: «un déplacement supplémentaire ... pour lui ou pour un autre
    héros» (catalog, heroes); anyone else moves only themself."""
    page = host_phone(browser, server, SIZES[0])
    api = ApiHost(server.url)
    at_version(page, api.send(two_players(hero), INCUBE))
    page.locator(".slot.picked").first.click()
    at_version(page, 3)
    page.click("button[data-act=mode-move]")
    expect(page.locator("select[name=mover]")).to_have_count(1 if choice else 0)


def test_a_white_die_at_the_market_asks_its_colour(browser, server):  # noqa: F811
    page = host_phone(browser, server, SIZES[0])
    api = ApiHost(server.url)
    version = api.send(setup_event(), {"type": "card", "id": "incube", "slot": "red.0",
                                       "define": {"complete": True}},
                       {"type": "move", "hero": "teagaan", "to": [0, 0]},
                       {"type": "activate", "tile": "market"},
                       {"type": "dice", "faces": ["white", "blue"]})
    at_version(page, version)
    confirm = page.locator("button[data-act=resolve]")
    expect(confirm).to_be_disabled()  # the white die's colour is not chosen yet
    page.locator("fieldset.white-die label.pick.c-black").click()
    expect(confirm).to_be_enabled()
    confirm.click()
    at_version(page, version + 1)
    equipment = page.evaluate("app.pic.view.heroes.teagaan.equipment")
    assert equipment["black"] == 1 and equipment["blue"] == 1
    assert not page.errors
