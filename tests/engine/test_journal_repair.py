"""A journal that does not replay is never a dead end (issue 12, defect 1 and "What to build").

The tester's two writers left game 1 with an event accepted on top of a stale state; after a
restart ``run``, ``history`` and ``undo`` all exited 2 ("cannot be replayed ...
event.not_expected"), ``doctor`` said nothing "and nothing can bring the game back". Here the
same journal is written as those two writers wrote it (the CLI's ``undo``, then the server's
next event on its old state), and every command says what is wrong and points to ``companion
repair``, which sets the refused tail aside (kept) and resumes the game at its last good event.
"""

from __future__ import annotations

import json
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest
from lastbastion import card, play, solo

from companion.engine import Event, Session, StoreError
from companion.engine.journal import Journal

ROOT = Path(__file__).resolve().parents[2]
MOVE = {"type": "move", "hero": "kazgin", "to": [2, 1]}


def companion(*args: str) -> subprocess.CompletedProcess:
    """Run ``companion ARGS`` as a real process."""
    return subprocess.run([sys.executable, "-m", "companion", *args], capture_output=True,
                          text=True, cwd=ROOT, timeout=60)


def two_writers(data: Path) -> None:
    """Game 1 as the tester's two writers left it: setup, a card (seq 2), the CLI's undo of that
    card (seq 3), then the server's move (seq 4), legal on its stale state, refused after the
    undo (a card is awaited)."""
    session = Session(data)
    play(session, solo(), card("imp", "yellow", 1, slot="yellow.1"))
    summary = session.past_games()[0].summary
    session.close()
    journal = Journal(data / "journal.sqlite3")
    journal.append(1, Event("undo", {"steps": 1}, "cli", 1.0), None, summary)
    journal.append(1, Event("move", {"hero": "kazgin", "to": [2, 1]}, "web", 2.0), None, summary)
    journal.close()


def test_every_command_points_to_repair_instead_of_dying(tmp_path):
    data = tmp_path / "data"
    two_writers(data)
    with pytest.raises(StoreError) as error:
        Session(data)
    assert error.value.key == "store.needs_repair"
    assert (error.value.params["seq"], error.value.params["event"]) == (4, "move")
    assert error.value.params["reason"]["key"] == "event.not_expected"
    for args in (("undo",), ("replay", str(ROOT / "examples" / "last-bastion-demo.jsonl"))):
        result = companion(*args, "--data-dir", str(data))
        assert result.returncode == 2 and "Traceback" not in result.stderr
        assert "companion repair" in result.stderr and "event 4 (move)" in result.stderr
    history = companion("history", "--json", "--data-dir", str(data))
    assert history.returncode == 0, "history shows what replays"
    assert [h["type"] for h in json.loads(history.stdout)] == ["setup"]
    assert "companion repair" in history.stderr
    doctor = json.loads(companion("doctor", "--json", "--data-dir", str(data)).stdout)
    check = next(c for c in doctor if c["id"] == "journal")
    assert check["ok"] is False and "event 4" in check["detail"]
    assert "companion repair" in check["fix"]
    french = companion("undo", "--data-dir", str(data), "--lang", "fr")
    assert "ne peut pas être rejouée à partir de l'événement 4" in french.stderr


def test_repair_sets_the_refused_tail_aside_and_resumes_at_the_last_good_event(tmp_path):
    data = tmp_path / "data"
    two_writers(data)
    repaired = companion("repair", "--data-dir", str(data))
    assert repaired.returncode == 0, repaired.stderr
    assert "event 4 (move) was refused. move is not expected now" in repaired.stdout
    assert "game 1 resumes at event 3" in repaired.stdout
    listed = companion("repair", "--list", "--data-dir", str(data))
    assert listed.stdout.startswith("4  game 1  move: move is not expected now")
    db = sqlite3.connect(data / "journal.sqlite3")
    assert db.execute("SELECT seq, type, body FROM set_aside").fetchall() == [
        (4, "move", '{"hero":"kazgin","to":[2,1]}')], "kept, never deleted"
    assert [r[0] for r in db.execute("SELECT seq FROM events")] == [1, 2, 3]
    db.close()
    session = Session(data)
    assert session.version == 3 and [f.event.type for f in session.history()] == ["setup"]
    session.submit(card("imp", "yellow", 1, slot="yellow.1"))
    assert session.version == 5, "a set-aside sequence number is never reused"
    session.close()
    again = companion("repair", "--data-dir", str(data))
    assert "nothing to repair" in again.stdout
    doctor = json.loads(companion("doctor", "--json", "--data-dir", str(data)).stdout)
    assert next(c for c in doctor if c["id"] == "journal")["ok"] is True


def test_a_game_whose_setup_no_longer_replays_is_set_aside_whole(tmp_path):
    data = tmp_path / "data"
    session = Session(data)
    play(session, solo())
    session.close()
    db = sqlite3.connect(data / "journal.sqlite3")
    db.execute("UPDATE events SET body = json_set(body, '$.mode', 'legendary')")
    db.commit()
    db.close()
    Journal(data / "journal.sqlite3").reseal()  # as another version of the rules wrote it
    assert companion("repair", "--data-dir", str(data)).returncode == 0
    session = Session(data)
    assert session.game is None and session.past_games() == []
    session.submit(solo())
    assert session.record.id == 2
    session.close()
