"""Kill loop of issue 12: a writer killed with SIGKILL, again and again, loses nothing.

Usage: ``.venv/bin/python benchmarks/killloop.py [--cycles 200] [--dir DIR] [--seed N]``

Each cycle starts a child process (this file with ``--child``) on the same data directory: it
opens a real ``Session`` (the writer lock, the temp-file sweep, the chain check, the resume and
the rebuild of ``definitions/``), then plays a random Last Bastion table from
``tests/helpers/lastbastion_driver.py``
— cards taught as they are drawn (``card`` with ``define``), ``teach`` events, undos — and prints
the sequence number of every acknowledged event. The parent kills it with SIGKILL after a random
delay (mostly among writes, sometimes while it opens), then checks, before and after restarting
a session on the directory:

* acknowledged events lost: every printed number must be in the journal (target 0);
* derived-file divergences: ``definitions/last-bastion.json`` must equal every definition the
  journal's events taught, in order — computed here by replaying the journal's events through
  the rules, not read from the journal's own ``learned`` table (target 0 after the restart; the
  number of kills that had left the file behind before it is reported too);
* temporary files left: no ``.tmp-*`` file once a writer has opened the directory (target 0;
  how many kills had left one is reported).

It exits with 1 if a target is missed.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests" / "helpers"))

from crash_writer import write  # noqa: E402
from lastbastion_driver import Style  # noqa: E402

from companion.engine import Session, find_game  # noqa: E402
from companion.engine.journal import Journal  # noqa: E402
from companion.engine.session import Frame, undo_depth  # noqa: E402

STYLE = Style(undo=0.08, undo_to=False, wild=0.1)
"""More undos and wild events (teaching among them) than a real table; no ``undo to <seq>``."""
GAME = "last-bastion"


def child(data_dir: Path, seed: int) -> int:
    """The writer: resume, then play until killed (or 60 s, or the parent gone)."""
    return write(data_dir, seed, 60, STYLE)


class Taught:
    """What the journal's events taught, replayed incrementally through the rules."""

    def __init__(self) -> None:
        self.game = find_game(GAME)
        self.frames: dict[int, list[Frame]] = {}
        self.definitions: dict[str, dict[str, Any]] = {}
        self.seen = 0
        self.teaching_events = 0
        self.undos = 0

    def catch_up(self, journal: Journal) -> None:
        """Replay the events committed since the last call."""
        for record in journal.games():
            for entry in journal.entries(record.id):
                if entry.seq > self.seen:
                    self._apply(record.id, entry)
        self.seen = journal.last_seq()

    def _apply(self, game_id: int, entry: Any) -> None:
        event, frames = entry.event, self.frames.setdefault(game_id, [])
        if event.type == "setup":
            options = {k: v for k, v in event.fields.items() if k != "game"}
            step = self.game.setup(options)
            frames[:] = [Frame(entry.seq, event, step.state, None)]
        elif event.type == "undo":
            self.undos += 1
            del frames[-undo_depth(frames, event.fields):]
            return
        else:
            step = self.game.apply(frames[-1].state, event)
            frames.append(Frame(entry.seq, event, step.state, None))
        self.teaching_events += bool(step.learned)
        for kind, item, definition in step.learned:
            self.definitions.setdefault(kind, {})[item] = definition


def definitions_file(data_dir: Path) -> dict[str, Any]:
    """What ``definitions/last-bastion.json`` holds now ({} when absent)."""
    path = data_dir / "definitions" / f"{GAME}.json"
    return json.loads(path.read_text(encoding="utf-8")) if path.exists() else {}


def acknowledged(out: Path) -> list[int]:
    """The sequence numbers printed on complete lines (a killed child may leave half a line)."""
    return [int(line) for line in out.read_text(encoding="utf-8").split("\n")[:-1]
            if line.isdigit()]


def wait_for_first_line(out: Path, proc: subprocess.Popen[bytes]) -> None:
    """Until the child has resumed, so that the kill lands among writes."""
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline and proc.poll() is None:
        if out.exists() and b"\n" in out.read_bytes():
            return
        time.sleep(0.005)


def main(argv: list[str] | None = None) -> int:
    """Run the loop and print the figures."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--cycles", type=int, default=200)
    parser.add_argument("--dir", type=Path, default=None)
    parser.add_argument("--seed", type=int, default=12)
    parser.add_argument("--max-delay", type=float, default=0.5)
    parser.add_argument("--child", nargs=2, metavar=("DIR", "SEED"), help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.child:
        return child(Path(args.child[0]), int(args.child[1]))

    work = args.dir or Path(tempfile.mkdtemp(prefix="killloop-"))
    data, logs = work / "data", work / "logs"
    logs.mkdir(parents=True, exist_ok=True)
    rnd = random.Random(args.seed)
    taught = Taught()
    acks: set[int] = set()
    lost: set[int] = set()
    figures = {"kills": 0, "unacknowledged commits": 0, "behind before restart": 0,
               "temp files before restart": 0, "divergences after restart": 0,
               "temp files after restart": 0, "self exits": 0}
    started = time.monotonic()
    for cycle in range(args.cycles):
        out = logs / f"{cycle}.out"
        with out.open("wb") as stdout, (logs / f"{cycle}.err").open("wb") as stderr:
            proc = subprocess.Popen(
                [sys.executable, __file__, "--child", str(data), str(args.seed * 1000 + cycle)],
                stdout=stdout, stderr=stderr, env={**os.environ, "PYTHONUNBUFFERED": "1"})
        if rnd.random() < 0.85:
            wait_for_first_line(out, proc)
        time.sleep(rnd.uniform(0.0, args.max_delay))
        proc.send_signal(signal.SIGKILL)
        proc.wait()
        figures["kills"] += proc.returncode == -signal.SIGKILL
        figures["self exits"] += proc.returncode != -signal.SIGKILL
        printed = acknowledged(out)
        acks.update(printed)

        journal = Journal(data / "journal.sqlite3", readonly=True)
        taught.catch_up(journal)
        if printed and journal.last_seq() > printed[-1]:
            figures["unacknowledged commits"] += 1
        journal.close()
        figures["behind before restart"] += definitions_file(data) != taught.definitions
        figures["temp files before restart"] += len(list(data.rglob(".tmp-*")))

        session = Session(data)  # the restart: sweep, chain check, resume, rebuild
        in_journal = {e.seq for g in session.past_games() for e in session.journal_entries(g.id)}
        session.close()
        lost |= acks - in_journal
        figures["divergences after restart"] += definitions_file(data) != taught.definitions
        figures["temp files after restart"] += len(list(data.rglob(".tmp-*")))
        print(f"\rcycle {cycle + 1}/{args.cycles}: {len(acks)} acknowledged, "
              f"{len(lost)} lost", end="", file=sys.stderr, flush=True)
    print(file=sys.stderr)

    elapsed = time.monotonic() - started
    print(f"kill loop: {args.cycles} cycles in {elapsed:.0f} s ({data})")
    print(f"  SIGKILLs: {figures['kills']} (children that ended by themselves: "
          f"{figures['self exits']})")
    print(f"  acknowledged events: {len(acks)}; journal: {taught.seen} events, "
          f"{taught.teaching_events} teaching, {taught.undos} undos")
    print(f"  acknowledged events lost: {len(lost)}")
    print(f"  kills between a commit and its acknowledgement: "
          f"{figures['unacknowledged commits']}")
    print(f"  kills that left definitions/ behind the journal: "
          f"{figures['behind before restart']} (rebuilt on restart)")
    print(f"  derived-file divergences after restart: {figures['divergences after restart']}")
    print(f"  temp files found after kills: {figures['temp files before restart']} "
          f"(swept on restart); left after restart: {figures['temp files after restart']}")
    missed = (lost or figures["divergences after restart"] or figures["temp files after restart"]
              or len(acks) < args.cycles)
    return 1 if missed else 0


if __name__ == "__main__":
    sys.exit(main())
