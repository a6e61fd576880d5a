"""The Titan's role link on a 360 × 740 phone (issue 39, item 6): once the host asks for it, the
link fits the screen (it was 547 px wide) and comes with a QR code to scan, like the table's own
link, in English and in French."""

from __future__ import annotations

import pytest
from test_aot_round_taps import PHONE, SETUP, nothing_wider
from test_e2e import ApiHost, become_host, browser, server  # noqa: F401
from webtools import GAME_SETUPS


@pytest.mark.parametrize("lang", ["en", "fr"])
def test_the_titans_link_fits_and_has_a_qr_code(browser, server, lang):  # noqa: F811
    page = browser.new_context(viewport=PHONE).new_page()
    page.add_init_script(f"localStorage.setItem('companion-lang', '{lang}')")
    page.goto(server.url)
    become_host(page)
    ApiHost(server.url).send(SETUP if lang == "en" else GAME_SETUPS["aot-last-stand"])
    section = page.locator("#host-more details:has(button[data-act=role-link])")
    section.locator("summary").click()
    section.locator("button[data-act=role-link]").click()
    link = section.locator(".role-link a")
    link.wait_for()
    assert "#role=" in link.get_attribute("href")
    box = link.bounding_box()
    assert box["x"] + box["width"] <= PHONE["width"], box
    nothing_wider(page)
    qr = section.locator(".qr svg")
    assert qr.count() == 1 and qr.bounding_box()["width"] <= PHONE["width"]
