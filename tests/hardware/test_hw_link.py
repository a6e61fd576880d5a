"""A link phones can open: the LAN address of the default route's interface (never the
127.0.1.1 Raspberry Pi OS maps the hostname to), computed from the kernel's tables (fake ones,
and a real network namespace with a Wi-Fi and an Ethernet interface); and ``companion.local``
announced with mDNS, seen by a real zeroconf browser on loopback, a clash giving
``companion-2.local``."""

import os
import subprocess
import sys
import threading
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


def test_mdns_announces_companion_local_and_a_clash_takes_companion_2():
    first = PageAnnouncer("Table Companion", 8000, ["192.0.2.10"], interfaces=["127.0.0.1"])
    second = PageAnnouncer("Table Companion", 8001, ["192.0.2.20"], interfaces=["127.0.0.1"])
    browser = Browser()
    try:
        assert first.start() == "http://companion.local:8000/"
        assert hwtools.wait_until(lambda: f"Table Companion.{SERVICE}" in browser.names, 10)
        info = browser.info(f"Table Companion.{SERVICE}")
        assert info.server == "companion.local." and info.port == 8000
        assert info.parsed_addresses() == ["192.0.2.10"] and info.properties[b"path"] == b"/"

        assert second.start() == "http://companion-2.local:8001/"  # another box on the LAN
        assert second.service_name == f"Table Companion-2.{SERVICE}"
        assert hwtools.wait_until(lambda: second.service_name in browser.names, 10)
        info = browser.info(second.service_name)
        assert info.server == "companion-2.local." and info.parsed_addresses() == ["192.0.2.20"]
    finally:
        browser.close()
        first.close()
        second.close()


def test_companion_run_prints_the_lan_address_and_announces_companion_local(tmp_path):
    """`companion run` listening on every address: it prints the LAN address(es) (never a
    loopback one when the machine has a network), then the .local URL, which a zeroconf browser
    on loopback finds with the server's port."""
    conf = tmp_path / "config.toml"
    conf.write_text('[table]\nname = "Test Table"\n[speech]\nenabled = false\n')
    browser = Browser()
    process = subprocess.Popen(
        [sys.executable, "-m", "companion", "run", "--simulate", "--port", "0", "--data-dir",
         str(tmp_path / "data")], cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
        text=True, env={**os.environ, "COMPANION_CONFIG": str(conf),
                        "PYTHONUNBUFFERED": "1"})
    try:
        first = process.stdout.readline().split()[-1]
        port = int(first.rsplit(":", 1)[1].strip("/"))
        expected = [f"http://{address}:{port}/" for address in lan_addresses()]
        assert first == expected[0] and "127.0.1.1" not in first
        local = next(line for line in process.stdout if ".local:" in line)
        assert f".local:{port}/" in local and "companion" in local
        assert hwtools.wait_until(lambda: any(n.startswith("Test Table") for n in browser.names),
                                  10)
        name = next(n for n in browser.names if n.startswith("Test Table"))
        assert browser.info(name).port == port
    finally:
        process.terminate()
        process.wait(30)
        browser.close()
