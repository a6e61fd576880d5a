"""End to end in a real browser: the host corrects Attack on Titan counts from the generated
"Correction" form (a hero's dice typed as a list, the Titan's hand and set-aside cards, the step
as a chip), a refusal names the card, and the heroes' phone shows the corrected picture."""

from __future__ import annotations

from test_e2e import ApiHost, at_version, become_host, browser, expect, phone, server  # noqa: F401
from webtools import GAME_SETUPS

ROLLS = {"eren": ["titan", "move", "move", "dodge", "dodge"], "mikasa": ["combat"] * 5}


def test_the_host_corrects_dice_and_cards(browser, server):  # noqa: F811
    host = phone(browser, server.url)
    become_host(host)
    api = ApiHost(server.url)
    version = api.send(GAME_SETUPS["aot-last-stand"],
                       {"type": "commit", "up": "pietinement", "down": "frenesie"},
                       *({"type": "roll", "hero": h, "faces": f} for h, f in ROLLS.items()))
    viewer = phone(browser, server.url)
    at_version(host, version)
    host.locator("details[data-details=event-adjust] > summary").click()  # folded till asked
    form = host.locator("form[data-event=adjust]")
    form.locator("select[name=hero]").select_option("eren")
    form.locator("input[name=dice]").fill("cannon, move, dodge")
    form.locator("input[name=note]").fill("misread")
    form.locator("button").click()
    at_version(viewer, version + 1)
    expect(viewer.locator("#heroes .hero").first).to_contain_text("✹")
    form = host.locator("form[data-event=adjust]")
    form.locator("input[name=hand]").fill("basic-3, basic-4, basic-5, basic-6")
    form.locator("button").click()
    expect(host.locator("#toast")).to_contain_text("Action card 7")  # nowhere: refused, named
    form = host.locator("form[data-event=adjust]")
    form.locator("input[name=hand]").fill("basic-3, basic-4, basic-5, basic-6, basic-7")
    form.locator("label.pick:has(input[name=step][value='4'])").click()
    form.locator("button").click()
    at_version(viewer, version + 2)
    expect(viewer.locator("#headline")).to_contain_text("Step 4/7")
    assert not viewer.errors and not host.errors
