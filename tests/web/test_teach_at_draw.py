"""Teaching a card at its first draw, without JSON (issue 17, finding 2): the Boucher, named by
the rulebook but whose resistance is not, can be picked; the form opens on it with what is known,
the host gives the resistance with the stepper and it is drawn; an unknown monster is taught the
same way, in a few taps. Nothing is typed but a name."""

from __future__ import annotations

import json

from test_e2e import ApiHost, at_version, become_host, browser, expect, phone, server  # noqa: F401
from webtools import setup_event


def drawing(browser, server):  # noqa: F811
    """The host's phone when the first Horde card is awaited."""
    host = phone(browser, server.url)
    become_host(host)
    at_version(host, ApiHost(server.url).send(setup_event()))
    return host


def test_the_boucher_is_completed_and_drawn_in_five_taps(browser, server, tmp_path):  # noqa: F811
    host = drawing(browser, server)
    host.locator("button[data-act=card][data-id=boucher]").click()
    form = host.locator("form[data-form=new-card]")
    expect(form.locator("input[name=name]")).to_have_value("Boucher")
    expect(form.locator("input[name=colour][value=red]")).to_be_checked()
    for _ in range(3):
        form.locator("button.step[data-by='1']").click()
    form.locator("button.strong").click()
    at_version(host, 2)
    assert host.evaluate("app.pic.view.expects.events") == ["place"]
    saved = json.loads((tmp_path / "data" / "definitions" / "last-bastion.json").read_text())
    assert saved["card"]["boucher"]["resistance"] == 3
    assert not host.errors


def test_an_unknown_monster_is_taught_at_its_first_draw(browser, server, tmp_path):  # noqa: F811
    host = drawing(browser, server)
    host.locator("details[data-details=new-card] > summary").click()
    form = host.locator("form[data-form=new-card]")
    form.locator("button.strong").click()  # nothing filled in: said before anything is sent
    expect(form.locator("[role=alert]")).to_contain_text("Name")
    form.locator("input[name=name]").fill("Goule grise")
    form.locator("label.pick:has(input[name=colour][value=black])").click()
    form.locator("button.step[data-by='1']").click()
    form.locator("button.strong").click()
    at_version(host, 2)
    saved = json.loads((tmp_path / "data" / "definitions" / "last-bastion.json").read_text())
    assert saved["card"]["goule-grise"] == {"name": "Goule grise", "type": "monster",
                                            "colour": "black", "resistance": 1,
                                            "complete": True}
    assert not host.errors
