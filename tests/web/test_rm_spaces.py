"""Runemasters' hit and Mark forms on a 360 × 740 phone, in English and French (issue 39, items
1 and 2): the space is picked by its path's colour and number, with the monster standing there,
as in the correction form (tests/web/test_rm_correction.py), among the spaces the rules take
now, and each space offered, sent, is taken. Found: both forms asked the space as a number
field, 1 to 5, whatever stood there.

The rules (../shared/rules/runemasters.fr.txt): a rune hits «le premier monstre sur votre
chemin»; Kyreas' Tourbillon «touchez n'importe quel point faible du premier monstre sur votre
chemin»; Neltaï's Échange «déplacez un monstre sur un autre chemin en conservant sa position»
(any monster, on any path)."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest
from test_e2e import ApiHost, at_version, browser, server  # noqa: F401
from test_phone_layout import SIZES, host_phone, no_sideways_scroll

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "games" / "runemasters"))
from runemasters_helpers import TAUGHT  # noqa: E402  (the tests' made-up weak points)

SETUP = {"type": "setup", "game": "runemasters", "difficulty": "novice", "definitions": TAUGHT,
         "guardians": [{"guardian": "kyreas", "path": "red", "player": "Ben"},
                       {"guardian": "neltai", "path": "blue", "player": "Ann"}],
         "elder": "kyreas"}
ROLL = {"type": "dice", "faces": ["white", "red", "violet", "green"]}
KYREAS_TURN = [SETUP, *({"type": "card", "id": c} for c in (
    "shadow-red", "shadow-blue", "shadow-yellow", "pavise", "shadow-green")), ROLL]
"""Kyreas' turn: a Shadow on red 1, his path's first space (its weak points red and violet), a
white rune for his Mark, a red and a violet rune to hit it."""
NELTAI_TURN = [{"type": "end_turn"}, {"type": "card", "id": "archer-red"}, ROLL]
"""Then Neltaï's: monsters on red 3, blue 1, yellow 2 and green 1."""
NAMES = {"en": "Red 1 · Red Shadow", "fr": "Rouge 1 · Ombre rouge"}


def form(page, event: str):
    """The event's form, unfolded."""
    details = page.locator(f"details[data-details=event-{event}]")
    if details.get_attribute("open") is None:
        details.locator("> summary").click()
    return page.locator(f"form[data-form=event][data-event={event}]")


def offered(form) -> list[str]:
    """The spaces its picker offers (leaving it out, "—", is not a space)."""
    return [v for v in form.locator("select[name=space] option").evaluate_all(
        "(all) => all.map((o) => o.value)") if v]


def taken(page, form, **picks: str) -> None:
    """Pick each field's value and send: the table takes the event (no refusal)."""
    for field, value in picks.items():
        form.locator(f"select[name={field}]").select_option(value)
    before = page.evaluate("app.version")
    form.locator("button:not([type=button])").last.click()
    at_version(page, before + 1)


@pytest.mark.parametrize("lang", ["en", "fr"])
def test_a_hit_and_a_mark_point_at_the_space(browser, server, lang):  # noqa: F811
    page = host_phone(browser, server, SIZES[0])
    if lang == "fr":
        page.click("#lang-switch")
    api = ApiHost(server.url)
    at_version(page, api.send(*KYREAS_TURN))
    for event in ("hit", "mark"):
        assert form(page, event).locator("input[type=number]").count() == 0, event
        assert offered(form(page, event)) == ["red.1"], event  # the first monster only
        label = form(page, event).locator("select[name=space] option[value='red.1']")
        assert label.inner_text().lower().startswith(NAMES[lang].lower())
    no_sideways_scroll(page)
    taken(page, form(page, "hit"), die="1", space="red.1")
    assert page.evaluate("app.pic.view.paths.red.spaces[0].wounds") == [0]
    taken(page, form(page, "mark"), die="0", space="red.1")  # Tourbillon: its last weak point
    assert page.evaluate("app.pic.view.paths.red.spaces[0]") is None

    at_version(page, api.send(*NELTAI_TURN))
    mark = form(page, "mark")
    spaces = offered(mark)
    assert spaces == ["red.3", "blue.1", "yellow.2", "green.1"]  # every monster
    for space in spaces:  # each one moved to another path, then undone
        taken(page, form(page, "mark"), die="0", space=space,
              to="green" if space.startswith("red") else "red")
        at_version(page, api.send({"type": "undo"}))
    no_sideways_scroll(page)
    assert not page.errors
