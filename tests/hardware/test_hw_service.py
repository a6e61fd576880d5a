"""The Pi service: the unit file, the install script, and the default config it writes."""

import re
import subprocess
from pathlib import Path

import hwtools  # noqa: F401  (puts the repository first on sys.path)

from companion import config as settings

SYSTEMD = Path(__file__).resolve().parents[2] / "systemd"


def unit() -> dict[str, list[str]]:
    entries: dict[str, list[str]] = {}
    for line in (SYSTEMD / "companion.service").read_text().splitlines():
        if "=" in line and not line.startswith("#"):
            key, value = line.split("=", 1)
            entries.setdefault(key, []).append(value)
    return entries


def test_the_unit_runs_the_installed_companion_as_its_own_user():
    entries = unit()
    assert entries["User"] == ["companion"] and entries["Restart"] == ["on-failure"]
    assert "network-online.target" in entries["After"][0]
    assert entries["StandardOutput"] == ["journal"]
    script = (SYSTEMD / "install.sh").read_text()
    prefix = re.search(r"PREFIX=\$\{PREFIX:-(\S+)\}", script).group(1)
    assert entries["ExecStart"] == [f"{prefix}/venv/bin/companion run"]
    assert "--system-site-packages" in script and "python3-picamera2" in script


def test_systemd_accepts_the_unit(tmp_path):
    result = subprocess.run(["systemd-analyze", "verify", str(SYSTEMD / "companion.service")],
                            capture_output=True, text=True, cwd=tmp_path)
    complaints = [line for line in result.stderr.splitlines()
                  if line and "is not executable" not in line]  # not installed on this machine
    assert complaints == []


def test_the_install_script_is_valid_bash():
    subprocess.run(["bash", "-n", str(SYSTEMD / "install.sh")], check=True)


def test_the_default_config_the_installer_writes_reads_back_the_same(tmp_path):
    written = tmp_path / "config.toml"
    written.write_text("\n".join(settings.load([]).describe()))
    again = settings.load([written])
    assert again.problems == [] and again.values == settings.DEFAULTS
