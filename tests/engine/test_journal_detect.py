"""Corruption detected, and backups to recover from (issue 12, defect 6: "Corruption not
detected").

The tester truncated the journal to 0 bytes: the companion silently started a new empty one (856
events gone, no warning); a damaged write-ahead log silently lost its tail; there was no backup.
Now an empty or foreign file is refused with the way out, every event row carries a link of a
checksum chain (and ``journal.head`` the newest link), so an altered row or a lost tail is
detected on open and reported by ``run`` and ``doctor``; ``companion backup`` / ``restore`` use
SQLite's online backup, and a backup is kept at every game end (the newest five).
"""

from __future__ import annotations

import json
import shutil
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest
from lastbastion import card, play, solo

from companion.engine import Session, StoreError
from companion.engine.journal import SCHEMA_VERSION, Journal

ROOT = Path(__file__).resolve().parents[2]
LOSE = [{"type": "adjust", "tile": [0, k], "grip": True} for k in range(3)]
"""Three Bastion tiles under the Evil grip: the game is lost (rulebook, "Fin de la partie")."""


def companion(*args: str) -> subprocess.CompletedProcess:
    """Run ``companion ARGS`` as a real process."""
    return subprocess.run([sys.executable, "-m", "companion", *args], capture_output=True,
                          text=True, cwd=ROOT, timeout=60)


def journal_check(data: Path) -> dict:
    """``companion doctor``'s finding about the journal."""
    doctor = companion("doctor", "--json", "--data-dir", str(data))
    return next(c for c in json.loads(doctor.stdout) if c["id"] == "journal")


def test_an_empty_journal_is_refused_with_the_way_out(data_dir):
    session = Session(data_dir)
    play(session, solo(), card("imp", "yellow", 1, slot="yellow.1"))
    session.close()
    path = data_dir / "journal.sqlite3"
    path.write_bytes(b"")
    for suffix in ("-wal", "-shm"):
        Path(f"{path}{suffix}").unlink(missing_ok=True)
    with pytest.raises(StoreError) as error:
        Session(data_dir)
    assert error.value.key == "store.empty"
    for command in ("history", "undo"):
        result = companion(command, "--data-dir", str(data_dir))
        assert result.returncode == 2 and "Traceback" not in result.stderr
        assert "is empty (0 bytes)" in result.stderr and "companion restore" in result.stderr
    assert path.stat().st_size == 0, "left untouched"
    assert journal_check(data_dir)["ok"] is False


def test_an_altered_row_breaks_the_chain_and_is_reported(data_dir):
    session = Session(data_dir)
    play(session, solo(), card("imp", "yellow", 1, slot="yellow.1"),
         {"type": "move", "hero": "kazgin", "to": [2, 1]})
    session.close()
    db = sqlite3.connect(data_dir / "journal.sqlite3")
    db.execute("UPDATE events SET body = json_set(body, '$.to', json('[2,2]')) WHERE seq = 3")
    db.commit()
    db.close()
    with pytest.raises(StoreError) as error:
        Session(data_dir)
    assert (error.value.key, error.value.params["seq"]) == ("store.chain_broken", 3)
    run = companion("undo", "--data-dir", str(data_dir))
    assert run.returncode == 2 and "event 3 was altered" in run.stderr
    check = journal_check(data_dir)
    assert check["ok"] is False and "event 3 was altered" in check["detail"]
    assert companion("repair", "--data-dir", str(data_dir)).returncode == 0
    session = Session(data_dir)
    assert [f.event.type for f in session.history()] == ["setup", "card"]
    session.close()


def test_a_damaged_write_ahead_log_losing_the_tail_is_detected(tmp_path):
    """The copy of a live data directory whose WAL lost its last frame: SQLite drops the last
    transaction without a word; the head beside the journal tells."""
    data, copy = tmp_path / "data", tmp_path / "copy"
    session = Session(data)
    play(session, solo(), card("imp", "yellow", 1, slot="yellow.1"),
         {"type": "move", "hero": "kazgin", "to": [2, 1]})
    copy.mkdir()
    for name in ("journal.sqlite3", "journal.sqlite3-wal", "journal.head"):
        shutil.copy(data / name, copy / name)
    session.close()
    wal = copy / "journal.sqlite3-wal"
    wal.write_bytes(wal.read_bytes()[:-100])
    with pytest.raises(StoreError) as error:
        Session(copy)
    assert error.value.key == "store.tail_lost"
    assert (error.value.params["first"], error.value.params["head"]) == (3, 3)
    history = companion("history", "--data-dir", str(copy))
    assert "events 3 to 3 are gone" in history.stderr
    assert journal_check(copy)["ok"] is False
    repaired = companion("repair", "--data-dir", str(copy))
    assert "events 3 to 3 are gone; the journal goes on without them" in repaired.stdout
    Session(copy).close()


def test_a_journal_of_the_first_format_opens_with_its_chain_computed(data_dir):
    session = Session(data_dir)
    play(session, solo(), card("imp", "yellow", 1, slot="yellow.1"))
    view = session.view()
    session.close()
    old = data_dir.parent / "old.sqlite3"
    db = sqlite3.connect(old)
    db.executescript("""
        CREATE TABLE games (id INTEGER PRIMARY KEY, game TEXT NOT NULL, started REAL NOT NULL,
            status TEXT NOT NULL DEFAULT 'playing', summary TEXT NOT NULL DEFAULT '{}');
        CREATE TABLE events (seq INTEGER PRIMARY KEY AUTOINCREMENT,
            game_id INTEGER NOT NULL REFERENCES games(id), type TEXT NOT NULL,
            body TEXT NOT NULL, source TEXT NOT NULL, at REAL NOT NULL, label TEXT);
        CREATE INDEX events_by_game ON events (game_id, seq);
        PRAGMA application_id=1413705072; PRAGMA user_version=1;""")
    db.execute(f"ATTACH '{data_dir / 'journal.sqlite3'}' AS new")
    db.execute("INSERT INTO games SELECT * FROM new.games")
    db.execute("INSERT INTO events SELECT seq, game_id, type, body, source, at, label "
               "FROM new.events")
    db.commit()
    db.close()
    shutil.rmtree(data_dir)
    data_dir.mkdir()
    shutil.copy(old, data_dir / "journal.sqlite3")
    reopened = Session(data_dir)
    assert reopened.view() == view
    reopened.submit({"type": "move", "hero": "kazgin", "to": [2, 1]})
    reopened.close()
    journal = Journal(data_dir / "journal.sqlite3", readonly=True)
    assert journal.version == SCHEMA_VERSION and journal.check_chain() is None
    journal.close()


def test_backup_then_restore_brings_the_journal_back(tmp_path):
    data = tmp_path / "data"
    session = Session(data)
    play(session, solo(), card("imp", "yellow", 1, slot="yellow.1"))
    session.close()
    saved = tmp_path / "saved.sqlite3"
    made = companion("backup", str(saved), "--data-dir", str(data))
    assert made.returncode == 0 and str(saved) in made.stdout
    (data / "journal.sqlite3").write_bytes(b"")  # the tester's truncation
    (data / "journal.sqlite3-wal").unlink(missing_ok=True)
    restored = companion("restore", str(saved), "--data-dir", str(data))
    assert restored.returncode == 0, restored.stderr
    assert "version 2" in restored.stdout
    kept = list((data / "backups").glob("before-restore-*"))
    assert len(kept) == 1 and kept[0].stat().st_size == 0, "the empty file was kept, not lost"
    session = Session(data)
    assert [f.event.type for f in session.history()] == ["setup", "card"]
    session.close()
    french = companion("restore", str(tmp_path / "nothing"), "--data-dir", str(data),
                       "--lang", "fr")
    assert french.returncode == 2 and "ce journal n'existe pas" in french.stderr


def test_every_game_end_brings_one_backup_up_to_date_and_it_restores(data_dir, tmp_path):
    """Issue 40, finding 12: the backup at a game end copied the whole journal each time (11 MB
    of backups after 78 quick games). One copy is now brought up to date in place with what the
    game added, and it still restores."""
    session = Session(data_dir)
    copy = data_dir / "backups" / "game-ends.sqlite3"
    for n in range(7):
        play(session, solo(), *LOSE)
        assert session.view()["status"] == "lost"
        if n == 0:
            first = copy.stat().st_ino
    session.close()
    assert copy.stat().st_ino == first, "brought up to date in place, not copied again"
    assert [p.name for p in (data_dir / "backups").iterdir()] == ["game-ends.sqlite3"]
    kept = Journal(copy, readonly=True)
    assert kept.last_seq() == 28 and kept.check_chain() is None
    assert [g.status for g in kept.games()] == ["lost"] * 7
    kept.close()
    moved = shutil.copy(copy, tmp_path / "from-the-box.sqlite3")
    other = tmp_path / "other"
    restored = companion("restore", str(moved), "--data-dir", str(other))
    assert restored.returncode == 0, restored.stderr
    reopened = Session(other)
    assert len(reopened.past_games()) == 7 and reopened.version == 28
    reopened.close()
    assert not list(data_dir.rglob(".tmp-*"))


def test_a_history_changed_by_a_repair_sets_the_old_backup_aside(data_dir):
    session = Session(data_dir)
    for _ in range(2):
        play(session, solo(), *LOSE)
    session.close()
    journal = Journal(data_dir / "journal.sqlite3")
    journal.set_aside([2], "test", 0.0)  # what a repair does: the chain after it changes
    journal.close()
    session = Session(data_dir)
    play(session, solo(), *LOSE)
    session.close()
    backups = data_dir / "backups"
    aside = sorted(backups.glob("auto-*.sqlite3"))
    assert len(aside) == 1
    before, now = Journal(aside[0], readonly=True), Journal(backups / "game-ends.sqlite3",
                                                             readonly=True)
    assert before.last_seq() == 8 and before.event_count() == 8, "the copy before the repair"
    assert now.event_count() == 11 and now.check_chain() is None
    assert now.set_aside_entries()[0][:2] == (2, 1)
    before.close()
    now.close()


def test_moving_the_journal_away_starts_a_new_one_without_a_false_alarm(data_dir):
    """The way out the refusal of an empty journal gives: move the file away. The head the old
    journal left beside it does not make the new one look as if it lost events."""
    session = Session(data_dir)
    play(session, solo(), card("imp", "yellow", 1, slot="yellow.1"))
    session.close()
    (data_dir / "journal.sqlite3").rename(data_dir.parent / "old-journal.sqlite3")
    fresh = Session(data_dir)
    assert fresh.version == 0 and fresh.problems == []
    fresh.submit(solo())
    fresh.close()
    Session(data_dir).close()
