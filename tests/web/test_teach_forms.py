"""The "Teach a card" form of every game: ``/api/definitions`` describes each game's kinds and
fields from its schemas, a host's ``teach`` is accepted and saved for later games, a wrong value
is refused naming its field, and a viewer cannot teach."""

from __future__ import annotations

from typing import Any

import pytest
from webtools import GAME_SETUPS, setup_event

SETUPS = {**GAME_SETUPS, "last-bastion": setup_event()}

# per game: its kinds; one field per kind sampled with its description; a valid teach; a wrong
# value and the field the refusal names
CASES: dict[str, dict[str, Any]] = {
    "last-bastion": {
        "kinds": ["card", "tile", "hero", "board", "corruption"],
        "sample": ("card", "resistance", {"type": "number", "min": 0, "max": 20}),
        "teach": ("card", "grey-ghoul", {"name": "Grey ghoul", "type": "monster",
                                         "colour": "red", "resistance": 3}),
        "wrong": ({"name": "Grey ghoul", "type": "monster", "colour": "red", "resistance": 99},
                  "card.grey-ghoul.resistance"),
    },
    "runemasters": {
        "kinds": ["monster"],
        "sample": ("monster", "weak_points", {"type": "list", "min": 1, "max": 6, "item": {
            "type": "choice", "options": ["red", "blue", "green", "yellow", "violet"]}}),
        "teach": ("monster", "troll-green", {"weak_points": ["red", "blue"],
                                             "rewards": {"mana": 1, "life": 0}}),
        "wrong": ({"weak_points": ["pink"]}, "monster.troll-green.weak_points[0]"),
    },
    "aot-last-stand": {
        "kinds": ["titan", "ability", "action", "tactic", "hero", "track"],
        "sample": ("track", "assumed", {"type": "yes_no"}),
        "teach": ("hero", "conny", {"name": "Conny", "symbols": ["move", "cannon"]}),
        "wrong": ({"name": "Conny", "symbols": ["laser"]}, "hero.conny.symbols[0]"),
    },
    "last-heroes": {
        "kinds": ["weapon", "monster"],
        "sample": ("weapon", "ammo", {"type": "number", "min": 0, "max": 9}),
        "teach": ("weapon", "pistol-1", {"ammo": 2, "cost": 1}),
        "wrong": ({"ammo": 12}, "weapon.pistol-1.ammo"),
    },
}


def teach(kind: str, item: str, definition: dict[str, Any]) -> dict[str, Any]:
    return {"type": "teach", "kind": kind, "id": item, "definition": definition}


@pytest.mark.parametrize("game", sorted(CASES))
def test_the_description_lists_the_kinds_and_fields(viewer, game):
    case = CASES[game]
    kinds = {k["kind"]: k for k in viewer.get(f"/api/definitions?game={game}").json["kinds"]}
    assert list(kinds) == case["kinds"]
    kind, name, expected = case["sample"]
    field = next(f for f in kinds[kind]["fields"] if f["name"] == name)
    assert {k: field[k] for k in expected} == expected
    assert all(not f["name"].startswith("_") for spec in kinds.values() for f in spec["fields"])


def test_what_a_form_cannot_hold_is_named(viewer):
    kinds = {k["kind"]: k for k in viewer.get("/api/definitions?game=last-bastion").json["kinds"]}
    assert kinds["tile"]["skipped"] == ["name"]  # a name per language: taught from the terminal


def test_an_unknown_game_is_refused(viewer):
    assert viewer.get("/api/definitions?game=chess").status_code == 422


@pytest.mark.parametrize("game", sorted(CASES))
def test_a_valid_teach_is_accepted_and_saved(app, host, viewer, game):
    assert host.send(SETUPS[game]).status_code == 200
    kind, item, definition = CASES[game]["teach"]
    reply = host.send(teach(kind, item, definition))
    assert reply.status_code == 200, reply.json
    saved = app.extensions["companion"].session.definitions(game).load()
    assert saved[kind][item].items() >= definition.items()


@pytest.mark.parametrize("game", sorted(CASES))
def test_a_wrong_value_is_refused_naming_its_field(host, viewer, game):
    assert host.send(SETUPS[game]).status_code == 200
    version = viewer.get("/api/state").json["version"]
    kind, item, _ = CASES[game]["teach"]
    definition, field = CASES[game]["wrong"]
    reply = host.send(teach(kind, item, definition))
    assert reply.status_code in (400, 422)
    assert reply.json["params"]["field"] == field and field in reply.json["message"]
    assert viewer.get("/api/state").json["version"] == version


@pytest.mark.parametrize("game", sorted(CASES))
def test_a_viewer_cannot_teach(host, viewer, game):
    assert host.send(SETUPS[game]).status_code == 200
    kind, item, definition = CASES[game]["teach"]
    reply = viewer.post("/api/events", json={"event": teach(kind, item, definition)})
    assert reply.status_code == 403 and reply.json["error"] == "host.required"
