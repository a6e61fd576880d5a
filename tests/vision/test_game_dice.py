"""Games declare their dice (issue 41, item 6): the dice each game reads are its folder's data
(``dice.json``), handed to vision by the app layer; ``vision/`` names no game. Every profile id
shipped before keeps working, so what owners taught under it (faces, table examples) still loads;
bad profile data is refused with nothing changed."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

import vision
import vision.profile
from companion.dicehandoff import declare_dice
from companion.engine.registry import registry
from companion.gamedice import dice_file, game_dice
from vision.features import version
from vision.profile import (
    ProfileError,
    list_profiles,
    load_profile,
    profile_data,
    taught_path,
    use_profiles,
)
from vision.synth import render, synth_profiles
from vision.table import load_table, table_path

VISION = Path(vision.__file__).parent
SHIPPED_BEFORE = {"d6", "last-bastion/combat", "last-bastion/corruption", "runemasters/rune",
                  "aot/hero"}  # the ids owners' taught faces and table examples refer to


def test_vision_names_no_game():
    games = registry().games.values()
    words = {g.id for g in games} | {p["name"] for g in games for p in game_dice(g)}
    words |= {"bastion", "runemaster", "titan"}
    for path in [*VISION.rglob("*.py"), *VISION.glob("profiles/*.json")]:
        text = path.read_text(encoding="utf-8").lower()
        assert not [w for w in words if w.lower() in text], path


def test_each_game_declares_the_dice_it_reads_in_its_folder():
    for game in registry().games.values():
        declared = [p["name"] for p in game_dice(game)]
        assert declared == list(game.capabilities.dice), game.id
        if declared:
            assert dice_file(game).parent.name == type(game).__module__.split(".")[-2]
    assert set(list_profiles()) >= SHIPPED_BEFORE
    assert set(synth_profiles()) == SHIPPED_BEFORE - {"d6"}  # every learned die can be drawn


def test_an_owners_taught_faces_and_table_examples_still_load(tmp_path):
    """A data directory as earlier versions wrote it: the taught file and the table file keep
    their paths, named by the profile id."""
    vector = [0.5] * len(load_profile("last-bastion/combat").examples["red"][0])
    taught = taught_path("last-bastion/combat", tmp_path)
    assert taught == tmp_path / "vision" / "last-bastion__combat.json"
    taught.parent.mkdir(parents=True)
    taught.write_text(json.dumps({"profile": "last-bastion/combat", "features": version(),
                                  "examples": {"red": [vector]}}))
    table = table_path("aot/hero", tmp_path)
    assert table == tmp_path / "vision" / "table" / "aot__hero.json"
    table.parent.mkdir(parents=True)
    table.write_text(json.dumps({"profile": "aot/hero", "features": version(), "examples": [
        {"id": "0a1b2c3d", "face": "titan", "read": "combat", "box": [10, 10, 50, 50],
         "frame": [640, 480], "camera": None, "vector": vector, "added": 1.0}]}))
    assert load_profile("last-bastion/combat", tmp_path).examples["red"] == [vector]
    assert [e.face for e in load_table("aot/hero", tmp_path).examples] == ["titan"]


def test_the_dice_commands_know_the_games_dice(tmp_path):
    """``companion dice`` hands the games' dice to vision itself (a fresh process)."""
    env = {**os.environ, "PYTHONPATH": str(Path(__file__).resolve().parents[2])}
    done = subprocess.run([sys.executable, "-m", "companion", "dice", "table", "list",
                           "--profile", "runemasters/rune", "--data-dir", str(tmp_path),
                           "--lang", "en"], capture_output=True, text=True, env=env,
                          timeout=120)
    assert done.returncode == 0, done.stderr
    assert "runemasters/rune: no example of this table yet" in done.stdout


@pytest.mark.parametrize("bad", [
    {"name": "", "kind": "learned", "faces": ["a"]},
    {"name": "x/y", "kind": "cubes", "faces": ["a"]},
    {"name": "x/y", "kind": "learned", "faces": []},
    {"name": "d6", "kind": "learned", "faces": ["a"]},  # vision's own pip die is not replaced
    "not a profile",
])
def test_bad_profile_data_is_refused_with_nothing_changed(bad):
    before = list_profiles()
    with pytest.raises(ProfileError) as refused:
        use_profiles([{"name": "x/ok", "kind": "learned", "faces": ["a"]}, bad],
                     Path("dice.json"))
    assert "dice.json" in refused.value.texts()["en"] and refused.value.texts()["fr"]
    assert list_profiles() == before and load_profile("d6").kind == "pips"


def test_a_profile_without_a_look_cannot_be_drawn(monkeypatch):
    monkeypatch.setattr(vision.profile, "_GIVEN", dict(vision.profile._GIVEN))  # this test's
    use_profiles([{"name": "plain/cube", "kind": "learned", "faces": ["a", "b"]}])
    with pytest.raises(ProfileError, match="plain/cube"):
        render("plain/cube", np.random.default_rng(1))
    assert "plain/cube" not in synth_profiles()
    assert profile_data("plain/cube")["faces"] == ["a", "b"]


def test_declaring_again_changes_nothing():
    before = {name: profile_data(name) for name in list_profiles()}
    assert set(declare_dice()) == SHIPPED_BEFORE - {"d6"}
    assert {name: profile_data(name) for name in list_profiles()} == before
