"""Café figures: 50 tables on one mosquitto, state → café page latency, café memory over time.

Starts a mosquitto broker on a free loopback port (Debian's binary, a config file of its own), a
child process running 50 simulated tables (each a real Session on its own data directory and an
MQTT bridge, as ``companion run`` has), and ``companion cafe`` in another child process. Each
table plays an event every ``--interval`` seconds (a card, then its undo, and so on), spread
evenly. One Server-Sent Events client reads the café page's stream and, for every new version of
a table, notes the time from the event's commit (its ``at``) to the frame's arrival: the whole
path session → bridge → broker → café → page. The café's resident memory (VmRSS) is sampled
every 10 s. It prints the latency median, p95 and maximum (target p95 < 200 ms), and the café's
memory after the first minute, at the end and its growth per minute after the first minute
(target: flat).

Café streams: ``--pages`` more pages hold the café's stream open meanwhile, from as many loopback
addresses as the per-address cap needs, and every second one of them leaves and another comes
(the testers' 16 pages that came and went hung the café for good). It prints how long ``GET /``
takes (asked every second; target p95 < 200 ms), the café's threads (flat: streams hold none),
how many pages were refused, the café's CPU use and the machine's load.

    .venv/bin/python benchmarks/cafe.py [--tables 50] [--minutes 10] [--interval 2] [--pages 200]
"""

from __future__ import annotations

import argparse
import contextlib
import http.client
import json
import os
import selectors
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(1, str(ROOT / "tests" / "helpers"))

from lastbastion import solo  # noqa: E402
from mosquitto import Mosquitto  # noqa: E402

SAMPLE_SECONDS = 10.0
#: Streams one address may hold (the café's cap, [web] streams_per_address).
PER_ADDRESS = 8


def run_tables(count: int, port: int, interval: float, seconds: float, folder: Path) -> None:
    """The child process: ``count`` tables, each playing an event every ``interval`` s."""
    from companion import config as settings
    from companion import mqtt
    from companion.engine import Session

    tables = []
    for number in range(1, count + 1):
        conf = folder / f"table-{number}.toml"
        conf.write_text(f'[table]\nname = "Table {number}"\n[mqtt]\nhost = "127.0.0.1"\n'
                        f"port = {port}\ndiscovery = false\n", encoding="utf-8")
        session = Session(folder / f"data-{number}")
        session.submit(solo(hero="elmer"), source="simulator")
        tables.append((session, mqtt.start(session, settings.load([conf]))))
    print("ready", flush=True)
    step, turn = interval / count, 0
    start = time.monotonic()
    while time.monotonic() - start < seconds:
        session = tables[turn % count][0]
        event = {"type": "card", "id": "incube"} if session.expects().kind == "card" \
            else {"type": "undo"}
        session.submit(event, source="simulator")
        turn += 1
        time.sleep(max(0.0, start + turn * step - time.monotonic()))
    for session, bridge in tables:
        bridge.stop()
        session.close()


def resident_kib(pid: int) -> int:
    """A process's resident memory (VmRSS), in KiB."""
    return process_status(pid, "VmRSS")


def listen(port: int, delays: list[float], stop: threading.Event) -> None:
    """Read the café's stream; note the delay of every new version of a table."""
    seen: dict[str, int] = {}
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    connection.request("GET", "/api/stream")
    response = connection.getresponse()
    kind = ""
    while not stop.is_set():
        line = response.readline().decode()
        if not line:
            break
        if line.startswith("event: "):
            kind = line[7:].strip()
        elif line.startswith("data: ") and kind == "table":
            table = json.loads(line[6:])
            version = table.get("version")
            if version is not None and version > seen.get(table["id"], version):
                delays.append(time.time() - table["at"])
            if version is not None:
                seen[table["id"]] = version
    connection.close()


def process_status(pid: int, field: str) -> int:
    """A number of a process's /proc status (``VmRSS`` in KiB, ``Threads``)."""
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith(f"{field}:"):
            return int(line.split()[1])
    raise RuntimeError(f"no {field} for {pid}")


class Crowd:
    """``count`` pages holding the café's stream open (read and thrown away), from 127.0.0.2
    up, :data:`PER_ADDRESS` an address; :meth:`churn` makes the oldest leave and a new come."""

    def __init__(self, port: int, count: int) -> None:
        self.port, self.selector = port, selectors.DefaultSelector()
        self.pages: list[socket.socket] = []
        self.opened = self.refused = 0
        for _ in range(count):
            self._open()
        self.stop = threading.Event()
        self._lock = threading.Lock()
        self._reader = threading.Thread(target=self._read, daemon=True)
        self._reader.start()

    def _open(self) -> None:
        address = f"127.0.0.{2 + self.opened // PER_ADDRESS % 250}"
        self.opened += 1
        page = socket.create_connection(("127.0.0.1", self.port), 10, (address, 0))
        page.sendall(b"GET /api/stream HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
        if not page.recv(4096).startswith(b"HTTP/1.1 200"):
            self.refused += 1
        page.setblocking(False)
        self.pages.append(page)
        self.selector.register(page, selectors.EVENT_READ)

    def _close(self, page: socket.socket) -> None:
        self.selector.unregister(page)
        page.close()

    def churn(self) -> None:
        """The oldest page leaves (a closed tab), a new one comes."""
        with self._lock:
            self._close(self.pages.pop(0))
            self._open()

    def _read(self) -> None:
        while not self.stop.is_set():
            with self._lock:
                ready = self.selector.select(0.05)
                for key, _ in ready:
                    with contextlib.suppress(OSError):
                        key.fileobj.recv(65536)
            time.sleep(0.01)

    def close(self) -> None:
        """Every page leaves."""
        self.stop.set()
        self._reader.join(5)
        for page in self.pages:
            self._close(page)


def cpu_seconds(pid: int) -> float:
    """The CPU time a process has used (user and system)."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def page_seconds(port: int) -> float:
    """How long the café's page takes to answer."""
    started = time.perf_counter()
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    connection.request("GET", "/")
    connection.getresponse().read()
    connection.close()
    return time.perf_counter() - started


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tables", type=int, default=50)
    parser.add_argument("--minutes", type=float, default=10.0)
    parser.add_argument("--interval", type=float, default=2.0,
                        help="seconds between two events of one table")
    parser.add_argument("--pages", type=int, default=200,
                        help="pages holding the café's stream open, one leaving each second")
    parser.add_argument("--tables-worker", type=int, default=0, help=argparse.SUPPRESS)
    parser.add_argument("--port", type=int, default=0, help=argparse.SUPPRESS)
    parser.add_argument("--folder", type=Path, default=None, help=argparse.SUPPRESS)
    args = parser.parse_args()
    seconds = args.minutes * 60
    if args.tables_worker:
        run_tables(args.tables_worker, args.port, args.interval, seconds, args.folder)
        return 0

    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        broker = Mosquitto(folder / "broker").start()
        env = {**os.environ, "PYTHONUNBUFFERED": "1", "OMP_NUM_THREADS": "1"}
        cafe = subprocess.Popen(
            [sys.executable, "-m", "companion", "cafe", "--broker", broker.address, "--host",
             "127.0.0.1", "--port", "0", "--lang", "en"], cwd=ROOT, env=env,
            stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
        cafe_port = int(cafe.stdout.readline().split()[-1].rsplit(":", 1)[1].strip("/"))
        tables = subprocess.Popen(
            [sys.executable, __file__, "--tables-worker", str(args.tables), "--port",
             str(broker.port), "--interval", str(args.interval), "--minutes", str(args.minutes),
             "--folder", str(folder)], cwd=ROOT, env=env, stdout=subprocess.PIPE, text=True)
        assert tables.stdout.readline().strip() == "ready"
        delays: list[float] = []
        stop = threading.Event()
        reader = threading.Thread(target=listen, args=(cafe_port, delays, stop), daemon=True)
        reader.start()
        crowd = Crowd(cafe_port, args.pages)
        memory: list[tuple[float, int]] = []
        threads: list[int] = []
        pages: list[float] = []
        started = sampled = time.monotonic()
        cpu_started = cpu_seconds(cafe.pid)
        while tables.poll() is None:
            if time.monotonic() >= sampled:
                memory.append((time.monotonic() - started, resident_kib(cafe.pid)))
                threads.append(process_status(cafe.pid, "Threads"))
                sampled += SAMPLE_SECONDS
            pages.append(page_seconds(cafe_port))
            crowd.churn()
            time.sleep(1.0)
        cpu = (cpu_seconds(cafe.pid) - cpu_started) / (time.monotonic() - started)
        crowd.close()
        stop.set()
        cafe.terminate()
        cafe.wait(10)
        broker.stop()

    delays.sort()
    p95 = delays[int(0.95 * (len(delays) - 1))] * 1000
    print(f"{args.tables} tables, one event every {args.interval} s each, "
          f"{args.minutes:g} min: {len(delays)} updates seen on the café page")
    print(f"state -> café page: median {statistics.median(delays) * 1000:.1f} ms, "
          f"p95 {p95:.1f} ms, max {delays[-1] * 1000:.1f} ms  (target p95 < 200 ms: "
          f"{'ok' if p95 < 200 else 'MISSED'})")
    after = [(t, kib) for t, kib in memory if t >= 60] or memory
    slope = 0.0
    if len(after) > 2:
        mean_t = statistics.fmean(t for t, _ in after)
        mean_m = statistics.fmean(m for _, m in after)
        slope = sum((t - mean_t) * (m - mean_m) for t, m in after) / \
            sum((t - mean_t) ** 2 for t, _ in after) * 60
    print(f"café memory (VmRSS): {after[0][1] / 1024:.1f} MiB after {after[0][0]:.0f} s, "
          f"{memory[-1][1] / 1024:.1f} MiB at the end, max {max(m for _, m in memory) / 1024:.1f}"
          f" MiB; growth after the first minute {slope:+.1f} KiB/min")
    pages.sort()
    page_p95 = pages[int(0.95 * (len(pages) - 1))] * 1000
    print(f"café streams: {args.pages} pages open, {crowd.opened - args.pages} came and went, "
          f"{crowd.refused} refused; GET / median {statistics.median(pages) * 1000:.1f} ms, p95 "
          f"{page_p95:.1f} ms, max {pages[-1] * 1000:.1f} ms over {len(pages)} asks (target p95 "
          f"< 200 ms: {'ok' if page_p95 < 200 else 'MISSED'}); café threads {min(threads)} to "
          f"{max(threads)}; café CPU {cpu * 100:.0f} % of one core; load average "
          f"{os.getloadavg()[0]:.1f} on {os.cpu_count()} cores")
    return 0 if p95 < 200 and page_p95 < 200 else 1


if __name__ == "__main__":
    sys.exit(main())
