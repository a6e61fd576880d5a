"""In a real browser (Debian's chromium through Playwright) on a 360 x 740 phone, against
`companion run`: the host teaches a card with its photo from the "Teach a card" form (issue 43,
item 1: the teach forms take a photo from the phone). A file that is no photo is refused in
words in the form, in English and in French, keeping what was typed; a real photo of cards
(benchmarks/cards/set/) teaches the card at its centre to the card camera, and so does the
table's own camera when it sees that photo."""

from __future__ import annotations

from pathlib import Path

import pytest
from test_e2e import (  # noqa: F401
    ApiHost,
    Server,
    become_host,
    browser,
    expect,
    phone,
    replay_camera_server,
)
from webtools import PIN, setup_event

from companion.cardphotos import pictures_folder
from web.auth import PinStore

ROOT = Path(__file__).resolve().parents[2]
PHOTO = ROOT / "benchmarks" / "cards" / "set" / "green-1-20161231_114459.jpg"
SMALL_PHONE = {"width": 360, "height": 740}


@pytest.fixture
def table(tmp_path):
    """`companion run --simulate` with a Last Bastion game on the table, the PIN chosen."""
    PinStore(tmp_path / "data").set(PIN)
    server = Server(tmp_path / "data")
    ApiHost(server.url).send(setup_event())
    yield server
    server.stop()


def test_the_host_teaches_a_card_with_its_photo_from_the_phone(browser, table, tmp_path):  # noqa: F811
    notes = tmp_path / "notes.txt"
    notes.write_text("not a photo")
    page = phone(browser, table.url, SMALL_PHONE)
    become_host(page)
    page.locator("summary", has_text="Teach a card").click()
    form = page.locator("form[data-form=teach-any]")
    photo = form.locator("input[type=file][name=teach-photo]")
    expect(photo).to_have_attribute("accept", "image/*")
    expect(photo).to_have_attribute("capture", "environment")
    form.locator("input[name=teach-id]").fill("incube")
    form.locator("input[name=name]").fill("Incube")
    photo.set_input_files(str(notes))
    expect(form.get_by_text("Photo: notes.txt")).to_be_visible()
    form.get_by_role("button", name="Teach", exact=True).click()
    alert = page.locator("form[data-form=teach-any] [role=alert]")
    expect(alert).to_contain_text("This photo cannot teach the card: notes.txt: not an image")
    expect(form.locator("input[name=teach-id]")).to_have_value("incube")  # what was typed stays
    expect(form.locator("input[name=name]")).to_have_value("Incube")

    page.click("#lang-switch")  # the same refusal, in French
    form = page.locator("form[data-form=teach-any]")
    form.locator("input[name=teach-photo]").set_input_files(str(notes))
    expect(form.get_by_text("Photo : notes.txt")).to_be_visible()
    form.get_by_role("button", name="Apprendre", exact=True).click()
    expect(alert).to_contain_text(
        "Cette photo ne permet pas d'apprendre la carte : notes.txt : pas une image")
    expect(form.locator("input[name=teach-id]")).to_have_value("incube")

    form.locator("input[name=teach-photo]").set_input_files(str(PHOTO))
    form.get_by_role("button", name="Apprendre", exact=True).click()
    expect(page.locator("details[data-details=teach-any]")).not_to_have_attribute(
        "open", "", timeout=15000)  # taught: the form folds, emptied
    expect(alert).to_have_count(0)
    expect(form.locator("input[name=teach-id]")).to_have_value("")
    folder = pictures_folder(tmp_path / "data")
    assert [p.stem.split("@")[0] for p in folder.glob("*.png")] == ["incube"]
    assert page.evaluate("document.documentElement.scrollWidth") <= SMALL_PHONE["width"]
    assert page.errors == []


def test_the_host_teaches_the_card_under_the_table_camera(browser, tmp_path):  # noqa: F811
    frames = tmp_path / "frames"
    frames.mkdir()
    (frames / PHOTO.name).write_bytes(PHOTO.read_bytes())
    table = replay_camera_server(tmp_path, frames)
    try:
        ApiHost(table.url).send(setup_event())
        page = phone(browser, table.url, SMALL_PHONE)
        become_host(page)
        page.locator("summary", has_text="Teach a card").click()
        form = page.locator("form[data-form=teach-any]")
        form.get_by_label("Take the photo with the table's camera").check()
        form.locator("input[name=teach-id]").fill("incube")
        form.locator("input[name=name]").fill("Incube")
        form.get_by_role("button", name="Teach", exact=True).click()
        expect(page.locator("details[data-details=teach-any]")).not_to_have_attribute(
            "open", "", timeout=15000)  # taught: the form folds, emptied
        assert [p.stem.split("@")[0] for p in pictures_folder(tmp_path / "data").glob("*.png")] \
            == ["incube"]
        assert page.evaluate("document.documentElement.scrollWidth") <= SMALL_PHONE["width"]
        assert page.errors == []
    finally:
        table.stop()
