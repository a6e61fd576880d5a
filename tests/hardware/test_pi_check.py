"""`make pi-check` (tools/pichecks/pi-check.sh): where ARM programs cannot run, the check says
so and fails before it installs or builds anything, rather than passing without running
(issue 42)."""

import subprocess
from pathlib import Path

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
