"""The journal is the only truth (issue 12, defect 2: "Committed but not acknowledged, and derived
files that drift").

The tester saw a ``teach`` committed while saving its definition failed (disk full, read-only
directory): a 500 for the client, the event in the journal but not in
``definitions/last-bastion.json``, and ``.tmp-*.json`` files left behind by kills. Now what an
event teaches is committed with it (the journal's ``learned`` table) and written to the
definitions file after; a failed write is repaired from the journal, never reported as a
failure of a committed event; a disk that cannot take a write refuses the event before it is
written; stale temporary files are swept when a writer opens the directory.
"""

from __future__ import annotations

import errno
import json
import subprocess
import sys
from pathlib import Path

import pytest
from lastbastion import play, solo

from companion.engine import DefinitionStore, Session, StoreError

ROOT = Path(__file__).resolve().parents[2]
TEACH = {"type": "teach", "kind": "card", "id": "goule",
         "definition": {"name": "Goule", "type": "monster", "colour": "black", "resistance": 2}}


def owner_file(data: Path) -> dict:
    """What ``definitions/last-bastion.json`` holds."""
    path = data / "definitions" / "last-bastion.json"
    return json.loads(path.read_text()) if path.exists() else {}


def disk_full(*args, **kwargs):
    """What a write on a full disk raises."""
    raise OSError(errno.ENOSPC, "No space left on device")


def test_a_teach_whose_file_write_fails_is_acknowledged_and_written_from_the_journal(
        session, data_dir, monkeypatch):
    session.submit(solo())
    monkeypatch.setattr(DefinitionStore, "_write", disk_full)
    step = session.submit(TEACH)
    assert step.label.key == "history.teach" and session.version == 2
    assert [e.event.type for e in session.journal_entries()] == ["setup", "teach"]
    assert "goule" not in owner_file(data_dir).get("card", {})
    doctor = subprocess.run([sys.executable, "-m", "companion", "doctor", "--json",
                             "--data-dir", str(data_dir)], capture_output=True, text=True,
                            cwd=ROOT, timeout=60)
    check = next(c for c in json.loads(doctor.stdout) if c["id"] == "journal")
    assert check["ok"] is False and "1 taught definition" in check["detail"]
    session.submit(solo())
    setup = session.journal_entries()[0].event
    assert setup.fields["definitions"]["card"]["goule"]["resistance"] == 2, (
        "a new game starts with what the journal taught, even before the file catches up")
    monkeypatch.undo()
    session.close()
    Session(data_dir).close()
    assert owner_file(data_dir)["card"]["goule"]["colour"] == "black"


def test_a_failed_write_is_retried_after_the_next_event(session, data_dir, monkeypatch):
    session.submit(solo())
    monkeypatch.setattr(DefinitionStore, "_write", disk_full)
    session.submit(TEACH)
    monkeypatch.undo()
    session.submit({**TEACH, "id": "troll", "definition": {**TEACH["definition"],
                                                           "name": "Troll"}})
    assert set(owner_file(data_dir)["card"]) == {"goule", "troll"}


def test_a_full_disk_refuses_the_event_before_it_is_written(session, data_dir, monkeypatch):
    session.submit(solo())
    from companion.engine import files  # new with issue 12

    monkeypatch.setattr(files, "MIN_FREE_BYTES", 1 << 62)  # more than any real disk has free
    with pytest.raises(StoreError) as error:
        session.submit(TEACH)
    assert error.value.key == "store.full" and error.value.params["path"] == str(data_dir)
    assert [e.event.type for e in session.journal_entries()] == ["setup"]
    assert session.version == 1 and owner_file(data_dir) == {}
    monkeypatch.undo()
    session.submit(TEACH)
    assert session.version == 2


def test_stale_temporary_files_are_swept_when_a_writer_opens(data_dir):
    Session(data_dir).close()
    left = [data_dir / "definitions" / ".tmp-abc123.json", data_dir / ".tmp-77-tags.json",
            data_dir / "backups" / ".tmp-99-auto-x.sqlite3"]
    for path in left:
        path.parent.mkdir(exist_ok=True)
        path.write_text("{half a fi")
    Session(data_dir, readonly=True).close()
    assert all(p.exists() for p in left), "a reader writes nothing"
    Session(data_dir).close()
    assert not any(p.exists() for p in left)
    assert not list(data_dir.rglob(".tmp-*"))


def test_undoing_a_teach_keeps_the_definition(session, data_dir):
    """Decided (README, "Undo"): undo takes back a step of the game, not what the owner read
    off a card; a wrong definition is corrected by teaching it again or ``companion cards``."""
    play(session, solo(), TEACH, {"type": "undo"})
    assert [f.event.type for f in session.history()] == ["setup"]
    assert owner_file(data_dir)["card"]["goule"]["resistance"] == 2
    session.submit(solo())
    assert "goule" in session.journal_entries()[0].event.fields["definitions"]["card"]


def test_a_listener_failing_after_the_commit_does_not_fail_the_event(session):
    """An event is acknowledged if and only if it is committed: a page, a voice or a LED that
    fails afterwards is logged, the event stands."""
    session.submit(solo())

    def broken(update):
        raise RuntimeError("the LED driver fell over")

    session.subscribe(broken)
    session.submit(TEACH)
    assert session.version == 2 and len(session.journal_entries()) == 2
