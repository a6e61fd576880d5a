"""The addresses phones on the table's network can open: those of the default route's interface.

Raspberry Pi OS maps the hostname to 127.0.1.1, so asking the resolver for "my address" gives an
address no phone can reach. The kernel's tables say it instead: the interface(s) the default
route leaves by (``/proc/net/route``: Wi-Fi, Ethernet, or both) and their IPv4 addresses (the
interface table, read with ``ifaddr``). Without a default route (a LAN with no gateway, a
hotspot) every non-loopback address is offered; with no network at all, loopback, so the page
still works on the Pi itself. Link-local addresses (169.254.x.x) come last: only when nothing
else exists.
"""

from __future__ import annotations

import ipaddress
from collections.abc import Mapping, Sequence
from pathlib import Path

ROUTE_TABLE = Path("/proc/net/route")
RTF_UP = 0x1
LOOPBACK = "127.0.0.1"
WILDCARDS = ("0.0.0.0", "::", "")


def default_interfaces(route_table: str) -> list[str]:
    """The interfaces of the default IPv4 routes in a ``/proc/net/route`` text, lowest metric
    first."""
    routes = []
    for line in route_table.splitlines()[1:]:
        fields = line.split()
        if len(fields) < 8:
            continue
        name, destination, flags, metric, mask = fields[0], fields[1], fields[3], fields[6], \
            fields[7]
        if destination == "00000000" and mask == "00000000" and int(flags, 16) & RTF_UP:
            routes.append((int(metric), name))
    return list(dict.fromkeys(name for _, name in sorted(routes)))


def interface_addresses() -> dict[str, list[str]]:
    """The IPv4 addresses of each network interface of this machine, by interface name."""
    import ifaddr  # zeroconf's own dependency: the interface table through getifaddrs()

    return {adapter.nice_name: [ip.ip for ip in adapter.ips if isinstance(ip.ip, str)]
            for adapter in ifaddr.get_adapters()}


def _reachable(address: str) -> bool:
    ip = ipaddress.ip_address(address)
    return not (ip.is_loopback or ip.is_unspecified or ip.is_multicast)


def lan_addresses(route_table: str | None = None,
                  interfaces: Mapping[str, Sequence[str]] | None = None) -> list[str]:
    """The IPv4 addresses phones can reach, best first (see the module's docstring); the tables
    are read from this machine unless given."""
    if route_table is None:
        try:
            route_table = ROUTE_TABLE.read_text()
        except OSError:  # not Linux: no route table, every address is a candidate
            route_table = ""
    interfaces = interface_addresses() if interfaces is None else interfaces
    routed = [address for name in default_interfaces(route_table)
              for address in interfaces.get(name, ())]
    every = [address for addresses in interfaces.values() for address in addresses]
    for candidates in (routed, every):
        usable = [address for address in dict.fromkeys(candidates) if _reachable(address)]
        if usable:
            return sorted(usable, key=lambda address: ipaddress.ip_address(address).is_link_local)
    return [LOOPBACK]


def page_urls(host: str, port: int, addresses: Sequence[str] | None = None) -> list[str]:
    """The URLs to open on a phone: one per LAN address when the server listens on every
    address, else the one it listens on."""
    if host not in WILDCARDS:
        return [f"http://{host}:{port}/"]
    return [f"http://{address}:{port}/" for address in (addresses or lan_addresses())]
