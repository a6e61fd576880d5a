"""A link phones can open: the LAN address of the default route's interface (never the
127.0.1.1 Raspberry Pi OS maps the hostname to), computed from the kernel's tables (fake ones,
and a real network namespace with a Wi-Fi and an Ethernet interface); and the page's ``.local``
name announced with mDNS, seen by a real zeroconf browser on loopback, a clash (another box, or
another companion on the same machine) giving ``NAME-2.local``. Each test uses names of its own:
a companion running on the machine is never what it sees."""

import os
import re
import subprocess
import sys
import threading
import urllib.request
import uuid
from pathlib import Path

import hwtools
import pytest
from zeroconf import IPVersion, ServiceBrowser, Zeroconf

from companion.mdns import SERVICE, PageAnnouncer
from companion.netaddr import default_interfaces, lan_addresses, page_urls

ROOT = Path(__file__).resolve().parents[2]
HEADER = "Iface\tDestination\tGateway \tFlags\tRefCnt\tUse\tMetric\tMask\t\tMTU\tWindow\tIRTT\n"


def route(iface: str, destination: str = "00000000", flags: str = "0003", metric: int = 0,
          mask: str = "00000000") -> str:
    return f"{iface}\t{destination}\t0101A8C0\t{flags}\t0\t0\t{metric}\t{mask}\t0\t0\t0\n"


PI = {"lo": ["127.0.0.1"], "eth0": [], "wlan0": ["192.168.1.42"],
      "docker0": ["172.17.0.1"]}


def test_the_default_routes_interface_gives_the_address_never_127_0_1_1():
    table = HEADER + route("wlan0", metric=600) + route("wlan0", "0001A8C0", "0001",
                                                        mask="00FFFFFF")
    assert default_interfaces(table) == ["wlan0"]
    assert lan_addresses(table, PI) == ["192.168.1.42"]  # not docker0, not loopback
    assert "127.0.1.1" not in lan_addresses(table, {**PI, "lo": ["127.0.0.1", "127.0.1.1"]})


def test_every_default_route_counts_lowest_metric_first():
    table = HEADER + route("wlan0", metric=600) + route("eth0", metric=100)
    interfaces = {**PI, "eth0": ["10.0.0.7"]}
    assert lan_addresses(table, interfaces) == ["10.0.0.7", "192.168.1.42"]
    down = HEADER + route("eth0", flags="0002", metric=100) + route("wlan0", metric=600)
    assert default_interfaces(down) == ["wlan0"]


def test_without_a_default_route_every_address_then_loopback():
    hotspot = {"lo": ["127.0.0.1"], "wlan0": ["169.254.3.4", "10.42.0.1"]}
    assert lan_addresses(HEADER, hotspot) == ["10.42.0.1", "169.254.3.4"]
    assert lan_addresses(HEADER, {"lo": ["127.0.0.1"]}) == ["127.0.0.1"]
    gone = HEADER + route("eth0")  # a default route through an interface with no IPv4
    assert lan_addresses(gone, PI) == ["192.168.1.42", "172.17.0.1"]


def test_page_urls():
    assert page_urls("0.0.0.0", 8000, ["192.168.1.42", "10.0.0.7"]) == [
        "http://192.168.1.42:8000/", "http://10.0.0.7:8000/"]
    assert page_urls("127.0.0.1", 8000) == ["http://127.0.0.1:8000/"]


NAMESPACE = """set -e
ip link set lo up
for pair in "wlan0 10.7.0.5 10.7.0.1 600" "eth0 172.31.9.9 172.31.9.1 100" "usb0 10.99.0.2 - -"
do
  set -- $pair
  ip link add "$1" type veth peer name "$1-peer"
  ip addr add "$2/24" dev "$1"
  ip link set "$1" up
  ip link set "$1-peer" up
  [ "$3" = - ] || ip route add default via "$3" dev "$1" metric "$4"
done
exec "$0" -c 'from companion.netaddr import lan_addresses; print(" ".join(lan_addresses()))'
"""


def test_the_addresses_in_a_real_network_namespace():
    """A namespace with Wi-Fi and Ethernet both routed (Ethernet preferred) and a USB gadget
    link without a route: the real kernel tables, read the way ``companion run`` reads them."""
    if subprocess.run(["unshare", "--net", "true"], capture_output=True).returncode != 0:
        pytest.skip("this machine does not allow network namespaces (needs root)")
    result = subprocess.run(["unshare", "--net", "sh", "-c", NAMESPACE, sys.executable],
                            capture_output=True, text=True, cwd=ROOT, timeout=60)
    assert result.returncode == 0, result.stderr
    assert result.stdout.split() == ["172.31.9.9", "10.7.0.5"]


class Browser:
    """A real zeroconf browser of ``_http._tcp`` on loopback."""

    def __init__(self) -> None:
        self.zeroconf = Zeroconf(interfaces=["127.0.0.1"], ip_version=IPVersion.V4Only)
        self.names: list[str] = []
        self.seen = threading.Event()
        self.browser = ServiceBrowser(self.zeroconf, SERVICE, self)

    def add_service(self, zc, type_, name):
        self.names.append(name)
        self.seen.set()

    def update_service(self, zc, type_, name):
        pass

    def remove_service(self, zc, type_, name):
        pass

    def info(self, name: str):
        return self.zeroconf.get_service_info(SERVICE, name, 3000)

    def close(self) -> None:
        self.browser.cancel()
        self.zeroconf.close()


def own_name() -> str:
    """A host name no other companion on this machine uses (other tests, a running box)."""
    return f"ctest-{uuid.uuid4().hex[:8]}"


@pytest.mark.parametrize("second_address", ["192.0.2.20", "192.0.2.10"],
                         ids=["another box", "the same machine"])
def test_mdns_announces_its_local_name_and_a_clash_takes_name_2(second_address):
    """A second companion, on another box or on the same machine (the same addresses: the
    testers' two ``companion run`` both claimed companion.local, and a browser saw one service
    with the second's port), takes ``NAME-2.local`` and a service name of its own."""
    host, name = own_name(), f"Table {uuid.uuid4().hex[:6]}"
    first = PageAnnouncer(name, 8000, ["192.0.2.10"], host=host, interfaces=["127.0.0.1"])
    second = PageAnnouncer(name, 8001, [second_address], host=host, interfaces=["127.0.0.1"])
    browser = Browser()
    try:
        assert first.start() == f"http://{host}.local:8000/"
        assert hwtools.wait_until(lambda: f"{name}.{SERVICE}" in browser.names, 10)
        info = browser.info(f"{name}.{SERVICE}")
        assert info.server == f"{host}.local." and info.port == 8000
        assert info.parsed_addresses() == ["192.0.2.10"] and info.properties[b"path"] == b"/"

        assert second.start() == f"http://{host}-2.local:8001/"
        assert second.service_name == f"{name}-2.{SERVICE}"
        assert hwtools.wait_until(lambda: second.service_name in browser.names, 10)
        info = browser.info(second.service_name)
        assert info.server == f"{host}-2.local." and info.port == 8001
        assert info.parsed_addresses() == [second_address]
        assert browser.info(f"{name}.{SERVICE}").port == 8000   # the first keeps its own
    finally:
        browser.close()
        first.close()
        second.close()


def run_companion(conf: Path, data: Path) -> subprocess.Popen:
    """``companion run --simulate`` on every address and a free port, with ``conf``."""
    return subprocess.Popen(
        [sys.executable, "-m", "companion", "run", "--simulate", "--port", "0", "--data-dir",
         str(data)], cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True,
        env={**os.environ, "COMPANION_CONFIG": str(conf), "PYTHONUNBUFFERED": "1"})


def named_config(tmp_path: Path) -> tuple[Path, str, str]:
    """A config with a table name and an mDNS name of this test's own (another companion
    running on the machine must not be what the test sees); the file, the table's name and the
    host name."""
    host, name = own_name(), f"Test Table {uuid.uuid4().hex[:6]}"
    conf = tmp_path / "config.toml"
    conf.write_text(f'[table]\nname = "{name}"\nlocal_name = "{host}"\n'
                    "[speech]\nenabled = false\n")
    return conf, name, host


def local_url(process: subprocess.Popen) -> str:
    """The ``.local`` URL a running companion prints."""
    line = next(line for line in process.stdout if ".local:" in line)
    return re.search(r"http://\S+\.local:\d+/", line).group(0)


def stop(process: subprocess.Popen) -> None:
    process.terminate()
    process.wait(30)


def test_companion_run_prints_the_lan_address_and_announces_its_local_name(tmp_path):
    """`companion run` listening on every address: it prints the LAN address(es) (never a
    loopback one when the machine has a network), then the .local URL, which a zeroconf browser
    on loopback finds with the server's port."""
    conf, name, host = named_config(tmp_path)
    browser = Browser()
    process = run_companion(conf, tmp_path / "data")
    try:
        first = process.stdout.readline().split()[-1]
        port = int(first.rsplit(":", 1)[1].strip("/"))
        expected = [f"http://{address}:{port}/" for address in lan_addresses()]
        assert first == expected[0] and "127.0.1.1" not in first
        local = next(line for line in process.stdout if ".local:" in line)
        assert f"http://{host}.local:{port}/" in local
        assert hwtools.wait_until(lambda: f"{name}.{SERVICE}" in browser.names, 10)
        assert browser.info(f"{name}.{SERVICE}").port == port
    finally:
        stop(process)
        browser.close()


def test_two_companions_on_one_machine_take_two_names(tmp_path):
    """The testers ran two ``companion run --simulate`` on one machine (other data directories
    and ports): both printed companion.local, and a browser saw one service, with the second's
    port. The second takes NAME-2.local and a service of its own; each has its own port."""
    conf, name, host = named_config(tmp_path)
    browser = Browser()
    first = run_companion(conf, tmp_path / "one")
    second = None
    try:
        one = local_url(first)
        second = run_companion(conf, tmp_path / "two")
        two = local_url(second)
        assert re.fullmatch(rf"http://{host}\.local:\d+/", one)
        assert re.fullmatch(rf"http://{host}-2\.local:\d+/", two)
        ports = [int(url.rsplit(":", 1)[1].strip("/")) for url in (one, two)]
        assert ports[0] != ports[1]
        services = [f"{name}.{SERVICE}", f"{name}-2.{SERVICE}"]
        assert hwtools.wait_until(lambda: set(services) <= set(browser.names), 10)
        assert [browser.info(service).port for service in services] == ports
        assert [browser.info(service).server for service in services] == [
            f"{host}.local.", f"{host}-2.local."]
        with urllib.request.urlopen(urllib.request.Request(   # its name passes the Host check
                f"http://127.0.0.1:{ports[1]}/api/state",
                headers={"Host": f"{host}-2.local:{ports[1]}"}), timeout=10) as reply:
            assert reply.status == 200
    finally:
        stop(first)
        if second is not None:
            stop(second)
        browser.close()
