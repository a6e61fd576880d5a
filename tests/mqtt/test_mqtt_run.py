"""``companion run --simulate`` with ``[mqtt]`` in its config, against a real mosquitto: it says
``online`` on its availability topic, ``offline`` when stopped, and the broker says ``offline``
for it (its last will) when the process is killed without a word."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
from pathlib import Path

import pytest

GAMES = Path(__file__).resolve().parents[1] / "games"
sys.path[:0] = [str(GAMES / "aot_last_stand"), str(GAMES / "last_heroes")]

from mosquitto import Mosquitto, Watcher  # noqa: E402

ROOT = Path(__file__).resolve().parents[2]
AVAILABILITY = "companion/bar-table/availability"


@pytest.mark.parametrize(("stop", "said"), [(signal.SIGKILL, "last will"),
                                            (signal.SIGTERM, "clean stop")])
def test_availability_online_then_offline(tmp_path, stop, said):
    broker = Mosquitto(tmp_path / "broker").start()
    conf = tmp_path / "config.toml"
    conf.write_text('[speech]\nbackend = "silent"\n[table]\nname = "Bar table"\n'
                    f'[mqtt]\nhost = "127.0.0.1"\nport = {broker.port}\n', encoding="utf-8")
    watcher = Watcher(broker.port, ("companion/#",))
    process = subprocess.Popen(
        [sys.executable, "-m", "companion", "run", "--simulate", "--host", "127.0.0.1",
         "--port", "0", "--data-dir", str(tmp_path / "data")], cwd=ROOT,
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
        env={**os.environ, "PYTHONUNBUFFERED": "1", "COMPANION_CONFIG": str(conf)})
    try:
        assert watcher.wait(lambda: watcher.last(AVAILABILITY) == b"online", 20)
        assert watcher.wait(lambda: watcher.last_json("companion/bar-table/state") is not None)
        assert watcher.last_json("companion/bar-table/state")["expects"] == "setup"
        process.send_signal(stop)
        process.wait(30)
        assert watcher.wait(lambda: watcher.last(AVAILABILITY) == b"offline"), said
        late = Watcher(broker.port, (AVAILABILITY,))          # retained for those who come later
        assert late.wait(lambda: late.last(AVAILABILITY) == b"offline")
        late.close()
    finally:
        if process.poll() is None:
            process.kill()
        process.communicate()
        watcher.close()
        broker.stop()
