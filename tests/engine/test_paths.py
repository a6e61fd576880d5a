"""One data directory for every command: the precedence rule, ``~`` expanded, and the faces
``companion dice teach`` learns are the ones ``companion run`` reads."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from companion import config as settings
from companion.engine import DataPaths, Session

ROOT = Path(__file__).resolve().parents[2]


def test_precedence_flag_env_config_xdg_home(tmp_path):
    env = {"HOME": str(tmp_path / "home"), "XDG_DATA_HOME": str(tmp_path / "xdg"),
           "COMPANION_DATA_DIR": str(tmp_path / "env")}
    assert DataPaths.resolve("given", "conf", env).root == Path("given")
    assert DataPaths.resolve(None, "conf", env).root == tmp_path / "env"
    del env["COMPANION_DATA_DIR"]
    assert DataPaths.resolve(None, "conf", env).root == Path("conf")
    assert DataPaths.resolve(None, "", env).root == tmp_path / "xdg" / "companion"
    del env["XDG_DATA_HOME"]
    assert DataPaths.resolve(None, None, env).root == tmp_path / "home/.local/share/companion"


def test_tilde_is_expanded_in_every_source(monkeypatch, tmp_path):
    monkeypatch.setenv("HOME", str(tmp_path))
    assert DataPaths.resolve("~/a").root == tmp_path / "a"
    assert DataPaths.resolve(None, "~/b", {}).root == tmp_path / "b"
    assert DataPaths.resolve(None, None, {"COMPANION_DATA_DIR": "~/c"}).root == tmp_path / "c"


def test_every_file_is_named_under_the_root(tmp_path):
    paths = DataPaths(tmp_path)
    named = [paths.journal, paths.definitions("g"), paths.tags, paths.hardware_status,
             paths.host_pin, paths.host_sessions]
    assert all(tmp_path in p.parents for p in named) and len(set(named)) == len(named)


@pytest.fixture
def xdg_env(tmp_path, monkeypatch):
    """A user with XDG_DATA_HOME set and no other data directory setting."""
    env = {**os.environ, "HOME": str(tmp_path / "home"), "XDG_DATA_HOME": str(tmp_path / "xdg"),
           "COMPANION_CONFIG": str(tmp_path / "none.toml")}
    env.pop("COMPANION_DATA_DIR", None)
    for key, value in env.items():
        monkeypatch.setenv(key, value)
    monkeypatch.delenv("COMPANION_DATA_DIR", raising=False)
    monkeypatch.setattr(settings, "SYSTEM_FILE", tmp_path / "etc.toml")
    return env


def test_faces_taught_with_xdg_data_home_are_read_by_run(xdg_env, tmp_path):
    sys.path.insert(0, str(ROOT / "tests" / "vision"))
    import cv2
    from dice_fixtures import render_frame

    from vision import load_profile

    image, _ = render_frame("aot/hero", 5, count=1)
    photo = tmp_path / "die.png"
    cv2.imwrite(str(photo), image)
    taught = subprocess.run([sys.executable, "-m", "companion", "dice", "teach", str(photo),
                             "--profile", "aot/hero", "--face", "dodge", "--count", "1"],
                            env=xdg_env, capture_output=True, text=True, timeout=120)
    assert taught.returncode == 0, taught.stderr
    session = Session(settings.data_paths(None))  # what `companion run` opens
    try:
        assert session.data_dir == tmp_path / "xdg" / "companion"
        shipped = load_profile("aot/hero").examples["dodge"]
        assert len(load_profile("aot/hero", session.data_dir).examples["dodge"]) != len(shipped)
    finally:
        session.close()
