"""What the rulebook leaves out, taught by the owner: the health track (its length and zones are
not public) and the symbols of Sasha's, Erwin's and Conny's powers (blank in the text where the
icons were, e.g. «Sasha peut utiliser ses  comme s'ils étaient n'importe quel autre symbole.»,
../shared/rules/attack-on-titan-last-stand.fr.txt, «Pouvoirs des Héros»). Until taught the view
warns, in French and English, that the track is assumed and the powers are off, and says how to
teach them; taught from the page (``teach``) or the terminal, they hold from the next setup."""

from __future__ import annotations

import json

import pytest
from aot_helpers import new_session, refused, setup_event
from clitools import companion

from companion.engine import RuleError
from companion.games.aot_last_stand import GAME
from companion.i18n import render

TRACK = {"length": 18, "weak": 9, "kill": 14}
HEROES = (("sasha", 0), ("erwin", 3), ("conny", 5), ("eren", 0))


def warning_keys(session) -> list[tuple[str, str | None]]:
    return [(w["key"], w["params"].get("hero")) for w in session.view()["warnings"]]


def test_until_taught_the_view_warns_and_says_how(tmp_path):
    """«Il est possible de jouer»: the game is playable before, with the track assumed."""
    session = new_session(tmp_path)
    session.submit(setup_event(heroes=HEROES))
    assert session.view()["health"]["assumed"] is True
    assert warning_keys(session) == [("warning.track_assumed", None),
                                     ("warning.power_off", "sasha"),
                                     ("warning.power_off", "erwin"),
                                     ("warning.power_off", "conny")]
    assert [h["power_off"] for h in session.view()["heroes"].values()] == [True] * 3 + [False]
    erwin = session.view()["warnings"][2]
    assert erwin["params"]["count"] == 2
    fr = render(erwin, "fr", GAME, session.state)
    assert fr.startswith("Erwin : pouvoir éteint") and "Enseigner une carte" in fr
    assert "companion" not in fr and "{" not in fr  # the phones show no terminal command
    en = render(session.view()["warnings"][0], "en", GAME, session.state)
    assert en.startswith("The health track is assumed (15 spaces, weak zone from 8, kill zone "
                         "from 12)") and "Teach a card → Health track" in en
    session.close()


def test_teaching_from_the_page_holds_now_and_at_the_next_setup(tmp_path):
    session = new_session(tmp_path)
    session.submit(setup_event(heroes=HEROES))
    session.submit({"type": "adjust", "health": 15})
    session.submit({"type": "teach", "kind": "track", "id": "health",
                    "definition": {"length": 12, "weak": 6, "kill": 10}})
    health = session.view()["health"]
    assert (health["length"], health["marker"], health["zone"], health["assumed"]) == \
        (12, 12, "kill", False)
    for hero, symbols in (("sasha", ["dodge"]), ("erwin", ["move", "cannon"]),
                          ("conny", ["move"])):
        session.submit({"type": "teach", "kind": "hero", "id": hero,
                        "definition": {"symbols": symbols}})
    assert session.view()["warnings"] == []
    session.submit(setup_event(heroes=HEROES))
    assert session.view()["health"]["length"] == 12 and session.view()["warnings"] == []
    session.close()


def test_a_bad_track_or_hero_is_refused_naming_it(tmp_path):
    """weak < kill <= length, all positive; a track of another name does not exist."""
    session = new_session(tmp_path)
    session.submit(setup_event())
    for definition in ({"length": 12, "weak": 10, "kill": 10}, {"length": 9, "kill": 10},
                       {"length": 12, "weak": 0, "kill": 6}):
        key = "event.bad_field" if definition.get("weak") == 0 else "definition.track_order"
        refused(session, {"type": "teach", "kind": "track", "id": "health",
                          "definition": definition}, key)
    refused(session, {"type": "teach", "kind": "track", "id": "santé",
                      "definition": TRACK}, "definition.unknown_track")
    error = refused(session, {"type": "teach", "kind": "hero", "id": "conny",
                              "definition": {"symbols": ["move", "dodge", "combat"]}},
                    "event.bad_field")
    assert error.params["field"] == "hero.conny.symbols"
    assert session.definitions(GAME.id).load() == {}


def test_teaching_from_the_terminal_holds_at_the_next_setup(tmp_path):
    data = str(tmp_path / "data")
    wrong = companion("cards", "add", "health", "--game", GAME.id, "--kind", "track", "--json",
                      json.dumps({"length": 10, "weak": 8, "kill": 6}), "--data-dir", data)
    assert wrong.returncode == 2 and "weak" in wrong.stderr
    taught = companion("cards", "add", "health", "--game", GAME.id, "--kind", "track",
                       "--json", json.dumps(TRACK), "--data-dir", data)
    assert taught.returncode == 0, taught.stderr
    assert companion("cards", "edit", "sasha", "--game", GAME.id, "--kind", "hero", "--json",
                     '{"symbols": ["dodge"]}', "--data-dir", data).returncode == 0
    session = new_session(tmp_path)
    session.submit(setup_event(heroes=(HEROES[0], HEROES[3])))
    health = session.view()["health"]
    assert {k: health[k] for k in TRACK} == TRACK and health["assumed"] is False
    assert session.view()["warnings"] == []
    session.close()


def test_a_partly_taught_track_stays_assumed():
    """Only the length given: the zones are still the package's guess."""
    assert "assumed" not in GAME.check_definition("track", {"id": "health", "length": 20})
    assert GAME.check_definition("track", {"id": "health", **TRACK})["assumed"] is False
    with pytest.raises(RuleError):
        GAME.check_definition("track", {"id": "health", "length": 10})
