"""The companion command, run as a real process."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from clitools import companion

ROOT = Path(__file__).resolve().parents[2]
DEMO = ROOT / "examples" / "last-bastion-demo.jsonl"


def test_games_lists_last_bastion():
    result = companion("games", "--json")
    assert result.returncode == 0
    assert "last-bastion" in [g["id"] for g in json.loads(result.stdout)]


def test_replay_prints_announcements_and_the_final_view(tmp_path):
    spoken = companion("replay", str(DEMO), "--data-dir", str(tmp_path / "a"), "--lang", "fr")
    assert spoken.returncode == 0, spoken.stderr
    assert "Tour de Gary : phase Horde du plateau jaune." in spoken.stdout
    result = companion("replay", str(DEMO), "--json", "--data-dir", str(tmp_path / "b"))
    assert result.returncode == 0
    view = json.loads(result.stdout)
    for key in ("game", "status", "reason", "score", "active", "phase", "expects", "deck",
                "boards", "tiles", "heroes", "reserve", "prompts"):
        assert key in view
    assert view["active"] == "N" and view["expects"]["kind"] == "card"
    assert "Gary gains 1 Call to Arms." in result.stderr


@pytest.mark.parametrize("game, last_line, status", [
    ("aot-last-stand", "The Titan wins: all Cannons destroyed!", "lost"),
    ("runemasters", "Round 3.", "playing"),
    ("last-heroes", "Ben kills Snake (column 2, level 3).", "playing"),
])
def test_every_game_has_a_demo_that_replays(tmp_path, game, last_line, status):
    """``GAME=<id> make demo``: each game's example journal replays to its end, in French too."""
    demo = ROOT / "examples" / f"{game}-demo.jsonl"
    result = companion("replay", str(demo), "--json", "--data-dir", str(tmp_path / "en"))
    assert result.returncode == 0, result.stderr
    assert result.stderr.splitlines()[-1] == last_line
    view = json.loads(result.stdout)
    assert (view["game"], view["status"]) == (game, status)
    french = companion("replay", str(demo), "--lang", "fr", "--data-dir", str(tmp_path / "fr"))
    assert french.returncode == 0 and french.stdout.strip()


def test_replay_stops_at_the_first_rejected_event_and_keeps_the_rest(tmp_path):
    lines = DEMO.read_text().splitlines()
    events = [line for line in lines if line.startswith("{")][:7]  # its format, then events
    events.insert(6, '{"type": "fight", "targets": ["yellow.1"]}')  # from the centre
    bad = tmp_path / "bad.jsonl"
    bad.write_text("\n".join(events) + "\n")
    data = str(tmp_path / "data")
    result = companion("replay", str(bad), "--data-dir", data)
    assert result.returncode == 2
    assert result.stderr == ("line 7: No fight is possible from the central tile "
                             "(except for Twindalli).\n")
    assert "Traceback" not in result.stderr
    history = json.loads(companion("history", "--json", "--data-dir", data).stdout)
    assert [h["type"] for h in history] == ["setup", "teach", "teach", "card", "card"]


def test_undo_and_history_from_the_terminal(tmp_path):
    data = str(tmp_path / "data")
    companion("replay", str(DEMO), "--data-dir", data)
    before = json.loads(companion("history", "--json", "--data-dir", data).stdout)
    undone = companion("undo", "--steps", "3", "--data-dir", data)
    assert undone.returncode == 0 and "3" in undone.stdout
    after = json.loads(companion("history", "--json", "--data-dir", data).stdout)
    assert after == before[:-3]
    assert companion("undo", "--steps", "999", "--data-dir", data).returncode == 2


def test_a_corrupt_journal_is_named_without_a_traceback(tmp_path):
    data = tmp_path / "data"
    data.mkdir()
    (data / "journal.sqlite3").write_bytes(b"\x00garbage" * 100)
    result = companion("history", "--data-dir", str(data))
    assert result.returncode == 2
    assert "journal.sqlite3" in result.stderr and "Traceback" not in result.stderr


def test_cards_add_edit_list_forget(tmp_path):
    data = str(tmp_path / "data")
    added = companion("cards", "add", "goule", "--name", "Goule", "--type", "monster",
                      "--colour", "black", "--resistance", "2", "--exit",
                      '[{"op": "gain", "token": "call_to_arms"}]', "--data-dir", data)
    assert added.returncode == 0, added.stderr
    again = companion("cards", "add", "goule", "--name", "X", "--data-dir", data, "--lang", "fr")
    assert again.returncode == 2
    assert again.stderr == "goule (card) a déjà une définition ; utilisez `companion cards edit`\n"
    assert companion("cards", "edit", "goule", "--resistance", "3",
                     "--data-dir", data).returncode == 0
    listed = json.loads(companion("cards", "list", "--json", "--data-dir", data).stdout)
    assert listed["goule"]["resistance"] == 3 and listed["goule"]["colour"] == "black"
    assert "incube" in listed, "the package's cards are listed too"
    wrong = companion("cards", "add", "troll", "--name", "Troll", "--type", "monster",
                      "--colour", "purple", "--resistance", "2", "--data-dir", data)
    assert wrong.returncode == 2 and "colour" in wrong.stderr
    assert companion("cards", "forget", "goule", "--data-dir", data).returncode == 0
    listed = json.loads(companion("cards", "list", "--json", "--data-dir", data).stdout)
    assert "goule" not in listed


# -- bad input on the command line (issue 12, defect 5: CLI part) -----------------------------

def one_clear_line(result: subprocess.CompletedProcess) -> str:
    """The single line a refused command prints (exit 2, no traceback)."""
    assert result.returncode == 2, (result.stdout, result.stderr)
    assert "Traceback" not in result.stderr
    assert result.stderr.count("\n") == 1, result.stderr
    return result.stderr


def test_a_data_dir_that_is_a_file_is_named(tmp_path):
    """The tester: ``--data-dir`` naming a file gave a FileExistsError traceback."""
    a_file = tmp_path / "notes.txt"
    a_file.write_text("shopping list")
    for args in (("history",), ("undo",), ("replay", str(DEMO)), ("cards", "list"),
                 ("backup",), ("repair",), ("run", "--simulate", "--port", "0")):
        said = one_clear_line(companion(*args, "--data-dir", str(a_file)))
        assert said == f"{a_file} is a file, not a data directory; choose a folder with " \
                       "--data-dir\n", args
    french = companion("history", "--data-dir", str(a_file), "--lang", "fr")
    assert "est un fichier, pas un dossier de données" in one_clear_line(french)
    assert a_file.read_text() == "shopping list"


def test_replay_of_a_deeply_nested_line_is_refused(tmp_path):
    """The tester: a JSON line nested 1,000 deep raised RecursionError."""
    nested = tmp_path / "nested.jsonl"
    nested.write_text('{"type": "setup", "x": ' + "[" * 10_000 + "]" * 10_000 + "}\n")
    said = one_clear_line(companion("replay", str(nested), "--data-dir", str(tmp_path / "d")))
    assert said.startswith("line 1: Not valid JSON: nested too deeply")


def test_replay_of_a_device_or_an_endless_line_is_refused_at_once(tmp_path):
    """The tester: ``companion replay /dev/zero`` hung."""
    said = one_clear_line(companion("replay", "/dev/zero", "--data-dir", str(tmp_path / "d")))
    assert said == "/dev/zero: not a regular file; give a JSON-lines file of events\n"
    endless = tmp_path / "endless.jsonl"
    endless.write_bytes(b"{" + b" " * 1_000_000)
    said = one_clear_line(companion("replay", str(endless), "--data-dir", str(tmp_path / "d")))
    assert "line 1 is longer than 65536 bytes" in said
    binary = tmp_path / "binary.jsonl"
    binary.write_bytes(b'{"type": "setup"}\n\x00\x01\x02\n')
    said = one_clear_line(companion("replay", str(binary), "--data-dir", str(tmp_path / "d"),
                                    "--lang", "fr"))
    assert "la ligne 2 contient des données binaires" in said


def test_run_on_a_port_in_use_says_so(tmp_path):
    """The tester: a port already in use gave an OSError traceback."""
    import socket

    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        result = subprocess.run(
            [sys.executable, "-m", "companion", "run", "--simulate", "--host", "127.0.0.1",
             "--port", str(port), "--data-dir", str(tmp_path / "d")], capture_output=True,
            text=True, cwd=ROOT, timeout=60,
            env={**os.environ, "COMPANION_CONFIG": str(ROOT / "tests/web/silent.toml")})
    assert result.returncode == 2 and "Traceback" not in result.stderr
    assert result.stderr.endswith(f"port {port} is already in use (another companion or "
                                  "program); choose another with --port\n")
    assert companion("undo", "--data-dir", str(tmp_path / "d")).returncode == 2
    assert "in use" not in companion("undo", "--data-dir", str(tmp_path / "d")).stderr, (
        "the failed run let go of the data directory")
