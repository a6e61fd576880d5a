"""Soak: does the server's memory grow with the work? (issue 40, finding 12)

Starts `companion run --simulate` on the loopback with a fresh data directory, opens
``--viewers`` live streams, and has one host play Last Bastion games one after another at about
``--rate`` events a second (``--events-per-game`` Life adjustments, then both heroes to 0 Life:
the game is lost and the next one starts) for MINUTES minutes. Every ``--every`` seconds it
prints the server's resident memory, open files and threads, and the host's POST latency over
that interval. At the end: the slope of the memory after warm-up (the first third left out), per
1,000 events and per hour (goal: flat, at most 2 MB an hour), the size of ``backups/``, and the
memory of a fresh ``run`` on the finished data directory after one ``/api/state`` and one
``/api/history``, beside a fresh ``run`` on an empty one (goal: the same, whatever the number
of finished games).

    .venv/bin/python benchmarks/soak.py MINUTES [--rate 7] [--viewers 10]
                                        [--events-per-game 130] [--every 30]
"""

from __future__ import annotations

import argparse
import importlib.util
import os
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Iterator
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
_spec = importlib.util.spec_from_file_location("web_benchmark", HERE / "web.py")
bench = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(bench)  # the web benchmark's host, streams and helpers


def status_of(pid: int) -> dict[str, int]:
    """Resident memory (kB) and threads of a process, from /proc."""
    found = {}
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        key, _, value = line.partition(":")
        if key in ("VmRSS", "Threads"):
            found[key] = int(value.split()[0])
    return found


class Server:
    """``companion run --simulate`` on ``data`` (silent voice), its port read from its output."""

    def __init__(self, data: Path) -> None:
        self.process = subprocess.Popen(
            [sys.executable, "-m", "companion", "run", "--simulate", "--host", "127.0.0.1",
             "--port", "0", "--data-dir", str(data)], cwd=ROOT, stdout=subprocess.PIPE,
            text=True, env={**os.environ, "PYTHONUNBUFFERED": "1",
                            "COMPANION_CONFIG": str(ROOT / "tests" / "web" / "silent.toml")})
        self.port = int(self.process.stdout.readline().split()[-1].rsplit(":", 1)[1].strip("/"))
        threading.Thread(target=self.process.stdout.read, daemon=True).start()

    def memory(self) -> float:
        """Resident memory in MB."""
        return status_of(self.process.pid)["VmRSS"] / 1024

    def stop(self) -> None:
        """SIGTERM and wait."""
        self.process.terminate()
        self.process.wait(timeout=15)


def slope(points: list[tuple[float, float]]) -> float:
    """The least-squares slope of ``(x, y)`` points."""
    mean_x = statistics.fmean(x for x, _ in points)
    mean_y = statistics.fmean(y for _, y in points)
    spread = sum((x - mean_x) ** 2 for x, _ in points)
    return sum((x - mean_x) * (y - mean_y) for x, y in points) / spread if spread else 0.0


def end_game() -> list[dict]:
    """Both heroes of the benchmark's setup to 0 Life: the game is lost."""
    return [{"type": "adjust", "hero": hero, "life": 0} for hero in ("teagaan", "mylfaar")]


def games_forever(per_game: int) -> Iterator[dict]:
    """The host's events: a setup, ``per_game`` Life adjustments, the end; and again."""
    while True:
        yield bench.SETUP
        yield from (bench.adjust(n) for n in range(per_game))
        yield from end_game()


def fresh_start(data: Path) -> float:
    """Memory of a new ``run`` on ``data`` after one ``/api/state`` and one ``/api/history``."""
    server = Server(data)
    try:
        for path in ("/api/state", "/api/history"):
            bench._get(server.port, path)
        time.sleep(0.5)
        return server.memory()
    finally:
        server.stop()


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("minutes", type=float)
    parser.add_argument("--rate", type=float, default=7.0, help="host events per second")
    parser.add_argument("--viewers", type=int, default=10, help="live streams")
    parser.add_argument("--events-per-game", type=int, default=130)
    parser.add_argument("--every", type=float, default=30.0, help="seconds between lines")
    args = parser.parse_args()
    data = Path(tempfile.mkdtemp(prefix="companion-soak-"))
    bench.PinStore(data).set(bench.PIN)
    server = Server(data)
    samples: list[tuple[float, int, float]] = []  # seconds, events, MB
    events = games = 0
    try:
        streams = bench.Streams(server.port, args.viewers)
        host = bench.Host(server.port)
        start = time.monotonic()
        until = start + args.minutes * 60
        next_line = start
        print("   s  events games  RSS MB  files threads  POST p50/p95/max ms", flush=True)
        for event in games_forever(args.events_per_game):
            now = time.monotonic()
            if now >= next_line:
                pid = server.process.pid
                rss, files = server.memory(), len(os.listdir(f"/proc/{pid}/fd"))
                took = host.took or [0.0]
                samples.append((now - start, events, rss))
                print(f"{now - start:4.0f} {events:7d} {games:5d} {rss:7.1f} {files:6d} "
                      f"{status_of(pid)['Threads']:7d}  {statistics.median(took):.1f}/"
                      f"{bench.percentile(took, 0.95):.1f}/{max(took):.1f}", flush=True)
                host.took.clear()
                next_line += args.every
                if now >= until:
                    break
            step = time.perf_counter()
            host.send(event)
            events += 1
            games += event["type"] == "setup"
            time.sleep(max(0.0, 1 / args.rate - (time.perf_counter() - step)))
        streams.close()
    finally:
        server.stop()
    warm = [(s, e, m) for s, e, m in samples if s >= samples[-1][0] / 3]
    per_event = slope([(e, m) for _, e, m in warm]) * 1000
    per_hour = slope([(s, m) for s, _, m in warm]) * 3600
    backups = sum(f.stat().st_size for f in (data / "backups").glob("*")) / 1e6
    print(f"after warm-up ({len(warm)} samples): {per_event:+.3f} MB per 1,000 events, "
          f"{per_hour:+.1f} MB an hour (goal: flat, at most 2 MB an hour); {events} events, "
          f"{games} games; backups/ {backups:.2f} MB")
    finished = fresh_start(data)
    empty = fresh_start(Path(tempfile.mkdtemp(prefix="companion-soak-empty-")))
    print(f"a fresh run after /api/state and /api/history: {finished:.1f} MB on the finished "
          f"data directory ({games} games), {empty:.1f} MB on an empty one")
    return 0


if __name__ == "__main__":
    sys.exit(main())
