"""Engine figures of issue #2: apply and journal one event, and resume a 500-event game.

Usage: ``.venv/bin/python benchmarks/engine.py [--events 500] [--dir DIR] [--seed N]``

A random 4-player Heroic game of Last Bastion (``tests/helpers/lastbastion_driver.py``: cards
taught as they are drawn, fights, dice, prompts, a few undos)
is played through a real ``Session`` on a SQLite file
in a temporary directory (WAL, ``synchronous=FULL``: every submit commits and syncs). The first
figure is the median wall time of ``Session.submit`` over the accepted events (refused ones are
not timed: they write nothing). The second is the time to construct a ``Session`` on that data
directory once the game's journal holds ``--events`` events, i.e. to replay it from disk (median
of several openings). Targets on the reference machine: under 2 ms and under 0.5 s.
"""

from __future__ import annotations

import argparse
import random
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests" / "helpers"))

from lastbastion_driver import Style, propose, random_setup  # noqa: E402

from companion.engine import RuleError, Session  # noqa: E402

TARGET_EVENT_MS = 2.0
TARGET_RESUME_S = 0.5
TARGET_STARTUP_S = 0.25
STYLE = Style(wild=0.0, undo=0.02, end_turn=0.6)


def filesystem(path: Path) -> str:
    """The type of the filesystem holding ``path`` (from /proc/mounts), or "unknown"."""
    try:
        mounts = [line.split() for line in Path("/proc/mounts").read_text().splitlines()]
    except OSError:
        return "unknown"
    best = ("", "unknown")
    resolved = str(path.resolve())
    for fields in mounts:
        point, kind = fields[1], fields[2]
        inside = resolved == point or resolved.startswith(point.rstrip("/") + "/")
        if inside and len(point) > len(best[0]):
            best = (point, kind)
    return best[1]


def play(data_dir: Path, events: int, seed: int) -> list[float]:
    """Play one game until its journal holds ``events`` events; return each submit's seconds.

    Should the game end first, the table undoes a few steps and plays on (undos are journal
    events too, and resuming replays them).
    """
    rnd = random.Random(seed)
    session = Session(data_dir)
    timings: list[float] = []
    journaled = 0
    try:
        setup = random_setup(rnd, players=4, mode="heroic")
        start = time.perf_counter()
        session.submit(setup)
        timings.append(time.perf_counter() - start)
        journaled = 1
        while journaled < events:
            event = propose(session, rnd, STYLE)
            if event is None:
                event = {"type": "undo", "steps": min(rnd.randint(3, 12),
                                                      len(session.history()) - 1)}
            start = time.perf_counter()
            try:
                session.submit(event)
            except RuleError:
                continue
            timings.append(time.perf_counter() - start)
            journaled += 1
        assert len(session.journal_entries()) == events
    finally:
        session.close()
    return timings


def resume(data_dir: Path, times: int) -> list[float]:
    """Seconds to open a Session on the data directory (the journal replayed), ``times`` times."""
    timings = []
    for _ in range(times):
        start = time.perf_counter()
        session = Session(data_dir)
        timings.append(time.perf_counter() - start)
        session.close()
    return timings


def verdict(value: float, target: float) -> str:
    """PASS under the target, MISS otherwise."""
    return "PASS" if value < target else "MISS"


def startup(runs: int) -> tuple[list[float], list[str]]:
    """Wall seconds of ``companion games`` as a new process, and the heavy modules it loaded
    (OpenCV, numpy, Flask: none should be)."""
    times = []
    for _ in range(runs):
        began = time.perf_counter()
        subprocess.run([sys.executable, "-m", "companion", "games"], check=True,
                       stdout=subprocess.DEVNULL)
        times.append(time.perf_counter() - began)
    probe = ("import sys, runpy; sys.argv = ['companion', 'games']\n"
             "try:\n    runpy.run_module('companion', run_name='__main__')\n"
             "except SystemExit:\n    pass\n"
             "print(' '.join(m for m in ('cv2', 'numpy', 'flask') if m in sys.modules),"
             " file=sys.stderr)")
    loaded = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True,
                            check=True).stderr.split()
    return times, loaded


def main(argv: list[str] | None = None) -> int:
    """Run both measures and print them with their targets; exit 1 on a MISS with --strict."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--events", type=int, default=500, help="events in the resumed game")
    parser.add_argument("--dir", type=Path, default=None,
                        help="where to create the temporary data directory (default: system tmp)")
    parser.add_argument("--seed", type=int, default=2)
    parser.add_argument("--strict", action="store_true", help="exit 1 if a target is missed")
    args = parser.parse_args(argv)

    base = Path(tempfile.mkdtemp(prefix="companion-bench-", dir=args.dir))
    try:
        data_dir = base / "data"
        submits = play(data_dir, args.events, args.seed)
        resumes = resume(data_dir, 7)
        event_ms = statistics.median(submits) * 1000
        resume_s = statistics.median(resumes)
        session = Session(data_dir)
        cards = len(session.state["catalog"]["card"])
        session.close()
    finally:
        shutil.rmtree(base, ignore_errors=True)

    print(f"data directory: {base} ({filesystem(base)}), SQLite WAL, synchronous=FULL")
    print(f"game: 4 players, heroic, {args.events} journal events, {cards} cards known")
    print(f"apply + journal one event (median of {len(submits)} submits): {event_ms:7.3f} ms"
          f"   target < {TARGET_EVENT_MS:g} ms   {verdict(event_ms, TARGET_EVENT_MS)}"
          f"   (p90 {sorted(submits)[int(len(submits) * 0.9)] * 1000:.3f} ms)")
    print(f"resume a {args.events}-event game from disk (median of {len(resumes)}):"
          f" {resume_s:7.3f} s    target < {TARGET_RESUME_S:g} s   "
          f"{verdict(resume_s, TARGET_RESUME_S)}")
    times, loaded = startup(7)
    startup_s = statistics.median(times)
    print(f"`companion games` start-up (median of {len(times)} processes):  {startup_s:7.3f} s"
          f"    target < {TARGET_STARTUP_S:g} s   {verdict(startup_s, TARGET_STARTUP_S)}"
          f"   (heavy modules loaded: {', '.join(loaded) or 'none'})")
    missed = (event_ms >= TARGET_EVENT_MS or resume_s >= TARGET_RESUME_S
              or startup_s >= TARGET_STARTUP_S)
    return 1 if args.strict and missed else 0


if __name__ == "__main__":
    sys.exit(main())
