"""Words that read well in French and English (issue 17, finding 5): plural forms by each
language's rules (Babel), French elision, slots and die faces named as the page shows them, no
message key ever shown, no text of one language in the other, undo saying what it undid, and the
announcements newest first with each version's lines together."""

from __future__ import annotations

import copy
import json
import re
import string
from pathlib import Path

import pytest
from test_e2e import ApiHost, at_version, become_host, browser, phone, server  # noqa: F401
from webtools import GAME_SETUPS, setup_event

from companion.engine import Message, find_game
from companion.i18n import catalog, render

ROOT = Path(__file__).resolve().parents[2]
CATALOGS = sorted([*ROOT.glob("companion/i18n/*.json"), *ROOT.glob("web/texts/*.json"),
                   *ROOT.glob("companion/games/*/messages/*.json")])
LB = find_game("last-bastion")

FRENCH = re.compile(r"\b(le|la|les|des|du|et|est|une|pour|avec|à|au|aux|sur|dans|Texte|"
                    r"compléter|Pouvoir|plateau|rempli)\b")
"""Words of French that no English sentence of the page has (a quotation «...» of the French
rulebook aside)."""


def say(key: str, lang: str, **params) -> str:
    return render(Message(key, params), texts=catalog(lang, LB))


@pytest.mark.parametrize(("count", "fr", "en"), [
    (0, "0 étape", "0 steps"), (1, "1 étape", "1 step"), (2, "2 étapes", "2 steps")])
def test_plurals_follow_each_languages_rules(count, fr, en):
    """French says «0 étape» (one), English «0 steps» (other): CLDR's rules, through Babel."""
    labels = [{"key": "history.draw", "params": {"card": "Incube"}}]
    assert fr in say("undo.done", "fr", count=count, labels=labels)
    assert en in say("undo.done", "en", count=count, labels=labels)


def test_no_catalog_writes_a_plural_in_brackets_and_every_plural_has_its_other_form():
    for path in CATALOGS:
        for key, text in json.loads(path.read_text(encoding="utf-8")).items():
            assert "(s)" not in text, f"{path.name} {key}: {text}"
            for _, field, spec, _ in string.Formatter().parse(text):
                if field is not None and spec and "=" in spec:
                    forms = dict(part.split("=", 1) for part in spec.split("|"))
                    assert "other" in forms, f"{path.name} {key}: {spec}"


def test_french_elides_de_before_a_vowel():
    assert say("turn.start", "fr", hero="Anna", board="red").startswith("Tour d'Anna :")
    assert say("turn.start", "fr", hero="Gary", board="red").startswith("Tour de Gary :")
    assert say("turn.start", "en", hero="Anna", board="red").startswith("Anna's turn")


def test_slots_and_corruption_faces_are_named_as_the_page_shows_them():
    refused = say("fight.not_adjacent", "en", slot="blue.1", hero="Anna",
                  reachable=["red.2", "blue.0"])
    assert "blue 2" in refused and "red 3, blue 1" in refused and "blue.1" not in refused
    assert say("fight.not_adjacent", "fr", slot="blue.1", hero="Anna",
               reachable=["red.2"]).startswith("bleu 2")
    assert say("corruption.rolled", "en", face="corruption-5") == "Corruption die: face 5."


def refused_setups() -> dict[str, dict]:
    """One setup per game that its rules refuse: the same hero (guardian, side) twice."""
    runemasters = copy.deepcopy(GAME_SETUPS["runemasters"])
    runemasters["guardians"][1]["guardian"] = "kulak"
    titan = copy.deepcopy(GAME_SETUPS["aot-last-stand"])
    titan["heroes"][1]["hero"] = "eren"
    heroes = copy.deepcopy(GAME_SETUPS["last-heroes"])
    heroes["players"][1]["hero"] = "blind"
    bastion = setup_event()
    bastion["players"].append({"name": "Bo", "hero": "teagaan", "side": "S"})
    return {"runemasters": runemasters, "aot-last-stand": titan, "last-heroes": heroes,
            "last-bastion": bastion}


@pytest.mark.parametrize("on_the_table", [None, "last-heroes"])
def test_a_refused_setup_is_said_in_words_never_as_its_key(host, on_the_table):
    """Before: «setup.repeated (guardians=kulak, kulak, paths=blue, red)», the key itself, as the
    catalog consulted was the one of the game on the table (none, or another game)."""
    if on_the_table:
        assert host.send(GAME_SETUPS[on_the_table]).status_code == 200
    for game, event in refused_setups().items():
        reply = host.send(event)
        assert reply.status_code == 422, (game, reply.json)
        message = reply.json["message"]
        assert reply.json["error"] not in message and not message.startswith("setup."), game
        assert message.endswith("."), (game, message)


def test_undo_says_what_it_undid(playing, viewer):
    assert playing.send({"type": "card", "id": "canon-de-l-infamie"}).status_code == 200
    said = playing.send({"type": "undo"}).json["said"][0]
    assert said["en"].startswith("Undone (1 step): Drawn: "), said
    assert said["fr"].startswith("Annulé (1 étape) : Pioché : "), said


def to_the_hero_phase(host) -> None:
    """Draw and place (simulated) until the hero may act."""
    for _ in range(40):
        state = host.client.get("/api/state").json["view"]
        expects = state["expects"]
        if expects["kind"] == "action":
            return
        if expects["kind"] == "card":
            assert host.post("/api/simulate/draw").status_code == 200
        elif expects["kind"] == "dice":
            assert host.post("/api/simulate/roll").status_code == 200
        elif "place" in expects["events"]:
            assert host.send({"type": "place", "slot": expects["options"][0]}).status_code == 200
        else:
            assert host.send({"type": "answer"}).status_code == 200
    raise AssertionError("never reached the Hero phase")


def test_the_english_table_reads_no_french_text(host, viewer):
    """The Inn's action is not known: its text says so in each language, and the English prompt
    says the English one (it said «Texte à compléter.»)."""
    event = setup_event()
    event["tiles"] = [["tomb", "inn", "market"], ["trebuchet", "fountain", "quarry"],
                      ["standard", "tower", "dispensary"]]
    assert host.send(event).status_code == 200
    to_the_hero_phase(host)
    assert host.send({"type": "move", "hero": "teagaan", "to": [0, 1]}).status_code == 200
    assert host.send({"type": "activate", "tile": "inn"}).status_code == 200
    picture = viewer.get("/api/state").json
    prompt = picture["texts"]["prompts"][0]
    assert "not known yet" in prompt["en"] and "pas encore connue" in prompt["fr"]
    english = [prompt["en"], *(s["en"] for entry in picture["log"] for s in entry["said"])]
    for line in english:
        assert not FRENCH.search(re.sub(r"«[^»]*»", "", line)), line


def test_english_catalogs_hold_no_french_sentence():
    for path in CATALOGS:
        if path.name != "en.json":
            continue
        for key, text in json.loads(path.read_text(encoding="utf-8")).items():
            assert not FRENCH.search(re.sub(r"«[^»]*»", "", text)), f"{path} {key}: {text}"


def test_announcements_are_newest_first_with_each_versions_lines(
        browser, server):  # noqa: F811
    page = phone(browser, server.url)
    become_host(page)
    api = ApiHost(server.url)
    at_version(page, api.send(setup_event(), {"type": "card", "id": "canon-de-l-infamie"}))
    items = page.locator("#log li")
    assert items.nth(0).inner_text().startswith("Drawn: ")  # version 2, no number shown
    first = items.nth(1).inner_text()  # version 1: the new game, then whose turn it is
    assert first.index("New game") < first.index("Gary's turn"), first
    assert items.nth(1).locator("p").count() == 2
    assert not page.errors
