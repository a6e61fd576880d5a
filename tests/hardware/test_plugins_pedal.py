"""The example foot pedal (examples/foot-pedal) as a user installs it: ``pip install`` of its
folder, its own tests, then a real ``companion run --simulate`` that finds it through its
``companion.sources`` entry point and takes its press as the "next" button. A second source the
config names but nobody installed is reported on the host page; the pedal works anyway.

The package is installed with ``pip install --target`` into a folder of the test (put on
``PYTHONPATH``), so the test environment itself is left as it was.
"""

import os
import signal
import subprocess
import sys
from pathlib import Path

import hwtools
import pytest
from test_hw_run_end_to_end import PIN, Host

from companion.engine import Session
from web.auth import PinStore

ROOT = Path(__file__).resolve().parents[2]
PEDAL = ROOT / "examples" / "foot-pedal"
EVENT_SIZE = 24
KEY_B = 48


@pytest.fixture(scope="module")
def installed(tmp_path_factory) -> Path:
    """The pedal package installed by pip into a folder of its own."""
    target = tmp_path_factory.mktemp("site")
    subprocess.run([sys.executable, "-m", "pip", "install", "--quiet", "--no-deps",
                    "--target", str(target), str(PEDAL)], check=True, capture_output=True)
    assert (target / "foot_pedal" / "__init__.py").is_file()
    return target


def test_the_example_package_passes_its_own_tests(installed, tmp_path):
    result = subprocess.run(
        [sys.executable, "-m", "pytest", "-p", "no:cacheprovider", "-o", "addopts=",
         str(PEDAL / "tests")],
        cwd=tmp_path, capture_output=True, text=True, timeout=120,
        env={**os.environ, "PYTHONPATH": f"{installed}{os.pathsep}{ROOT}"})
    assert result.returncode == 0, result.stdout + result.stderr
    assert " passed" in result.stdout and "skipped" not in result.stdout


def key_press(code: int) -> bytes:
    import struct

    event = struct.Struct("llHHi")
    assert event.size == EVENT_SIZE
    return b"".join(event.pack(0, 0, 1, code, value) + event.pack(0, 0, 0, 0, 0)
                    for value in (1, 0))


def test_the_pedal_drives_companion_run(installed, tmp_path):
    data = tmp_path / "data"
    PinStore(data).set(PIN)
    pedal = tmp_path / "event-kbd"
    os.mkfifo(pedal)
    conf = tmp_path / "config.toml"
    conf.write_text('[speech]\nbackend = "silent"\n'
                    f'[sources.foot-pedal]\ndevice = "{pedal}"\nnext = "b"\n'
                    '[sources.load-cell]\n', encoding="utf-8")
    errors = (tmp_path / "stderr").open("w")
    process = subprocess.Popen(
        [sys.executable, "-m", "companion", "run", "--simulate", "--host", "127.0.0.1",
         "--port", "0", "--data-dir", str(data)], cwd=tmp_path, stdout=subprocess.PIPE,
        stderr=errors, text=True,
        env={**os.environ, "PYTHONUNBUFFERED": "1", "COMPANION_CONFIG": str(conf),
             "PYTHONPATH": f"{installed}{os.pathsep}{ROOT}"})
    pedal_fd = os.open(pedal, os.O_RDWR)
    try:
        host = Host(process.stdout.readline().split()[-1])
        assert host.call("GET", "api/host")["sensors"] is True
        host.send(hwtools.solo(hero="elmer"))
        host.send({"type": "card", "id": "incube"})
        version = host.send({"type": "place", "slot": "red.1"})["version"]
        os.write(pedal_fd, key_press(KEY_B))          # the card has no printed effect: "next"
        assert hwtools.wait_until(lambda: host.version() > version, 10), \
            (tmp_path / "stderr").read_text()
        box = host.call("GET", "api/box")
        assert list(box["problems"]) == ["source load-cell"]
        assert box["problems"]["source load-cell"].startswith(
            "no installed source plugin is called load-cell (installed: foot-pedal")
        doctor = {c["id"]: c for c in host.call("GET", "api/doctor")["checks"]}["sources"]
        assert doctor["ok"] is False and doctor["detail"].startswith("foot-pedal: working, ")
        process.send_signal(signal.SIGTERM)
        process.communicate(timeout=60)
    finally:
        os.close(pedal_fd)
        errors.close()
        if process.poll() is None:
            process.kill()
    assert process.returncode == 0
    session = Session(data)
    assert hwtools.journal_types(session)[-1] == ("answer", "button")
    session.close()
