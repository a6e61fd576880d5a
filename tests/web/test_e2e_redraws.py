"""A page redrawn with nothing changed keeps its controls: a reconnect, a poll of the box or the
host check redraws the page, and a tap caught between a button's removal and its identical
replacement was lost (the Attack on Titan setup test sent nothing, once in a few full runs)."""

from __future__ import annotations

from test_e2e import at_version, browser, expect, server  # noqa: F401
from test_e2e_games import commit_aot_cards, fill_aot_setup, start

REDRAWS = "window.redraws = setInterval(render, 2)"  # what every snapshot and host check calls


def test_a_tap_during_redraws_that_change_nothing_is_not_lost(browser, server):  # noqa: F811
    viewer, host = start(browser, server, "aot-last-stand")
    fill_aot_setup(host)
    setup = host.locator("form[data-form=setup] button")
    host.evaluate(REDRAWS)
    setup.click()
    at_version(viewer, 1)
    undo = host.locator("#undo-slot button")
    for version in (1, 3):  # the Undo button, redrawn as often, is tapped too
        commit_aot_cards(host)
        at_version(viewer, version + 1)
        expect(viewer.locator("#headline")).to_contain_text("Step 2/7")
        undo.click()
        at_version(viewer, version + 2)
    expect(viewer.locator("#headline")).to_contain_text("Step 1/7")
    assert not viewer.errors and not host.errors
