"""A game plugin that breaks stays alone: a package in the ``companion.games`` entry-point group
that fails to import, raises while loading, or registers something that is not a game is listed
as broken (by ``companion games`` and ``companion doctor``) and every other game runs."""

import json
import os
import subprocess
import sys
from pathlib import Path

import hwtools  # noqa: F401  (puts the repository first on sys.path)

ROOT = Path(__file__).resolve().parents[2]
DEMO = ROOT / "examples" / "last-bastion-demo.jsonl"


def install_plugins(site: Path) -> None:
    """Three broken plugin packages, installed the way pip installs them (a dist-info folder
    with entry_points.txt) in a folder put on the path."""
    (site / "crashy_game.py").write_text('raise RuntimeError("the plugin crashes on import")\n')
    (site / "not_a_game.py").write_text("GAME = 42\n")
    for package, entry in (("crashy-game", "crashy = crashy_game:GAME"),
                           ("missing-game", "ghost = ghost_game_module:GAME"),
                           ("odd-game", "odd = not_a_game:GAME")):
        info = site / f"{package.replace('-', '_')}-1.0.dist-info"
        info.mkdir()
        (info / "METADATA").write_text(f"Metadata-Version: 2.1\nName: {package}\nVersion: 1.0\n")
        (info / "entry_points.txt").write_text(f"[companion.games]\n{entry}\n")


def companion(site: Path, *args: str) -> subprocess.CompletedProcess:
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(site), str(ROOT)])}
    return subprocess.run([sys.executable, "-m", "companion", *args], capture_output=True,
                          text=True, cwd=ROOT, env=env, timeout=120)


def test_broken_plugins_are_listed_with_their_error_and_the_games_still_run(tmp_path):
    site = tmp_path / "site"
    site.mkdir()
    install_plugins(site)
    listed = companion(site, "games")
    assert listed.returncode == 0, listed.stderr
    lines = listed.stdout.splitlines()
    assert lines[:4] == ["last-bastion", "aot-last-stand", "last-heroes", "runemasters"]
    assert "crashy: broken, not loaded (package crashy-game: RuntimeError: the plugin crashes " \
           "on import)" in lines
    assert any(line.startswith("ghost: broken") and "ModuleNotFoundError" in line
               for line in lines)
    assert any(line.startswith("odd: broken") and "is a int, not a game" in line
               for line in lines)
    as_json = json.loads(companion(site, "games", "--json").stdout)
    assert {g["id"]: g.get("broken", "")[:18] for g in as_json}["crashy"] == "RuntimeError: the "

    replay = companion(site, "replay", str(DEMO), "--json", "--data-dir", str(tmp_path / "d"))
    assert replay.returncode == 0 and json.loads(replay.stdout)["game"] == "last-bastion"

    doctor = companion(site, "doctor", "--json", "--data-dir", str(tmp_path / "d"))
    games = next(c for c in json.loads(doctor.stdout) if c["id"] == "games")
    assert games["ok"] is False and "crashy (crashy-game): RuntimeError" in games["detail"]
    assert "last-bastion" in games["detail"] and "pip uninstall" in games["fix"]
    assert doctor.returncode == 1
