"""`make pi-check` (tools/pichecks/pi-check.sh): where ARM programs cannot run, the check says
so and fails before it installs or builds anything, rather than passing without running; two
runs on one machine (CI beside a developer's `make pi-check`) never share a run's layers
(issue 42)."""

import fcntl
import os
import shutil
import subprocess
from pathlib import Path

import pytest

PI_CHECK = Path(__file__).resolve().parents[2] / "tools" / "pichecks" / "pi-check.sh"


def test_the_check_fails_and_says_so_where_binfmt_misc_cannot_be_mounted(tmp_path):
    nowhere = tmp_path / "no-binfmt_misc"  # no such folder: mount cannot put binfmt_misc there
    cache = tmp_path / "cache"
    result = subprocess.run(["bash", str(PI_CHECK)], capture_output=True, text=True, timeout=60,
                            env={"PATH": "/usr/sbin:/usr/bin:/sbin:/bin",
                                 "PI_CHECK_BINFMT": str(nowhere), "PI_CHECK_CACHE": str(cache)})
    assert result.returncode != 0
    assert f"binfmt_misc cannot be mounted at {nowhere}" in result.stderr
    assert "ARM programs cannot run here, nothing was checked" in result.stderr
    assert "passed" not in result.stdout + result.stderr
    assert not cache.exists()  # nothing was built or installed first


BINFMT = Path("/proc/sys/fs/binfmt_misc")


def _binfmt_misc_mounted() -> bool:
    """Whether binfmt_misc is mounted here, mounting it as pi-check itself would (a fresh
    machine mounts it only when its first pi-check runs, after the suite)."""
    if not (BINFMT / "status").exists():
        subprocess.run(["mount", "-t", "binfmt_misc", "binfmt_misc", str(BINFMT)],
                       capture_output=True)
    return (BINFMT / "status").exists()


@pytest.mark.skipif(os.geteuid() != 0 or not shutil.which("qemu-aarch64-static"),
                    reason="the lock is taken after the root and binfmt_misc checks")
def test_a_second_run_waits_for_the_first_and_says_so(tmp_path):
    """A run holding the cache's lock (its layers, over the same userlands, would be removed
    and remade by the second): the second waits PI_CHECK_WAIT seconds, then fails untouched."""
    if not _binfmt_misc_mounted():
        pytest.skip("binfmt_misc cannot be mounted here: pi-check stops before its lock")
    cache = tmp_path / "cache"
    cache.mkdir()
    with open(cache / "lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)  # the first run
        result = subprocess.run(["bash", str(PI_CHECK)], capture_output=True, text=True,
                                timeout=60, env={"PATH": "/usr/sbin:/usr/bin:/sbin:/bin",
                                                 "PI_CHECK_CACHE": str(cache),
                                                 "PI_CHECK_WAIT": "1"})
    assert result.returncode != 0
    assert f"another pi-check holds {cache}/lock: waiting for it" in result.stdout
    assert f"{cache}/lock still held: nothing was checked" in result.stderr
    assert sorted(p.name for p in cache.iterdir()) == ["lock"]  # no reading, layer or build
