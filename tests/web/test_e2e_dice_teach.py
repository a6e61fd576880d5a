"""In a real browser (Debian's chromium through Playwright) on a phone, against `companion run`
whose camera replays a real labelled photo: the host takes a photo, names the three dice cut out
of it and leaves the tray's two screw holes out, applies, sees the faces taught with their
cut-outs, removes one and resets the profile, each after a confirmation. The screen never
scrolls sideways and has no serious or critical axe-core finding."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from test_accessibility import findings
from test_dice_teach import COMBAT, DATA, PHOTO, is_labelled, labelled_dice
from test_e2e import (  # noqa: F401
    SHOTS,
    become_host,
    browser,
    expect,
    phone,
    replay_camera_server,
)
from test_phone_layout import no_sideways_scroll

from vision.profile import taught_path
from vision.teach import photo_dice

PHONES = [{"width": 360, "height": 740}, {"width": 430, "height": 932}]


@pytest.fixture
def camera_server(tmp_path):
    """`companion run --simulate` with a replay camera showing the labelled photo, looping."""
    frames = tmp_path / "tray"
    frames.mkdir()
    shutil.copy(DATA / "images" / f"{PHOTO}.jpg", frames / "0.jpg")
    server = replay_camera_server(tmp_path, frames)
    yield server
    server.stop()


@pytest.mark.parametrize("size", PHONES, ids=lambda s: f"{s['width']}x{s['height']}")
def test_the_host_teaches_the_dice_of_a_photo_then_removes_and_resets(browser, camera_server,  # noqa: F811
                                                                       tmp_path, size):
    frame, labels = labelled_dice()
    found = [box for box, vector in photo_dice(frame) if vector is not None]
    names = {i: face for i, face in zip(
        [i for i, box in enumerate(found) if is_labelled(box, labels)], ("black", "blue", "red"),
        strict=True)}
    page = phone(browser, camera_server.url, size)
    become_host(page)
    section = page.locator("#dice")
    expect(section).to_be_visible(timeout=5000)
    section.locator("summary", has_text="Teach the dice").click()
    section.get_by_role("button", name=COMBAT).click()
    expect(section.get_by_role("button", name=COMBAT)).to_have_attribute(
        "aria-pressed", "true")
    expect(section.get_by_text("Nothing taught")).to_be_visible()

    section.get_by_role("button", name="Take photo").click()
    crops = section.locator(".dice-crops li")
    expect(crops).to_have_count(len(found), timeout=15000)
    for i in range(len(found)):
        expect(crops.nth(i).locator("img")).to_have_js_property("naturalWidth", 112)
    apply = section.get_by_role("button", name="Apply")
    expect(apply).to_be_disabled()  # every die named or left out first
    for i in range(len(found)):
        chip = crops.nth(i).get_by_role("button", name=names.get(i, "Not a die"),
                                        exact=True)
        if i == 0:  # by keyboard: the chip keeps the focus through the redraw
            chip.focus()
            page.keyboard.press("Enter")
            expect(chip).to_be_focused()
        else:
            chip.click()
        expect(chip).to_have_attribute("aria-pressed", "true")
    expect(section.get_by_text("3 of 5 named")).to_be_visible()
    page.click("#lang-switch")  # the faces are named in the page's language
    expect(crops.nth(0).get_by_role("button", name="rouge")).to_be_visible()
    expect(section.get_by_text("3 sur 5 nommés")).to_be_visible()
    page.click("#lang-switch")  # the switch goes round the languages: Spanish, then English
    expect(crops.nth(0).get_by_role("button", name="rojo")).to_be_visible()
    expect(section.get_by_text("3 de 5 nombrados")).to_be_visible()
    page.click("#lang-switch")
    no_sideways_scroll(page)
    assert findings(page) == []
    if SHOTS and size["width"] == 360:  # the screen alone, for docs/web.md (on a
        page.set_viewport_size({"width": 360, "height": 6000})  # page that needs no
        section.screenshot(path=str(Path(SHOTS) / "dice-teach.png"))  # scrolling, so
        page.set_viewport_size(size)  # the sticky header is not drawn over it)
    apply.click()

    expect(section.get_by_role("status")).to_contain_text("Learned:")
    taught = section.locator(".dice-taught li")
    expect(taught).to_have_count(3)
    for face in ("black", "blue", "red"):
        row = section.locator(f'.dice-taught li[data-face="{face}"]')
        expect(row).to_contain_text("1 example")
        expect(row.locator("img")).to_have_js_property("naturalWidth", 112)
    path = taught_path(COMBAT, tmp_path / "data")
    assert path.exists()
    no_sideways_scroll(page)
    assert findings(page) == []

    red = section.locator('.dice-taught li[data-face="red"]')
    red.get_by_role("button", name="Remove").click()
    expect(red).to_contain_text("Forget everything taught for red?")
    red.get_by_role("button", name="Cancel").click()
    expect(taught).to_have_count(3)  # cancelled: nothing forgotten
    red.get_by_role("button", name="Remove").click()
    red.get_by_role("button", name="Yes, forget").click()
    expect(taught).to_have_count(2)
    expect(section.get_by_role("status")).to_contain_text("Forgot 1 example.")

    section.get_by_role("button", name="Reset to the defaults").click()
    expect(section).to_contain_text("go back to the shipped defaults?")
    section.get_by_role("button", name="Yes, forget").click()
    expect(section.get_by_text("Nothing taught")).to_be_visible()
    assert not path.exists()
    assert page.errors == []
