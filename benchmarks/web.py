"""Web figures: event-to-stream latency with 25 open streams, page weight, server memory.

Starts `companion run --simulate` (as ``python -m companion run``) on the loopback with a fresh data
directory, opens 25 Server-Sent Events streams, has a host submit events over HTTP, and prints:
the median and p95 time from sending an event (the clock starts before the POST, so request
handling is included) to its arrival at every stream; the transfer size of the page with all its
assets, as a phone gets them (gzip) and uncompressed; and the peak resident memory (VmHWM) of
the server process.

    .venv/bin/python benchmarks/web.py [--streams 25] [--events 60]
"""

from __future__ import annotations

import argparse
import http.client
import json
import os
import re
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PIN = "2468"
SETUP = {"type": "setup", "game": "last-bastion", "mode": "normal",
         "boards": {"N": "red", "E": "blue", "S": "yellow", "W": "green"},
         "players": [{"name": "Gary", "hero": "teagaan", "side": "S"},
                     {"name": "Paul", "hero": "mylfaar", "side": "N"}],
         "tiles": [["market", "tomb", "inn"], ["trebuchet", "fountain", "quarry"],
                   ["standard", "tower", "dispensary"]], "first": "S"}


def listen(port: int, arrivals: dict[int, list[float]], ready: threading.Barrier,
           stop: threading.Event) -> None:
    """One stream: note when each update version arrives."""
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    conn.request("GET", "/api/stream")
    reply = conn.getresponse()
    version = None
    ready.wait()
    while not stop.is_set():
        line = reply.fp.readline()
        if not line:
            break
        if line.startswith(b"id: "):
            version = int(line[4:])
        elif line.startswith(b"event: update"):
            arrivals.setdefault(version, []).append(time.perf_counter())
    conn.close()


class Host:
    """A host over HTTP: login cookie and rotating CSRF token."""

    def __init__(self, port: int) -> None:
        self.conn = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
        reply = self.call("/api/pin", {"pin": PIN}, {})
        self.cookie = reply.getheader("Set-Cookie").split(";")[0]
        self.csrf = json.loads(reply.read())["csrf"]

    def call(self, path: str, body: dict, headers: dict) -> http.client.HTTPResponse:
        self.conn.request("POST", path, json.dumps(body),
                          {"Content-Type": "application/json", **headers})
        return self.conn.getresponse()

    def send(self, event: dict) -> int:
        reply = self.call("/api/events", {"event": event},
                          {"Cookie": self.cookie, "X-CSRF-Token": self.csrf})
        self.csrf = reply.getheader("X-CSRF-Token")
        body = json.loads(reply.read())
        if reply.status != 200:
            raise RuntimeError(body)
        return body["version"]


def _get(port: int, path: str, gzipped: bool = False) -> bytes:
    """A body as it crossed the network (compressed when ``gzipped`` asks for it)."""
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
    conn.request("GET", path, headers={"Accept-Encoding": "gzip"} if gzipped else {})
    body = conn.getresponse().read()
    conn.close()
    return body


def page_weight(port: int, gzipped: bool) -> dict[str, int]:
    """Bytes transferred for the page, every asset it links (scripts, style sheets) and the
    first state (headers excluded), as a phone asking for gzip gets them, or uncompressed."""
    assets = re.findall(rb'(?:src|href)="(/static/[^"]+)"', _get(port, "/"))
    paths = ["/", "/api/state", *(asset.decode() for asset in assets)]
    return {path: len(_get(port, path, gzipped)) for path in paths}


def peak_rss_mb(pid: int) -> float:
    """The peak resident memory of a process (VmHWM), in MB."""
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmHWM:"):
            return int(line.split()[1]) / 1024
    return float("nan")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--streams", type=int, default=25)
    parser.add_argument("--events", type=int, default=60)
    args = parser.parse_args()
    data = tempfile.mkdtemp(prefix="companion-bench-")
    server = subprocess.Popen(
        [sys.executable, "-m", "companion", "run", "--simulate", "--host", "127.0.0.1", "--port",
         "0", "--data-dir", data], cwd=ROOT, stdout=subprocess.PIPE, text=True,
        env={**os.environ, "PYTHONUNBUFFERED": "1"})
    try:
        port = int(server.stdout.readline().split()[-1].rsplit(":", 1)[1].strip("/"))
        host = Host(port)
        arrivals: dict[int, list[float]] = {}
        ready = threading.Barrier(args.streams + 1)
        stop = threading.Event()
        threads = [threading.Thread(target=listen, args=(port, arrivals, ready, stop),
                                    daemon=True) for _ in range(args.streams)]
        for thread in threads:
            thread.start()
        ready.wait()
        time.sleep(0.3)
        sent: dict[int, float] = {}
        start = time.perf_counter()
        sent[host.send(SETUP)] = start
        for n in range(args.events):
            hero = ("teagaan", "mylfaar")[n % 2]
            t0 = time.perf_counter()
            sent[host.send({"type": "adjust", "hero": hero, "life": 1 + n % 3})] = t0
            time.sleep(0.02)
        time.sleep(1.0)
        stop.set()
        delays = [(arrived - sent[v]) * 1000 for v, times in arrivals.items() if v in sent
                  for arrived in times]
        complete = sum(len(arrivals.get(v, [])) == args.streams for v in sent)
        weights = page_weight(port, gzipped=True)
        raw = page_weight(port, gzipped=False)
        rss = peak_rss_mb(server.pid)
    finally:
        server.terminate()
        server.communicate(timeout=10)
    delays.sort()
    p95 = delays[int(0.95 * (len(delays) - 1))]
    page = sum(size for path, size in weights.items() if path != "/api/state")
    raw_page = sum(size for path, size in raw.items() if path != "/api/state")
    print(f"streams: {args.streams}, events: {len(sent)}, delivered to every stream: "
          f"{complete}/{len(sent)}")
    print(f"event -> every stream: median {statistics.median(delays):.1f} ms, "
          f"p95 {p95:.1f} ms (target p95 < 100 ms)")
    parts = ", ".join(f"{path} {size} B" for path, size in weights.items() if path != "/api/state")
    print(f"page transfer (gzip): {page / 1024:.1f} KB ({parts}; target < 150 KB); "
          f"first state {weights['/api/state'] / 1024:.1f} KB")
    print(f"page uncompressed: {raw_page / 1024:.1f} KB; first state "
          f"{raw['/api/state'] / 1024:.1f} KB")
    print(f"peak memory of companion run --simulate: {rss:.1f} MB (target < 120 MB)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
