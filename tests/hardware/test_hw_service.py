"""The Pi service: the unit file, the install script, the default config it writes, and the
companion's side of systemd's notify protocol (READY, the watchdog heartbeat, STOPPING)."""

import json
import os
import re
import signal
import socket
import subprocess
import sys
import threading
import time
import urllib.request
from pathlib import Path

import hwtools

from companion import config as settings
from companion.notify import ServiceNotifier

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
    assert entries["Type"] == ["notify"] and int(entries["WatchdogSec"][0]) > 0
    # a crash loop stops instead of restarting every RestartSec forever
    assert int(entries["StartLimitBurst"][0]) > 0 and int(entries["StartLimitIntervalSec"][0]) > 0
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


def test_the_unit_is_rated_under_4_by_systemd_analyze_security(tmp_path):
    result = subprocess.run(["systemd-analyze", "security", "--offline=true", "--threshold=39",
                             str(SYSTEMD / "companion.service")],
                            capture_output=True, text=True, cwd=tmp_path)
    overall = re.search(r"Overall exposure level for companion.service: (\d+\.\d)", result.stdout)
    print(overall.group(0))
    assert result.returncode == 0 and float(overall.group(1)) < 4.0, result.stdout[-2000:]


def test_the_hardened_unit_still_opens_every_device_class_the_box_uses():
    entries = unit()
    allowed = {value.split()[0] for value in entries["DeviceAllow"]}
    assert entries["DevicePolicy"] == ["closed"]
    assert {"char-gpiochip", "char-spi", "char-i2c", "char-video4linux", "char-media",
            "char-dma_heap", "char-alsa", "char-input"} <= allowed
    assert {"gpio", "spi", "i2c", "video", "audio", "input"} <= set(
        entries["SupplementaryGroups"][0].split())
    families = entries["RestrictAddressFamilies"][0].split()
    assert {"AF_UNIX", "AF_INET", "AF_INET6", "AF_NETLINK"} <= set(families)
    assert entries["ReadWritePaths"] == ["/var/lib/companion"]
    assert "/var/lib/companion" in entries["Environment"][0]


def test_the_camera_wait_gives_up_after_a_few_seconds(tmp_path):
    """The ExecStartPre loop, run as written on a machine without a camera device."""
    command = unit()["ExecStartPre"][0].lstrip("-")
    script = re.fullmatch(r"/bin/sh -c '(.*)'", command).group(1)
    fake_dev = script.replace("$$", "$").replace("/dev/", f"{tmp_path}/")  # systemd's $$ is $
    start = time.monotonic()
    result = subprocess.run(["/bin/sh", "-c", fake_dev], capture_output=True, text=True)
    assert time.monotonic() - start < 7 and "no camera" in result.stdout
    (tmp_path / "video0").touch()
    start = time.monotonic()
    subprocess.run(["/bin/sh", "-c", fake_dev], check=True)
    assert time.monotonic() - start < 1


class NotifySocket:
    """systemd's end of the notify protocol: a datagram socket that records each message."""

    def __init__(self, path: Path) -> None:
        self.path = str(path)
        self.sock = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
        self.sock.bind(self.path)
        self.sock.settimeout(0.1)
        self.messages: list[tuple[float, str]] = []
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, daemon=True)
        self._thread.start()

    def _run(self) -> None:
        while not self._stop.is_set():
            try:
                data = self.sock.recv(4096)
            except TimeoutError:
                continue
            self.messages.append((time.monotonic(), data.decode()))

    def lines(self, prefix: str) -> list[float]:
        return [at for at, text in self.messages for line in text.splitlines()
                if line.startswith(prefix)]

    def close(self) -> None:
        self._stop.set()
        self._thread.join()
        self.sock.close()


def test_companion_run_says_ready_pings_the_watchdog_and_says_stopping(tmp_path):
    notify = NotifySocket(tmp_path / "notify")
    conf = tmp_path / "config.toml"
    conf.write_text('[speech]\nenabled = false\n')
    process = subprocess.Popen(
        [sys.executable, "-m", "companion", "run", "--simulate", "--host", "127.0.0.1",
         "--port", "0", "--data-dir", str(tmp_path / "data")], cwd=SYSTEMD.parent,
        stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True,
        env={**os.environ, "PYTHONUNBUFFERED": "1", "COMPANION_CONFIG": str(conf),
             "NOTIFY_SOCKET": notify.path, "WATCHDOG_USEC": "600000"})
    try:
        url = process.stdout.readline().split()[-1]
        assert hwtools.wait_until(lambda: notify.lines("READY=1"), 10)
        assert (tmp_path / "data").is_dir()  # the journal is open before READY
        with urllib.request.urlopen(url, timeout=5) as reply:  # and the page serves
            assert reply.status == 200
        assert any(text.startswith("STATUS=http://") for _, text in notify.messages
                   for text in text.splitlines())
        # every third of the watchdog period, only after READY
        assert hwtools.wait_until(lambda: len(notify.lines("WATCHDOG=1")) >= 3, 5)
        assert min(notify.lines("WATCHDOG=1")) > notify.lines("READY=1")[0]
        process.send_signal(signal.SIGTERM)
        process.communicate(timeout=30)
    finally:
        if process.poll() is None:
            process.kill()
        notify.close()
    assert process.returncode == 0 and notify.lines("STOPPING=1")


def test_the_heartbeat_stops_when_the_page_stops_answering(tmp_path, monkeypatch):
    notify = NotifySocket(tmp_path / "notify")
    answering = threading.Event()
    answering.set()
    monkeypatch.setenv("NOTIFY_SOCKET", notify.path)
    monkeypatch.setenv("WATCHDOG_USEC", "150000")
    service = ServiceNotifier()
    try:
        service.ready("http://x/", answering.is_set)
        assert hwtools.wait_until(lambda: len(notify.lines("WATCHDOG=1")) >= 2, 3)
        answering.clear()  # a hung server: systemd must see the pings stop, and restart it
        time.sleep(0.1)
        count = len(notify.lines("WATCHDOG=1"))
        time.sleep(0.4)
        assert len(notify.lines("WATCHDOG=1")) == count
    finally:
        service.stopping()
        notify.close()
    monkeypatch.setenv("WATCHDOG_PID", "1")  # the watchdog is another process's
    assert ServiceNotifier().watchdog is None
    monkeypatch.delenv("NOTIFY_SOCKET")
    assert not ServiceNotifier().enabled  # outside systemd: nothing is sent


STUB = """#!/bin/sh
echo "$(basename "$0") $*" >> "{log}"
"""
FAKE_PYTHON = STUB + """case "$1 $2" in
  "-m venv") for venv; do :; done  # the last argument
             mkdir -p "$venv/bin"
             for tool in pip python; do
               printf '#!/bin/sh\\necho "venv-%s $*" >> "{log}"\\n' "$tool" > "$venv/bin/$tool"
               chmod +x "$venv/bin/$tool"
             done ;;
  "-c import"*) echo "{numpy}" ;;
esac
"""


# apt-cache of a plain Debian: Raspberry Pi's own packages are not in its archives.
DEBIAN_APT_CACHE = STUB + """case "$2" in python3-picamera2|python3-lgpio) exit 100 ;; esac
"""


def run_installer(tmp_path, apt_cache: str = STUB) -> tuple[subprocess.CompletedProcess, list]:
    """install.sh run in a sandbox: apt-get, apt-cache, systemctl, the user tools and Raspberry
    Pi OS's python3 (numpy 1.24.2 from apt) are stand-ins that log their arguments; every path
    is staged under DESTDIR. Returns the run and the logged calls."""
    log, stage, bin_dir = tmp_path / "log", tmp_path / "root", tmp_path / "bin"
    bin_dir.mkdir()
    for tool, text in {"apt-get": STUB, "apt-cache": apt_cache, "systemctl": STUB,
                       "useradd": STUB, "usermod": STUB, "getent": STUB,
                       "python3": FAKE_PYTHON}.items():
        (bin_dir / tool).write_text(text.format(log=log, numpy="1.24.2"))
        (bin_dir / tool).chmod(0o755)
    result = subprocess.run(["bash", str(SYSTEMD / "install.sh")], capture_output=True,
                            text=True, env={"PATH": f"{bin_dir}:/usr/bin:/bin",
                                            "DESTDIR": str(stage)})
    return result, log.read_text().splitlines()


def test_the_installer_keeps_the_systems_numpy_for_picamera2(tmp_path):
    """On Raspberry Pi OS (apt has picamera2 and lgpio) everything is installed."""
    result, calls = run_installer(tmp_path)
    stage = tmp_path / "root"
    assert result.returncode == 0, result.stderr
    assert "skipped" not in result.stderr
    venv = f"{stage}/opt/companion/venv"
    constraints = stage / "opt/companion/constraints.txt"
    # no ensurepip (41 processor seconds under emulation): the system's pip puts the newest
    # pip in the venv
    assert f"python3 -m venv --system-site-packages --without-pip {venv}" in calls
    assert "venv-python -m pip install --upgrade pip" in calls
    # the system's numpy pinned, and the OpenCV wheels that need numpy 2 left out
    assert constraints.read_text() == "numpy==1.24.2\nopencv-python-headless<4.12\n"
    assert f"venv-pip install --constraint {constraints} {SYSTEMD.parent}" in calls
    installed = next(c for c in calls if c.startswith("apt-get install"))
    assert {"python3-picamera2", "python3-numpy", "alsa-utils", "espeak-ng"} <= set(
        installed.split())
    assert (stage / "etc/systemd/system/companion.service").read_text() == (
        SYSTEMD / "companion.service").read_text()
    assert (stage / "etc/companion/config.toml").exists()
    assert "systemctl enable companion" in calls and "systemctl restart companion" in calls


def test_the_installer_on_plain_debian_says_what_it_skipped(tmp_path):
    """Debian without Raspberry Pi's archive (the ARM userlands of `make pi-check`): the
    installer names the packages it could not have and what that costs, and still installs."""
    result, calls = run_installer(tmp_path, apt_cache=DEBIAN_APT_CACHE)
    assert result.returncode == 0, result.stderr
    installed = next(c for c in calls if c.startswith("apt-get install")).split()
    assert "python3-picamera2" not in installed and "python3-lgpio" not in installed
    assert "python3-numpy" in installed
    assert "skipped python3-picamera2 python3-lgpio" in result.stderr
    assert "no Pi camera, no GPIO" in result.stderr
    assert (tmp_path / "root/etc/companion/config.toml").exists()


# Wheels a Raspberry Pi OS Bookworm (aarch64, glibc 2.36) can install: pip does not widen a
# --platform to the older glibc versions it covers, and ONNX Runtime's aarch64 wheels say 2.27+.
PI_PLATFORMS = [arg for v in range(17, 37) for arg in ("--platform", f"manylinux_2_{v}_aarch64")]


def test_pip_finds_an_opencv_for_the_pis_numpy(tmp_path):
    """The installer's pin, resolved by pip for a Raspberry Pi (aarch64, CPython 3.11) against
    the package index: without it pip takes OpenCV 5 and numpy 2 (the break); with it, an OpenCV
    wheel built for numpy 1.24, ONNX Runtime (the dice networks' runner) and no second numpy."""
    (tmp_path / "pin.txt").write_text("numpy==1.24.2\n")
    pyproject = (SYSTEMD.parent / "pyproject.toml").read_text()
    wanted = [r.split(";")[0] for r in re.findall(
        r'"((?:numpy|opencv-python-headless|onnxruntime)[^"]*)"', pyproject)]
    assert any(w.startswith("onnxruntime") for w in wanted)

    def resolve(*extra: str) -> dict[str, str]:
        report = tmp_path / "report.json"
        subprocess.run([sys.executable, "-m", "pip", "install", "--quiet", "--dry-run",
                        "--ignore-installed", "--only-binary=:all:", *PI_PLATFORMS,
                        "--python-version", "3.11",
                        "--implementation", "cp", "--report", str(report), *extra, *wanted],
                       check=True, capture_output=True, timeout=300)
        found = json.loads(report.read_text())["install"]
        return {item["metadata"]["name"]: item["metadata"]["version"] for item in found}

    pinned = resolve("--constraint", str(tmp_path / "pin.txt"))
    assert pinned["numpy"] == "1.24.2" and pinned["opencv-python-headless"].startswith("4.")
    assert "onnxruntime" in pinned
    assert resolve()["numpy"].startswith("2.")  # what broke the camera
