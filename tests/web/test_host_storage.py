"""Host sessions on a data directory that cannot take a write (issue 40, item 4): login,
"log out everywhere", revoke, logout and the first PIN are refused with 507 (full) or 503
(read-only) and the page's sentence, never a 500; a refused change changes nothing in memory
either, so the sessions a restart finds are the ones the host was told of.

The directory is really full or really read-only: each run is a child process in its own user
and mount namespace (``unshare -rm``) on a tmpfs of 8 MB filled to the last byte (the kernel
answers ENOSPC), or with the ``web/`` folder bind-mounted read-only (EROFS). The tests run as
root, where ``chmod`` would not stop a write.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
CHILD = ROOT / "tests" / "helpers" / "host_storage_child.py"
MOUNT = 'mount -t tmpfs -o size=8m tmpfs "$1" && exec "$2" "$3" "$1" "$4"'


def blocked_run(tmp_path: Path, mode: str) -> dict:
    """What the child saw on a data directory blocked by ``mode``."""
    if subprocess.run(["unshare", "-rm", "true"], capture_output=True).returncode != 0:
        pytest.skip("this machine does not allow user and mount namespaces")
    result = subprocess.run(["unshare", "-rm", "sh", "-c", MOUNT, "-", str(tmp_path),
                             sys.executable, str(CHILD), mode],
                            capture_output=True, text=True, cwd=ROOT, timeout=120)
    assert result.returncode == 0, result.stderr[-3000:]
    return json.loads(result.stdout.splitlines()[-1])


@pytest.mark.parametrize(("mode", "status", "key", "probe"),
                         [("full", 507, "store.full", "ENOSPC"),
                          ("read-only", 503, "store.read_only", "EROFS")])
def test_session_changes_on_a_blocked_directory_are_refused(tmp_path, mode, status, key, probe):
    seen = blocked_run(tmp_path, mode)
    assert seen["probe"] == probe, "the file system itself refuses the write"
    for change in ("login", "revoke", "logout_all", "logout", "first_pin"):
        assert seen[change][:2] == [status, key], (change, seen[change])
        assert "nothing was written" in seen[change][2], seen[change][2]
    assert seen["listed"] == 2, "a refused revoke or logout leaves both sessions listed"
    assert seen["live_before_restart"] == [True, True]
    assert seen["live_after_restart"] == [True, True], "what a restart finds is what was said"
    assert seen["tmp_left"] == ["host-pin.json", "host-sessions.json"], \
        "a refused write leaves no temporary file"
    assert seen["logout_all_unblocked"] == 200
    assert seen["live_after_logout_restart"] == [False, False], "logged out for good"
    assert seen["first_pin_unblocked"] == 201, "the setup code is spent only by a stored PIN"


KILLED_WRITER = """
import os, signal, sys
from pathlib import Path
from web.auth import HostSessions, PinStore
data = Path(sys.argv[1])
pins = PinStore(data)
pins.set("4321")
os.replace = lambda *args: os.kill(os.getpid(), signal.SIGKILL)  # killed before the rename
HostSessions(pins, 12, data / "web" / "host-sessions.json").open()
"""


def test_a_host_sessions_write_killed_half_way_is_swept_at_the_next_start(tmp_path):
    """Issue 40, item 10: a temporary file a SIGKILL left in ``web/`` (today's ``.tmp-*`` name
    or the ``.host-sessions.json.tmp`` of the previous version) is gone once a writer opens the
    directory again, as at the top of the data directory."""
    from companion.engine import Session

    data = tmp_path / "data"
    killed = subprocess.run([sys.executable, "-c", KILLED_WRITER, str(data)], cwd=ROOT,
                            capture_output=True, timeout=60)
    assert killed.returncode == -9, killed.stderr
    left = [p.name for p in (data / "web").iterdir() if p.name != "host-pin.json"]
    assert len(left) == 1 and left[0].startswith(".tmp-"), left
    (data / "web" / ".host-sessions.json.tmp").write_text('{"half a')
    Session(data, readonly=True).close()
    assert len(list((data / "web").iterdir())) == 3, "a reader writes nothing"
    Session(data).close()
    assert [p.name for p in (data / "web").iterdir()] == ["host-pin.json"]
