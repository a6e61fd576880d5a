"""Last Heroes' Joker power tile on a full wheel (issue 40, item 11): the rules take it (the tile
is spent, the wheel stays on 3, tests/games/last_heroes/test_lh_powers.py); the host's power
form says, in the page's language, that the Joker is lost before the event is sent."""

from __future__ import annotations

from demos import demo
from test_e2e import (  # noqa: F401
    ApiHost,
    at_version,
    become_host,
    browser,
    expect,
    phone,
    server,
)

JOKER_FOR_ANA = ["impact", "joker", "adrenaline"]
"""The demo's artefacts with the Joker in column 2, the one whose artefact Ana wins."""
CLEO_AND_BACK_TO_ANA = [{"type": "end_turn"}, {"type": "reveal", "card": "mole"},
                        {"type": "reveal", "card": "crow", "define": {"points": 4}},
                        {"type": "play", "card": "pistol-4", "as": "ammo", "slot": "left"},
                        {"type": "end_turn"}]
"""Ben ends his turn, the two voids of column 2 are refilled, Cleo plays a card: Ana's turn."""


def ana_holds_the_joker_tile(url: str, jokers: int) -> int:
    """Ana won the Joker tile, it is her turn, her wheel is on ``jokers``; the version."""
    events = demo("last-heroes")
    events[0] = {**events[0], "artefacts": JOKER_FOR_ANA}
    return ApiHost(url).send(*events, *CLEO_AND_BACK_TO_ANA,
                             {"type": "adjust", "hero": "blind", "jokers": jokers})


JOKER = "#host [data-power=joker], #host button[data-act=lh][data-k=power][data-v=joker]"
"""The host's Joker control: a one-tap power, or a chip to confirm when its Joker is lost."""
WARNING = "#host .warning"


def test_the_power_form_warns_that_a_joker_on_a_full_wheel_is_lost(browser, server):  # noqa: F811
    host = phone(browser, server.url)
    at_version(host, 0)
    become_host(host)
    version = ana_holds_the_joker_tile(server.url, 3)
    at_version(host, version)
    host.locator(JOKER).first.click()
    expect(host.locator(WARNING)).to_have_text(
        "Joker — the Joker wheel is already at 3: this Joker is lost (the tile is spent)")
    assert host.evaluate("app.version") == version, "the first tap only warns"
    host.click("#lang-switch")
    expect(host.locator(WARNING)).to_have_text(
        "Joker — la Roue des Jokers est déjà à 3 : ce Joker est perdu (la tuile est défaussée)")
    host.click("#lang-switch")  # Spanish, then back to English
    host.click("#lang-switch")
    host.locator("#host button[data-act=lh-send]").click()
    at_version(host, version + 1)
    ana = host.evaluate("app.pic.view.players.find((p) => p.hero === 'blind')")
    assert ana["jokers"] == 3 and "joker" not in ana["powers"]
    assert not host.errors


def test_no_warning_while_the_wheel_has_room(browser, server):  # noqa: F811
    """With room on the wheel the Joker is one tap, with no warning."""
    host = phone(browser, server.url)
    at_version(host, 0)
    become_host(host)
    version = ana_holds_the_joker_tile(server.url, 2)
    at_version(host, version)
    host.locator(JOKER).first.click()
    at_version(host, version + 1)
    assert not host.locator(WARNING).count()
    ana = host.evaluate("app.pic.view.players.find((p) => p.hero === 'blind')")
    assert ana["jokers"] == 3 and "joker" not in ana["powers"]
    assert not host.errors
