"""A routine turn of each game besides Last Bastion on a 360 × 740 and a 430 × 932 phone (issue
17): no sideways scroll, no serious or critical axe-core finding, and what the host taps next
(Runemasters' one-tap dice, Last Heroes' card to play and End the turn, Attack on Titan's Roll,
Actions to resolve and step's end) in the first screen. benchmarks/taps.py counts the taps of
the same turns."""

from __future__ import annotations

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "tests" / "games" / "runemasters"))

from demos import demo  # noqa: E402
from runemasters_helpers import TAUGHT  # noqa: E402  (the tests' made-up weak points)
from test_accessibility import clean  # noqa: E402
from test_e2e import ApiHost, at_version, browser, server  # noqa: E402, F401
from test_phone_layout import (  # noqa: E402, F401  (size: the fixture)
    SIZES,
    host_phone,
    in_first_screen,
    no_sideways_scroll,
    shoot_first_screen,
    size,
)
from webtools import GAME_SETUPS  # noqa: E402


def step(page, selector: str) -> None:
    """The control is in the first screen and the page does not scroll sideways; tap it and
    wait until the page shows all that it made the table do (one roll of Attack on Titan's
    heroes is one event per hero)."""
    no_sideways_scroll(page)
    in_first_screen(page, selector)
    before = page.evaluate("app.version")
    page.locator(selector).first.click()
    at_version(page, page.evaluate("app.busy.then((data) => data ? data.version : -1)"))
    assert page.evaluate("app.version") > before, selector


def test_a_runemasters_turn_fits_the_first_screen(browser, server, size):  # noqa: F811
    """«Au début de votre tour, lancez 4 dés [...] mettez de côté le(s) dé(s) choisi(s) et
    résolvez l'action correspondante» (runemasters.fr.txt, "Actions liées aux runes"): each die
    is one tap."""
    page = host_phone(browser, server, size)
    at_version(page, ApiHost(server.url).send({**GAME_SETUPS["runemasters"],
                                                "definitions": TAUGHT}))
    while page.evaluate("app.pic.view.expects.kind") == "card":
        step(page, "button[data-act=draw]")
    step(page, "button[data-act=roll]")
    assert page.evaluate("app.pic.view.taps.length") > 0
    if size == SIZES[0]:
        shoot_first_screen(page, "runemasters-host-dice")
    clean(page, "runemasters: one-tap dice")
    step(page, "button[data-act=tap]")
    step(page, "button[data-act=event][data-event=end_turn]")
    assert not page.errors


def test_a_last_heroes_turn_fits_the_first_screen(browser, server, size):  # noqa: F811
    """The card played is pointed at as printed (issue 39: its id was typed): its face, "Load
    it", the charger slot that pays, Play; then End the turn."""
    page = host_phone(browser, server, size)
    events = demo("last-heroes")
    at_version(page, ApiHost(server.url).send(*events[:7]))  # set-up and chargers
    play = events[7]
    card = "#host button[data-act=lh][data-k=card][data-v='flamethrower-3']"
    in_first_screen(page, card)
    page.click(card)
    page.click(f"#host button[data-act=lh][data-k=as][data-v={play['as']}]")
    page.click(f"#host button[data-act=lh][data-k=sources][data-v='{play['ammo'][0]}']")
    if size == SIZES[0]:
        shoot_first_screen(page, "last-heroes-host-play")
    clean(page, "last heroes: card to play")
    step(page, "#host button[data-act=lh-send]")
    step(page, "button[data-act=event][data-event=end_turn]")
    assert not page.errors


def test_an_attack_on_titan_round_fits_the_first_screen(browser, server, size):  # noqa: F811
    page = host_phone(browser, server, size)
    at_version(page, ApiHost(server.url).send(*demo("aot-last-stand")[:3]))
    commit = next(e for e in demo("aot-last-stand") if e["type"] == "commit")
    up = f"#host label.pick:has(input[name=up][value='{commit['up']}'])"
    in_first_screen(page, up)
    page.click(up)
    step(page, f"#host button[data-act=commit-down][data-card='{commit['down']}']")
    # «Une fois que tous les Héros sont satisfaits de leurs dés, l'étape 2 est terminée»
    # (attack-on-titan-last-stand.fr.txt, step 2): no end of step before every hero has rolled
    assert page.evaluate("app.pic.view.taps") == []
    while page.evaluate("app.pic.view.step") not in (1, 6):
        templates = page.evaluate("app.pic.view.expects.templates")
        if any((t.get("blank") or {}).get("kind") == "dice" for t in templates):
            step(page, "button[data-act=roll]")  # step 3 too: the dice given back, rerolled
        else:
            if "resolve" in page.evaluate("app.pic.view.expects.events"):
                clean(page, "attack on titan: Action to resolve")
            step(page, "button[data-act=tap]")  # the card suffered, or the step's end
    if page.evaluate("app.pic.view.step") == 6:  # the heroes end the round
        clean(page, "attack on titan: step 6")
        kinds = page.evaluate("app.pic.view.taps.map((e) => e.type)")
        step(page, f"button[data-act=tap][data-index='{kinds.index('next')}']")
        assert page.evaluate("[app.pic.view.round, app.pic.view.step]") == [2, 1]
    assert not page.errors
