"""Web figures: live streams, idle connections, PIN guessers, page weight, server memory.

Starts `companion run --simulate` (as ``python -m companion run``) on the loopback with a fresh
data directory and a PIN, then measures, one phase after the other:

1. **streams**: 200 Server-Sent Events streams (8 per address, the per-address cap, from
   127.0.0.x addresses) while a host submits 10 events a second over HTTP: the time from
   sending an event (the clock starts before the POST) to its arrival at every stream, median
   and p95 (target p95 < 50 ms), and whether every stream got every event;
2. **idle**: 1,000 connections opened and left idle (half of them with half a request line)
   while the host submits events: the POST's p99 (target < 200 ms), and whether the idle
   connections are still open at the end;
3. **guessers**: 100 clients from 100 addresses guessing the PIN as fast as they can: how many
   PIN checks ran (answers 401; a 429 is refused before any check) against the documented
   limit (5 per address and 20 in all per minute), and whether the logged-in host still acts;
4. **flood**: 4,200 connections from 21 addresses (200 each, the per-address cap) that send
   ``GET / HTTP/1.1`` and a Host line and stop (with ``--reopen``, each is opened again as
   soon as the server closes it: a flood that never ends), while the host submits events:
   the host's POST p99 during the flood (target < 200 ms), the page's and a new login's time,
   how many half-sent requests the server closed (request timeout, or room made for a new
   connection) and the most files the server held (its limit is 4,096, as systemd's
   ``LimitNOFILE``);
5. the transfer size of the page with its assets, as a phone gets them (gzip) and uncompressed.

The server's resident memory is sampled every 0.1 s throughout (target < 150 MB).

    .venv/bin/python benchmarks/web.py [--streams 200] [--rate 10] [--events 100]
                                       [--idle 1000] [--guessers 100] [--guess-seconds 30]
                                       [--flood 4200] [--reopen]
                                       [--phases streams,idle,guessers,flood]
"""

from __future__ import annotations

import argparse
import http.client
import json
import os
import re
import resource
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

from web.auth import PinStore  # noqa: E402

PIN = "2468"
PER_ADDRESS = 8
SETUP = {"type": "setup", "game": "last-bastion", "mode": "normal",
         "boards": {"N": "red", "E": "blue", "S": "yellow", "W": "green"},
         "players": [{"name": "Gary", "hero": "teagaan", "side": "S"},
                     {"name": "Paul", "hero": "mylfaar", "side": "N"}],
         "tiles": [["market", "tomb", "inn"], ["trebuchet", "fountain", "quarry"],
                   ["standard", "tower", "dispensary"]], "first": "S"}


def percentile(values: list[float], share: float) -> float:
    """The value below which ``share`` of ``values`` lie (nearest rank)."""
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))]


class Memory:
    """Samples a process's resident memory (VmRSS) every 0.1 s; ``peak`` in MB."""

    def __init__(self, pid: int) -> None:
        self.path = Path(f"/proc/{pid}/status")
        self.peak = 0.0
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, daemon=True)
        self._thread.start()

    def _run(self) -> None:
        while not self._stop.wait(0.1):
            try:
                for line in self.path.read_text().splitlines():
                    if line.startswith("VmRSS:"):
                        self.peak = max(self.peak, int(line.split()[1]) / 1024)
            except OSError:
                return

    def stop(self) -> float:
        """Stop sampling; the peak seen."""
        self._stop.set()
        self._thread.join()
        return self.peak


class Host:
    """A host over HTTP: login cookie and rotating CSRF token; ``send`` times each POST."""

    def __init__(self, port: int) -> None:
        self.conn = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
        reply = self.call("/api/login", {"pin": PIN}, {})
        self.cookie = reply.getheader("Set-Cookie").split(";")[0]
        self.csrf = json.loads(reply.read())["csrf"]
        self.took: list[float] = []

    def call(self, path: str, body: dict, headers: dict) -> http.client.HTTPResponse:
        """POST JSON, reconnecting once if the server closed the idle keep-alive connection."""
        for retry in (True, False):
            try:
                self.conn.request("POST", path, json.dumps(body).encode(),  # one write
                                  {"Content-Type": "application/json", **headers})
                return self.conn.getresponse()
            except (BrokenPipeError, ConnectionResetError, http.client.RemoteDisconnected):
                self.conn.close()
                if not retry:
                    raise
        raise AssertionError("unreachable")

    def send(self, event: dict) -> int:
        start = time.perf_counter()
        reply = self.call("/api/events", {"event": event},
                          {"Cookie": self.cookie, "X-CSRF-Token": self.csrf})
        self.csrf = reply.getheader("X-CSRF-Token")
        body = json.loads(reply.read())
        self.took.append((time.perf_counter() - start) * 1000)
        if reply.status != 200:
            raise RuntimeError(body)
        return body["version"]


def adjust(n: int) -> dict:
    """A cheap event that always applies: a hero's Life."""
    return {"type": "adjust", "hero": ("teagaan", "mylfaar")[n % 2], "life": 1 + n % 3}


def source(n: int, per: int) -> str:
    """The n-th client's loopback address, ``per`` clients to an address."""
    index = 2 + n // per
    return f"127.0.{index // 250}.{1 + index % 250}"


class Streams:
    """``count`` raw SSE connections read by one thread with a selector; notes when each
    update version reaches each stream."""

    def __init__(self, port: int, count: int) -> None:
        self.arrivals: dict[int, list[float]] = {}
        self.refused = 0
        self.selector = selectors.DefaultSelector()
        self.buffers: dict[socket.socket, bytes] = {}
        for n in range(count):
            sock = socket.create_connection(("127.0.0.1", port), timeout=10,
                                            source_address=(source(n, PER_ADDRESS), 0))
            sock.sendall(b"GET /api/stream HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
            head = sock.recv(65536)
            if not head.startswith(b"HTTP/1.1 200"):
                self.refused += 1
                sock.close()
                continue
            sock.setblocking(False)
            self.buffers[sock] = b""
            self.selector.register(sock, selectors.EVENT_READ)
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, daemon=True)
        self._thread.start()

    def _run(self) -> None:
        while not self._stop.is_set():
            for key, _ in self.selector.select(0.1):
                now = time.perf_counter()
                sock = key.fileobj
                data = sock.recv(262144)
                if not data:
                    self.selector.unregister(sock)
                    continue
                buffer = self.buffers[sock] + data
                *messages, self.buffers[sock] = buffer.split(b"\n\n")
                for message in messages:
                    found = re.search(rb"id: (\d+)\nevent: update", message)
                    if found:
                        self.arrivals.setdefault(int(found.group(1)), []).append(now)

    def close(self) -> None:
        self._stop.set()
        self._thread.join()
        for sock in self.buffers:
            sock.close()


def streams_phase(port: int, host: Host, args: argparse.Namespace) -> None:
    streams = Streams(port, args.streams)
    time.sleep(0.5)
    host.took.clear()
    sent: dict[int, float] = {}
    for n in range(args.events):
        start = time.perf_counter()
        sent[host.send(adjust(n))] = start
        time.sleep(max(0.0, 1 / args.rate - (time.perf_counter() - start)))
    time.sleep(1.0)
    streams.close()
    open_ = args.streams - streams.refused
    delays = [(arrived - sent[v]) * 1000 for v, times in streams.arrivals.items() if v in sent
              for arrived in times]
    complete = sum(len(streams.arrivals.get(v, [])) == open_ for v in sent)
    print(f"streams: {open_} open ({streams.refused} refused), {len(sent)} events at "
          f"{args.rate}/s, delivered to every stream: {complete}/{len(sent)}")
    print(f"  event -> every stream: median {statistics.median(delays):.1f} ms, "
          f"p95 {percentile(delays, 0.95):.1f} ms (target p95 < 50 ms, nothing missing); "
          f"of which the POST itself: median {statistics.median(host.took):.1f} ms, "
          f"p95 {percentile(host.took, 0.95):.1f} ms")


def idle_phase(port: int, host: Host, args: argparse.Namespace) -> None:
    idle = []
    for n in range(args.idle):
        sock = socket.create_connection(("127.0.0.1", port), timeout=10,
                                        source_address=(source(n, 50), 0))
        if n % 2:
            sock.sendall(b"GET /api/state HTTP/1.1\r\nHo")  # half a request, never finished
        idle.append(sock)
    time.sleep(0.5)
    host.took.clear()
    for n in range(args.events):
        host.send(adjust(n))
        time.sleep(0.02)
    still = 0
    for sock in idle:
        sock.setblocking(False)
        try:
            still += sock.recv(1) != b""
        except BlockingIOError:
            still += 1
        sock.close()
    print(f"idle: {args.idle} connections open, {still} still open after the POSTs; host POST "
          f"median {statistics.median(host.took):.1f} ms, p99 {percentile(host.took, 0.99):.1f} "
          f"ms (target p99 < 200 ms)")


def guess(port: int, address: str, until: float, counts: dict[int, int],
          lock: threading.Lock) -> None:
    """One guesser: wrong PINs as fast as the server answers, from ``address``."""
    conn = None
    while time.monotonic() < until:
        try:
            if conn is None:
                sock = socket.create_connection(("127.0.0.1", port), timeout=30,
                                                source_address=(address, 0))
                conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
                conn.sock = sock
            conn.request("POST", "/api/login", b'{"pin": "0000"}',
                         {"Content-Type": "application/json"})
            reply = conn.getresponse()
            reply.read()
            status = reply.status
        except OSError:
            conn, status = None, 0
        with lock:
            counts[status] = counts.get(status, 0) + 1


def guessers_phase(port: int, host: Host, args: argparse.Namespace) -> None:
    counts: dict[int, int] = {}
    lock = threading.Lock()
    until = time.monotonic() + args.guess_seconds
    threads = [threading.Thread(target=guess, args=(port, source(n, 1), until, counts, lock),
                                daemon=True) for n in range(args.guessers)]
    for thread in threads:
        thread.start()
    time.sleep(args.guess_seconds / 2)
    host.took.clear()
    for n in range(10):
        host.send(adjust(n))
    for thread in threads:
        thread.join()
    minutes = max(1, -(-args.guess_seconds // 60))
    print(f"guessers: {args.guessers} from {args.guessers} addresses for {args.guess_seconds} s: "
          f"{counts.get(401, 0)} PIN checks (documented: at most {20 * minutes}), "
          f"{counts.get(429, 0)} refused before checking, other answers "
          f"{ {k: v for k, v in counts.items() if k not in (401, 429)} }; the logged-in host's "
          f"POST meanwhile: p99 {percentile(host.took, 0.99):.1f} ms")


class Flood:
    """``count`` connections, ``per`` to an address, that send half a request and stop; a
    thread counts those the server closes and, if ``reopen``, opens each again at once."""

    HALF = b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\n"

    def __init__(self, port: int, count: int, per: int, reopen: bool) -> None:
        self.port, self.per, self.reopen = port, per, reopen
        self.closed = 0
        self.refused = 0
        self.selector = selectors.DefaultSelector()
        for n in range(count):
            self._open(n)
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, daemon=True)
        self._thread.start()

    def _open(self, n: int) -> None:
        try:
            sock = socket.create_connection(("127.0.0.1", self.port), timeout=10,
                                            source_address=(source(n, self.per), 0))
            sock.sendall(self.HALF)
        except OSError:
            self.refused += 1
            return
        sock.setblocking(False)
        self.selector.register(sock, selectors.EVENT_READ, n)

    def _run(self) -> None:
        while not self._stop.is_set():
            for key, _ in self.selector.select(0.1):
                try:
                    data = key.fileobj.recv(4096)
                except OSError:
                    data = b""
                if not data:  # closed by the server
                    self.closed += 1
                    self.selector.unregister(key.fileobj)
                    key.fileobj.close()
                    if self.reopen:
                        self._open(key.data)

    def close(self) -> int:
        """Stop and close every connection; how many were open at the end."""
        self._stop.set()
        self._thread.join()
        held = [key.fileobj for key in self.selector.get_map().values()]
        for sock in held:
            sock.close()
        return len(held)


def open_files(pid: int) -> int:
    """How many files a process holds open now."""
    return len(os.listdir(f"/proc/{pid}/fd"))


def flood_phase(port: int, host: Host, args: argparse.Namespace, pid: int) -> None:
    start = time.perf_counter()
    flood = Flood(port, args.flood, 200, args.reopen)
    opened = time.perf_counter() - start
    most_files = open_files(pid)
    host.took.clear()
    page: list[float] = []
    failed = 0
    for n in range(args.events):
        try:
            host.send(adjust(n))
            if n % 10 == 0:
                begin = time.perf_counter()
                _get(port, "/")
                page.append((time.perf_counter() - begin) * 1000)
                most_files = max(most_files, open_files(pid))
        except OSError as error:  # a timeout: what the flood did before it was bounded
            print(f"  no answer: {error!r}")
            host.conn.close()
            failed += 1
            if failed == 3:
                break
        time.sleep(0.1)
    begin = time.perf_counter()
    try:
        Host(port)
        login = f"{(time.perf_counter() - begin) * 1000:.1f} ms"
    except OSError as error:
        login = repr(error)
    still = flood.close()
    again = ", each reopened when closed" if args.reopen else ""
    print(f"flood: {args.flood} half-sent requests from {args.flood // 200} addresses "
          f"(opened in {opened:.1f} s, {flood.refused} refused at connect){again}; "
          f"{flood.closed} closed by the server, {still} open at the end; server files "
          f"at most {most_files} (limit 4096)")
    took = host.took or [float("nan")]
    print(f"  host POST during the flood: median {statistics.median(took):.1f} ms, p99 "
          f"{percentile(took, 0.99):.1f} ms (target p99 < 200 ms), {failed} unanswered; page "
          f"GET / median {statistics.median(page or [0]):.1f} ms, max {max(page or [0]):.1f} "
          f"ms; a new login {login}")


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
    assets = re.findall(rb'(?:src|href)="(/(?:static|games)/[^"]+)"', _get(port, "/"))
    paths = ["/", "/api/state", *(asset.decode() for asset in assets)]
    return {path: len(_get(port, path, gzipped)) for path in paths}


def systemd_files() -> None:
    """The server's open-file limit as the systemd unit gives it (``LimitNOFILE``)."""
    resource.setrlimit(resource.RLIMIT_NOFILE, (4096, 4096))


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--streams", type=int, default=200)
    parser.add_argument("--rate", type=float, default=10.0, help="events per second")
    parser.add_argument("--events", type=int, default=100)
    parser.add_argument("--idle", type=int, default=1000)
    parser.add_argument("--guessers", type=int, default=100)
    parser.add_argument("--guess-seconds", type=int, default=30)
    parser.add_argument("--flood", type=int, default=4200, help="half-sent requests")
    parser.add_argument("--reopen", action="store_true",
                        help="the flood opens again every connection the server closes")
    parser.add_argument("--phases", default="streams,idle,guessers,flood",
                        help="which phases run, in this order")
    args = parser.parse_args()
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (min(hard, 8192), hard))
    data = Path(tempfile.mkdtemp(prefix="companion-bench-"))
    PinStore(data).set(PIN)
    server = subprocess.Popen(
        [sys.executable, "-m", "companion", "run", "--simulate", "--host", "127.0.0.1", "--port",
         "0", "--data-dir", str(data)], cwd=ROOT, stdout=subprocess.PIPE, text=True,
        preexec_fn=systemd_files,
        env={**os.environ, "PYTHONUNBUFFERED": "1",
             "COMPANION_CONFIG": str(ROOT / "tests" / "web" / "silent.toml")})
    try:
        port = int(server.stdout.readline().split()[-1].rsplit(":", 1)[1].strip("/"))
        threading.Thread(target=server.stdout.read, daemon=True).start()  # keep the pipe empty
        memory = Memory(server.pid)
        host = Host(port)
        host.send(SETUP)
        phases = {"streams": streams_phase, "idle": idle_phase, "guessers": guessers_phase,
                  "flood": lambda *a: flood_phase(*a, server.pid)}
        for name in args.phases.split(","):
            phases[name](port, host, args)
            print(f"  server memory so far: peak {memory.peak:.1f} MB")
        weights = page_weight(port, gzipped=True)
        raw = page_weight(port, gzipped=False)
        peak = memory.stop()
    finally:
        server.terminate()
        server.wait(timeout=15)
    page = sum(size for path, size in weights.items() if path != "/api/state")
    raw_page = sum(size for path, size in raw.items() if path != "/api/state")
    parts = ", ".join(f"{path} {size} B" for path, size in weights.items() if path != "/api/state")
    print(f"page transfer (gzip): {page / 1024:.1f} KB ({parts}; target < 150 KB); "
          f"first state {weights['/api/state'] / 1024:.1f} KB")
    print(f"page uncompressed: {raw_page / 1024:.1f} KB; first state "
          f"{raw['/api/state'] / 1024:.1f} KB")
    print(f"server memory (VmRSS sampled every 0.1 s), peak: {peak:.1f} MB (target < 150 MB)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
