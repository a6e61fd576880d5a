"""End to end in a real browser at 360 × 740, in English and in French: the host corrects Attack
on Titan counts from the Correction form with pickers only (issue 39, item 1: no typed ids): a
hero's dice as chips of their faces (one tapped off, one added), the Titan's hand as chips of its
cards by their printed names, the step as a chip, the health with its stepper; a refusal names
the card and keeps the picks; no key is pressed, and the events sent are those the typed form
sent («Mise en place», ../shared/rules/attack-on-titan-last-stand.fr.txt: the Titan's seven
Action cards, each hero's five dice)."""

from __future__ import annotations

import pytest
from test_aot_round_taps import Phone, nothing_wider, words_clean
from test_e2e import ApiHost, at_version, become_host, browser, expect, phone, server  # noqa: F401
from webtools import GAME_SETUPS

ROLLS = {"eren": ["titan", "move", "move", "dodge", "dodge"], "mikasa": ["combat"] * 5}
FORM = "form[data-form=aot-adjust]"


def add(list_name: str, value: str) -> str:
    return f"{FORM} button[data-act=fix-add][data-list={list_name}][data-value={value}]"


def sent(page, *selectors: str) -> dict:
    """Tap each control, the last one sending the correction; the event it sent."""
    for selector in selectors[:-1]:
        page.locator(selector).first.click()
    with page.expect_request("**/api/events") as request:
        page.locator(selectors[-1]).first.click()
    return request.value.post_data_json["event"]


@pytest.mark.parametrize("lang", ["en", "fr"])
def test_the_host_corrects_dice_and_cards_with_no_key(browser, server, lang):  # noqa: F811
    table = Phone(browser, server.url, lang)
    host = table.page
    become_host(host)
    version = ApiHost(server.url).send(
        GAME_SETUPS["aot-last-stand"], {"type": "commit", "up": "pietinement", "down": "frenesie"},
        *({"type": "roll", "hero": h, "faces": f} for h, f in ROLLS.items()))
    viewer = phone(browser, server.url)
    at_version(host, version)
    host.locator("details[data-details=event-adjust] > summary").click()  # folded till asked
    send = f"{FORM} button:not([type=button])"
    eren = f"{FORM} label.pick:has(input[name=hero][value=eren])"
    host.locator(eren).click()  # the hero by the player's name; their dice as they lie
    expect(host.locator(f"{FORM} button[data-act=fix-drop][data-list=dice]")).to_have_count(4)
    expect(host.locator(add("dice", "titan"))).to_have_count(0)  # only Levi keeps a Titan face
    words_clean(host)
    nothing_wider(host)
    event = sent(host, f"{FORM} button[data-act=fix-drop][data-list=dice]", add("dice", "cannon"),
                 send)
    assert event == {"type": "adjust", "hero": "eren", "dice": ["dodge", "move", "move",
                                                                 "cannon"]}
    at_version(viewer, version + 1)
    expect(viewer.locator("#heroes .hero").first).to_contain_text("✹")

    hand = [f"basic-{n}" for n in range(3, 7)]
    expect(host.locator(add("hand", "pietinement"))).to_have_count(0)  # face up in play
    host.locator(add("hand", hand[0])).click()
    words_clean(host)  # the cards by their printed names, never "basic-3"
    event = sent(host, *(add("hand", c) for c in hand[1:]), send)
    assert event == {"type": "adjust", "hand": hand}
    expect(host.locator("#toast")).to_contain_text("7")  # nowhere: refused, named
    expect(host.locator(f"{FORM} button[data-act=fix-drop][data-list=hand]")).to_have_count(4)
    event = sent(host, add("hand", "basic-7"), f"{FORM} label.pick:has(input[name=step]"
                 "[value='4'])", f"{FORM} .stepper:has(input[name=health]) button[data-by='1']",
                 send)
    assert event == {"type": "adjust", "hand": [*hand, "basic-7"], "health": 1, "step": 4}
    at_version(viewer, version + 2)
    expect(viewer.locator("#headline")).to_contain_text("4/7")
    expect(host.locator(f"{FORM} button[data-act=fix-drop]")).to_have_count(0)  # afresh
    assert table.keys() == 0
    assert not viewer.errors and not host.errors
