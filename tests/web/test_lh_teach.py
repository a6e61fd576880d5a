"""Teaching Last Heroes' weapon cards as fast as playing them (issue 39, item 4), paced as a
person taps: 1 s a tap, 0.2 s a key (the counts are multiplied, the test does not sleep).

A weapon card prints its type, its Impact (HIT!, BAM!, POW!), the ammo it costs to load and the
ammo it shows in a charger (rulebook, «B - Charger une Arme», «Valeur des symboles Impact»);
each is tapped as printed and the card taught is the next of that face nobody taught, so no id
is typed. Goals: one weapon in at most 15 s; a pile in at most 10 s a card (the 60 weapons of a
box in ten minutes).
"""

from __future__ import annotations

import json

import pytest
from test_e2e import ApiHost, at_version, browser, server  # noqa: F401
from test_lh_phone import LANGS, Taps, opened
from webtools import GAME_SETUPS

TAP, KEY = 1.0, 0.2
FORM = "form[data-form=teach-any]"


def paced(phone: Taps) -> float:
    return phone.taps * TAP + phone.keys * KEY


def open_teaching(phone: Taps) -> None:
    """Scroll down to "Teach a card" (a scroll, not a tap) and unfold it."""
    summary = "details[data-details=teach-any] > summary"
    phone.page.locator(summary).scroll_into_view_if_needed()
    phone.tap(summary)
    phone.page.wait_for_selector(f"{FORM} input[name=type]", state="attached")


def chip(phone: Taps, field: str, value: object) -> None:
    phone.tap(f"{FORM} label.pick:has(input[name='{field}'][value='{value}'])")


def untaught(phone: Taps, kind: str, impact: int) -> list[str]:
    return phone.view()["untaught"].get(kind, {}).get(str(impact), [])


@pytest.mark.parametrize("lang", LANGS)
def test_one_weapon_taught_in_fifteen_paced_seconds(browser, server, lang):  # noqa: F811
    phone = opened(browser, server, lang, GAME_SETUPS["last-heroes"])
    next_bam = untaught(phone, "rifle", 2)[0]
    open_teaching(phone)
    chip(phone, "type", "rifle")
    chip(phone, "impact", 2)
    chip(phone, "cost", 2)
    chip(phone, "ammo", 3)
    before = phone.page.evaluate("app.version")
    phone.tap(f"{FORM} button:not([data-act])")
    at_version(phone.page, before + 1)
    assert next_bam not in untaught(phone, "rifle", 2)
    assert (phone.taps, phone.keys) == (6, 0) and paced(phone) <= 15
    assert not phone.page.errors


@pytest.mark.parametrize("lang", LANGS)
def test_a_pile_taught_card_after_card(browser, server, lang):  # noqa: F811
    """The twelve pistols: the type once, then each card's Impact and what differs from the
    card before; every card of the pile is taught, none twice."""
    phone = opened(browser, server, lang, GAME_SETUPS["last-heroes"])
    open_teaching(phone)
    phone.tap(f"{FORM} label.pick:has(input[name=teach-deck])")
    chip(phone, "type", "pistol")
    pile = [(1, 1, 2), (1, 1, 2), (1, 2, 2), (1, 1, 3), (1, 2, 1), (2, 2, 2), (2, 2, 2),
            (2, 3, 2), (2, 2, 3), (3, 3, 3), (3, 3, 2), (3, 2, 3)]  # impact, cost, ammo
    shown = {"impact": None, "cost": None, "ammo": None}
    start = (phone.taps, phone.keys)
    for card in pile:
        for field, value in zip(("impact", "cost", "ammo"), card, strict=True):
            if shown[field] != value:
                chip(phone, field, value)
                shown[field] = value
        before = phone.page.evaluate("app.version")
        phone.tap(f"{FORM} button:not([data-act])")
        at_version(phone.page, before + 1)
    assert "pistol" not in phone.view()["untaught"]
    per_card = ((phone.taps - start[0]) * TAP + (phone.keys - start[1]) * KEY) / len(pile)
    assert per_card <= 10 and paced(phone) / len(pile) <= 10, per_card
    assert not phone.page.errors


@pytest.mark.parametrize("lang", LANGS)
def test_a_monster_taught_with_its_impacts_as_printed_or_none(browser, server, lang,  # noqa: F811
                                                               tmp_path):
    """«Impacts requis pour tuer le Monstre»: the Rat, pointed at by its name among the
    battlefield's monsters (no id typed), its light impact tapped as printed (BAM!), its dark
    zone taught as printing none (the "does nothing here" choice of the API, an empty list):
    within the 15 paced seconds of a weapon (a list drawn open and chosen: two taps)."""
    phone = opened(browser, server, lang, GAME_SETUPS["last-heroes"])
    open_teaching(phone)
    phone.page.select_option(f"{FORM} select[name=teach-kind]", "monster")
    phone.taps += 2
    rat = f"{FORM} label.pick:has(input[name=teach-id][value=rat])"
    phone.tap(rat)
    chip(phone, "light.0", 2)
    phone.page.select_option(f"{FORM} select[name='dark.as']", "nothing")
    phone.taps += 2
    before = phone.page.evaluate("app.version")
    phone.tap(f"{FORM} button:not([data-act])")
    at_version(phone.page, before + 1)
    saved = json.loads((tmp_path / "data" / "definitions" / "last-heroes.json").read_text())
    assert saved["monster"]["rat"] == {"light": [2], "dark": []}
    assert phone.keys == 0 and paced(phone) <= 15, (phone.taps, phone.keys, paced(phone))
    assert not phone.page.errors
