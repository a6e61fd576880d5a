"""The checks `make pi-check` runs inside an ARM userland, with the installed venv's Python.

Run as ``/opt/companion/venv/bin/python inside.py PHOTO... --readings FILE`` after
``systemd/install.sh``: each check prints one line, and the first that fails ends the run with
a message naming it (exit 1). The dice readings are written as JSON lines to FILE, for the host
to compare with its own (x86) readings.
"""

from __future__ import annotations

import argparse
import http.cookiejar
import json
import os
import platform
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path

VENV = Path(sys.prefix)
COMPANION = VENV / "bin" / "companion"
SYSTEM_SITE = "/usr/lib/python3/dist-packages/"
PIN = "4321"
# The reader's runtime on each architecture (vision/runtime.py): no ONNX Runtime wheel on 32-bit.
RUNTIMES = {"aarch64": "ONNX Runtime", "armv7l": "OpenCV"}
DEMO = Path(__file__).resolve().parents[2] / "examples" / "last-bastion-demo.jsonl"


class CheckFailed(Exception):
    """A check whose result is not what a Raspberry Pi needs."""


def check(ok: bool, what: str) -> None:
    """Print ``what`` as passed, or raise :class:`CheckFailed` naming it."""
    if not ok:
        raise CheckFailed(what)
    print(f"  ok  {what}", flush=True)


def check_libraries() -> None:
    """numpy is the system's (one numpy in the process), OpenCV, the reader's runtime and the
    companion import together; on 32-bit ARM OpenCV is apt's too."""
    import cv2
    import numpy

    import companion.app  # noqa: F401  (the whole companion: engine, games, web, hardware)
    import vision.net  # noqa: F401
    from vision.runtime import engine

    pinned = (Path(sys.prefix).parent / "constraints.txt").read_text().splitlines()[0]
    check(numpy.__file__.startswith(SYSTEM_SITE) and pinned == f"numpy=={numpy.__version__}",
          f"numpy {numpy.__version__} is the system's ({numpy.__file__}; pin: {pinned})")
    check(not list(VENV.glob("lib/python3*/site-packages/numpy")), "no second numpy in the venv")
    runtime, version = engine()
    machine = platform.machine()
    check(runtime == RUNTIMES[machine], f"the reader runs on {runtime} {version} on {machine}")
    if machine == "armv7l":
        check(cv2.__file__.startswith(SYSTEM_SITE), f"OpenCV {cv2.__version__} is apt's "
              f"({cv2.__file__}): nothing compiled")
    else:
        check(cv2.__version__ != "", f"OpenCV {cv2.__version__} from {cv2.__file__}")


def check_doctor(data_dir: Path) -> None:
    """``companion doctor`` reports; its dice reader reads its test roll and the games load (a
    userland has no camera, pins or speaker: those lines are printed, not required)."""
    result = subprocess.run([str(COMPANION), "doctor", "--data-dir", str(data_dir), "--lang",
                             "en"], capture_output=True, text=True, timeout=600)
    print("\n".join("      " + line for line in result.stdout.splitlines()), flush=True)
    lines = result.stdout.splitlines()
    check(any(line.startswith("[ ok ] dice reader:") for line in lines),
          "companion doctor: the dice reader reads its test roll")
    check(any(line.startswith("[ ok ] games:") for line in lines), "companion doctor: games load")


def check_turn_over_http(data_dir: Path) -> None:
    """``companion run --simulate`` serves the page, and a host sets up Last Bastion and plays
    its first turn (the demo's events up to its first ``end_turn``) over HTTP."""
    from web.auth import PinStore

    PinStore(data_dir).set(PIN)
    server = subprocess.Popen(
        [str(COMPANION), "run", "--simulate", "--seed", "5", "--host", "127.0.0.1", "--port",
         "0", "--data-dir", str(data_dir), "--lang", "en"],
        stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
        env={**os.environ, "PYTHONUNBUFFERED": "1"})
    try:
        url = server.stdout.readline().split()[-1].rstrip("/") + "/"
        opener = urllib.request.build_opener(
            urllib.request.HTTPCookieProcessor(http.cookiejar.CookieJar()))
        with opener.open(url, timeout=60) as reply:
            page = reply.read().decode()
        check(reply.status == 200 and "<html" in page.lower(), f"the page is served at {url}")
        csrf = ""

        def post(path: str, body: dict) -> dict:
            nonlocal csrf
            request = urllib.request.Request(url + path, json.dumps(body).encode(), {
                "Content-Type": "application/json", "X-CSRF-Token": csrf})
            with opener.open(request, timeout=60) as reply:
                csrf = reply.headers.get("X-CSRF-Token") or csrf
                return json.loads(reply.read())

        csrf = post("api/login", {"pin": PIN})["csrf"]
        events = [json.loads(line) for line in DEMO.read_text().splitlines()
                  if line.startswith("{") and '"format"' not in line]
        turn = events[:next(i for i, e in enumerate(events) if e["type"] == "end_turn") + 1]
        for event in turn:
            version = post("api/events", {"event": event})["version"]
        with opener.open(url + "api/state", timeout=60) as reply:
            state = json.loads(reply.read())
        check(version == len(turn), f"a host set up Last Bastion and played a turn over HTTP "
              f"({len(turn)} events accepted, version {version})")
        said = [line["en"] for line in state["log"][-1]["said"]]
        check(any("Paul" in line for line in said), f"the turn passed to Paul: {said}")
    finally:
        server.terminate()
        server.communicate(timeout=60)


def read_dice(photos: list[str], readings: Path) -> None:
    """``companion dice read`` on the photos; its JSON lines go to ``readings``."""
    start = time.monotonic()
    result = subprocess.run([str(COMPANION), "dice", "read", "--json", "--profile", "d6",
                             *photos], capture_output=True, text=True, timeout=1800)
    seconds = time.monotonic() - start
    readings.write_text(result.stdout)
    check(result.returncode == 0 and len(result.stdout.splitlines()) == len(photos),
          f"companion dice read: {len(photos)} photos read in {seconds:.0f} s under emulation"
          + (f" (exit {result.returncode}: {result.stderr.strip()[-300:]})"
             if result.returncode else ""))


def main() -> int:
    """Run every check in order; 0 when all passed."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("photos", nargs="+")
    parser.add_argument("--readings", type=Path, required=True)
    args = parser.parse_args()
    try:
        with tempfile.TemporaryDirectory() as folder:
            check_libraries()
            check_doctor(Path(folder) / "doctor")
            check_turn_over_http(Path(folder) / "run")
        read_dice(args.photos, args.readings)
    except CheckFailed as failed:
        print(f"FAIL {failed}", flush=True)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
