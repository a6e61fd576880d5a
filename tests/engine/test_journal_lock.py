"""One writer per data directory (issue 12, defect 1: "Two writers corrupt a game").

The tester ran ``companion undo --steps 1 --data-dir D`` (documented in the README) while
``companion run`` used D: the server kept its old state, accepted the next event on top, and after
a restart ``run``, ``history`` and ``undo`` all exited 2 with "game 1 cannot be replayed". A second
``companion run`` on the same directory did the same. DESIGN.md section 2: "Session: the only
writer, and one per data directory (a lock; other commands go through it)".

Here a real ``companion run`` (a subprocess on a loopback port) holds the directory; every other
writing command is refused with one line naming its pid, and nothing is written; the reading
commands still work; once it stops, the same commands work again.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import urllib.request
from collections.abc import Iterator
from pathlib import Path

import pytest
from lastbastion import card, play, solo

from companion.engine import Session, StoreError

ROOT = Path(__file__).resolve().parents[2]
SILENT = ROOT / "tests" / "web" / "silent.toml"
ENV = {**os.environ, "PYTHONUNBUFFERED": "1", "COMPANION_CONFIG": str(SILENT)}


def companion(*args: str, stdin: str | None = None) -> subprocess.CompletedProcess:
    """Run ``companion ARGS`` as a real process."""
    return subprocess.run([sys.executable, "-m", "companion", *args], capture_output=True,
                          text=True, cwd=ROOT, timeout=60, env=ENV, input=stdin)


class Running:
    """A real ``companion run`` on a data directory, its URL and process."""

    def __init__(self, data: Path) -> None:
        self.process = subprocess.Popen(
            [sys.executable, "-m", "companion", "run", "--simulate", "--host", "127.0.0.1",
             "--port", "0", "--data-dir", str(data)], cwd=ROOT, stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT, text=True, env=ENV)
        line = self.process.stdout.readline()
        assert "http://127.0.0.1:" in line, line + self.process.stdout.read()
        self.url = line.split()[-1]
        while "PIN" not in line:  # the last line it prints once it serves (no PIN is set)
            line = self.process.stdout.readline()
            assert line, "the companion stopped while starting"

    def state(self) -> dict:
        """The server's ``/api/state``."""
        with urllib.request.urlopen(self.url + "api/state", timeout=5) as reply:
            return json.loads(reply.read())

    def stop(self) -> str:
        """SIGTERM once it answers requests, wait, and return what it printed."""
        if self.process.poll() is None:
            self.state()
            self.process.send_signal(signal.SIGTERM)
        out, _ = self.process.communicate(timeout=15)
        return out


@pytest.fixture
def running(tmp_path: Path) -> Iterator[tuple[Path, Running]]:
    """A data directory holding a game in progress, and a companion running on it."""
    data = tmp_path / "data"
    session = Session(data)
    play(session, solo(), card("imp", "yellow", 1, slot="yellow.1"))
    session.close()
    server = Running(data)
    try:
        yield data, server
    finally:
        if server.process.poll() is None:
            server.process.kill()
            server.process.wait()


def journal_rows(data: Path) -> int:
    """How many events the journal holds (read by a reading session, no lock)."""
    session = Session(data, readonly=True)
    try:
        return sum(len(session.journal_entries(g.id)) for g in session.past_games())
    finally:
        session.close()


def test_undo_while_a_companion_runs_is_refused_naming_it(running):
    data, server = running
    before = server.state()["version"]
    undo = companion("undo", "--steps", "1", "--data-dir", str(data))
    assert undo.returncode == 2
    assert undo.stderr.count("\n") == 1 and "Traceback" not in undo.stderr
    assert f"pid {server.process.pid}" in undo.stderr and "companion run" in undo.stderr
    assert journal_rows(data) == 2 and server.state()["version"] == before
    french = companion("undo", "--data-dir", str(data), "--lang", "fr")
    assert french.returncode == 2 and "déjà utilisé par un autre companion" in french.stderr


def test_a_second_run_and_every_writing_command_are_refused(running, tmp_path):
    data, server = running
    replay_file = tmp_path / "one.jsonl"
    replay_file.write_text('{"type": "end_turn"}\n')
    refused = {
        "run": ("run", "--simulate", "--host", "127.0.0.1", "--port", "0"),
        "replay": ("replay", str(replay_file)),
        "cards": ("cards", "add", "goule", "--name", "Goule", "--type", "monster",
                  "--colour", "black", "--resistance", "2"),
        "tags": ("tags", "enroll", "incube", "--uid", "04A1B2C3"),
        "tags forget": ("tags", "forget", "04A1B2C3"),
        "pin": ("pin",),
        "repair": ("repair",),
        "restore": ("restore", str(tmp_path / "nothing.sqlite3")),
    }
    for name, args in refused.items():
        result = companion(*args, "--data-dir", str(data), stdin="2468\n2468\n")
        assert result.returncode == 2, (name, result.stdout, result.stderr)
        assert f"pid {server.process.pid}" in result.stderr, (name, result.stderr)
        assert "Traceback" not in result.stderr, name
    assert journal_rows(data) == 2
    assert not (data / "tags.json").exists()
    assert "goule" not in (data / "definitions" / "last-bastion.json").read_text()
    assert server.state()["version"] == 2, "the running companion is unaffected"


def test_reading_commands_work_while_a_companion_runs(running):
    data, server = running
    history = companion("history", "--json", "--data-dir", str(data))
    assert history.returncode == 0, history.stderr
    assert [h["type"] for h in json.loads(history.stdout)] == ["setup", "card"]
    listed = companion("cards", "list", "--json", "--data-dir", str(data))
    assert listed.returncode == 0 and "imp" in json.loads(listed.stdout)
    doctor = companion("doctor", "--json", "--data-dir", str(data))
    journal = next(c for c in json.loads(doctor.stdout) if c["id"] == "journal")
    assert journal["ok"] is True and f"pid {server.process.pid}" in journal["detail"]
    backup = companion("backup", "--data-dir", str(data))
    assert backup.returncode == 0, backup.stderr


def test_once_it_stops_the_same_commands_work(running):
    data, server = running
    assert server.stop().rstrip().endswith("Stopped.")
    undo = companion("undo", "--steps", "1", "--data-dir", str(data))
    assert undo.returncode == 0, undo.stderr
    history = json.loads(companion("history", "--json", "--data-dir", str(data)).stdout)
    assert [h["type"] for h in history] == ["setup"]


def test_a_killed_writer_never_leaves_a_stale_lock(data_dir):
    """The lock is the kernel's: a writer killed with SIGKILL holds nothing afterwards."""
    Session(data_dir).close()
    holder = subprocess.Popen(
        [sys.executable, "-c", "import sys, time; from companion.engine import Session; "
         "s = Session(sys.argv[1]); print('open', flush=True); time.sleep(60)", str(data_dir)],
        cwd=ROOT, stdout=subprocess.PIPE, text=True, env=ENV)
    try:
        assert holder.stdout.readline() == "open\n"
        with pytest.raises(StoreError) as error:
            Session(data_dir)
        assert error.value.key == "store.busy" and error.value.params["pid"] == holder.pid
    finally:
        holder.kill()
        holder.wait()
    Session(data_dir).close()


def test_removing_the_lock_file_lets_no_second_writer_in(running):
    """Issue 40, item 9: ``rm DATA/companion.lock`` while ``run`` runs let ``companion undo``
    lock a new file and write beside the server; the server's next event then broke the
    checksum chain ("event 9 was altered" until ``repair``). The lock is on the directory."""
    data, server = running
    (data / "companion.lock").unlink()
    undo = companion("undo", "--steps", "1", "--data-dir", str(data))
    assert undo.returncode == 2, undo.stdout + undo.stderr
    assert f"pid {server.process.pid}" in undo.stderr and "companion run" in undo.stderr, \
        undo.stderr
    assert journal_rows(data) == 2
    sys.path.insert(0, str(ROOT / "tests" / "web"))
    from webtools import PIN, HttpHost

    from web.auth import PinStore

    PinStore(data).set(PIN)  # what `companion pin` would have set before `run`
    status, body = HttpHost(server.url).login().call("POST", "api/events",
                                                     {"event": {"type": "undo"}})
    assert (status, body.get("version")) == (200, 3), body
    assert server.stop().rstrip().endswith("Stopped.")
    history = companion("history", "--json", "--data-dir", str(data))
    assert history.returncode == 0, history.stderr
    assert [h["type"] for h in json.loads(history.stdout)] == ["setup"]
    doctor = companion("doctor", "--json", "--data-dir", str(data))
    journal = next(c for c in json.loads(doctor.stdout) if c["id"] == "journal")
    assert journal["ok"] is True, journal["detail"]  # the checksum chain is whole


def test_a_spoilt_lock_file_still_names_the_holder(data_dir):
    """What ``companion.lock`` says is a note; the kernel's lock table names the holder when
    the note is spoilt or gone."""
    from companion.engine.lock import holder_of

    session = Session(data_dir)
    try:
        (data_dir / "companion.lock").write_text("{not json")
        holder = holder_of(data_dir)
        assert holder is not None and holder["pid"] == os.getpid()
        (data_dir / "companion.lock").unlink()
        assert holder_of(data_dir)["pid"] == os.getpid()
    finally:
        session.close()
    assert holder_of(data_dir) is None
