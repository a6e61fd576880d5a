"""The host's dice screen in a real browser (Debian's chromium through Playwright) at 360 x 740,
against `companion run` whose camera replays a real labelled photo (issue 41, item 4): the host
reads the tray, sees the frame with a box round each die and its face, taps a die on the frame
to correct it, names the doubtful ones, confirms the roll, then sees the table's examples with
their cut-outs and forgets one, then all, each after a confirmation; the screen is checked in
French too, never scrolls sideways and has no serious or critical axe-core finding."""

from __future__ import annotations

from pathlib import Path

from test_accessibility import findings
from test_dice_teach import labelled_dice
from test_e2e import (  # noqa: F401
    SHOTS,
    become_host,
    browser,
    expect,
    phone,
)
from test_e2e_dice_teach import camera_server  # noqa: F401
from test_phone_layout import no_sideways_scroll

import vision
from vision.table import CUT, table_examples


def test_the_host_reads_corrects_and_confirms_a_roll_then_forgets_the_examples(
        browser, camera_server, tmp_path):  # noqa: F811
    frame, _ = labelled_dice()
    read = vision.read(frame, "d6")
    first = read.dice[0]
    corrected = next(f for f in "123456" if f != first.face)
    page = phone(browser, camera_server.url, {"width": 360, "height": 740})
    become_host(page)
    section = page.locator("#dice")
    expect(section).to_be_visible(timeout=5000)
    section.locator("summary", has_text="Read a roll").click()
    expect(section.get_by_role("button", name="d6", exact=True)).to_have_attribute(
        "aria-pressed", "true")
    expect(section.get_by_text("No example kept yet")).to_be_visible()
    section.get_by_role("button", name="Read the tray").click()

    boxes = section.locator(".dice-view .dice-box")
    expect(boxes).to_have_count(len(read.dice), timeout=15000)
    expect(section.locator(".dice-view img")).to_have_js_property("naturalWidth",
                                                                  frame.shape[1])
    confirm = section.get_by_role("button", name="Confirm the roll")
    boxes.nth(0).click()  # a die tapped on the frame offers its faces
    faces = section.get_by_role("group", name="Face of die 1")
    faces.get_by_role("button", name=corrected, exact=True).click()
    expect(section.get_by_role("button", name=f"Die 1: {corrected}")).to_be_visible()
    expect(boxes.nth(0)).to_have_class("dice-box fixed")
    for die in read.dice:  # the doubtful dice are marked, and named before confirming
        if die.uncertain and die is not first:
            n = read.dice.index(die) + 1
            expect(confirm).to_be_disabled()
            section.get_by_role("button", name=f"Die {n}: {die.face}? (in doubt)").click()
            section.get_by_role("group", name=f"Face of die {n}").get_by_role(
                "button", name=die.face, exact=True).click()
    expect(confirm).to_be_enabled()
    page.click("#lang-switch")
    expect(section.get_by_role("button", name="Confirmer le lancer")).to_be_enabled()
    expect(section.get_by_role("button", name=f"Dé 1 : {corrected}")).to_be_visible()
    while page.evaluate("app.lang") != "en":  # the switch goes round every language
        page.click("#lang-switch")
    no_sideways_scroll(page)
    assert findings(page) == []
    if SHOTS:  # the screen alone, for docs/web.md, on a page that needs no scrolling
        page.set_viewport_size({"width": 360, "height": 6000})
        section.screenshot(path=str(Path(SHOTS) / "dice-roll.png"))
        page.set_viewport_size({"width": 360, "height": 740})
    confirm.click()

    expect(section.get_by_role("status")).to_contain_text(
        f"Kept {len(read.dice)} examples of this table (1 corrected).")
    kept = section.locator(".dice-table li")
    expect(kept).to_have_count(len(read.dice))
    expect(kept.nth(0).locator("img")).to_have_js_property("naturalWidth", CUT)
    data = tmp_path / "data"
    assert sorted(e.face for e in table_examples("d6", data)) == sorted(
        corrected if d is first else d.face for d in read.dice)
    expect(section.get_by_text(f"corrected from {first.face}")).to_be_visible()
    no_sideways_scroll(page)
    assert findings(page) == []

    kept.nth(0).get_by_role("button", name="Forget", exact=True).click()
    kept.nth(0).get_by_role("button", name="Cancel").click()
    expect(kept).to_have_count(len(read.dice))  # cancelled: nothing forgotten
    kept.nth(0).get_by_role("button", name="Forget", exact=True).click()
    kept.nth(0).get_by_role("button", name="Yes, forget").click()
    expect(kept).to_have_count(len(read.dice) - 1)
    section.get_by_role("button", name="Forget every example").click()
    section.get_by_role("button", name="Yes, forget").click()
    expect(section.get_by_text("No example kept yet")).to_be_visible()
    assert table_examples("d6", data) == []
    assert page.errors == []
