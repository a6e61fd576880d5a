"""``companion.local``: the page announced on the table's network with mDNS (zeroconf).

Phones (iOS, Android 12+, laptops) resolve ``.local`` names and browse ``_http._tcp``
services, so ``http://companion.local:8000/`` opens the page without reading an address. The
service carries the table's name (``[table] name``) and points at the LAN addresses of
:mod:`companion.netaddr`. A second companion on the same network finds ``companion.local``
already answered by another machine and takes ``companion-2.local`` (then ``-3``...); a clash of
the service name is settled by zeroconf itself (``Table Companion-2``).
"""

from __future__ import annotations

import logging
import socket
import threading
from collections.abc import Callable, Sequence
from typing import Any

from zeroconf import AddressResolverIPv4, InterfaceChoice, IPVersion, ServiceInfo, Zeroconf

log = logging.getLogger(__name__)

SERVICE = "_http._tcp.local."
HOST = "companion"
#: How long to wait for another machine to answer for a host name before taking it.
PROBE_MS = 1000
MAX_TRIES = 9


class PageAnnouncer:
    """Announces the page on mDNS until :meth:`close`.

    ``interfaces`` are zeroconf's (every interface by default; the tests use loopback).
    """

    def __init__(self, name: str, port: int, addresses: Sequence[str], host: str = HOST,
                 interfaces: Any = InterfaceChoice.All) -> None:
        self.name, self.port, self.addresses, self.host = name, int(port), list(addresses), host
        self._zeroconf = Zeroconf(interfaces=interfaces, ip_version=IPVersion.V4Only)
        self._info: ServiceInfo | None = None
        self.hostname = ""

    def _taken(self, hostname: str) -> bool:
        """Whether another machine answers for ``hostname`` (``name.local.``)."""
        resolver = AddressResolverIPv4(hostname)
        if not resolver.request(self._zeroconf, PROBE_MS):
            return False
        return not set(resolver.parsed_addresses()) <= set(self.addresses)

    def start(self) -> str:
        """Take a free host name, register the service (blocks a second or two while zeroconf
        probes) and return the page's ``.local`` URL."""
        for n in range(1, MAX_TRIES + 1):
            hostname = f"{self.host}{'' if n == 1 else f'-{n}'}.local."
            if not self._taken(hostname):
                break
            log.warning("%s is taken by another machine on the network", hostname)
        else:
            raise OSError(f"{self.host}.local to {hostname} are all taken on this network")
        info = ServiceInfo(SERVICE, f"{self.name}.{SERVICE}", port=self.port,
                           addresses=[socket.inet_aton(a) for a in self.addresses],
                           server=hostname, properties={"path": "/"})
        self._zeroconf.register_service(info, allow_name_change=True)
        self._info, self.hostname = info, hostname.rstrip(".")
        return self.url

    @property
    def url(self) -> str:
        """The page at its ``.local`` name ("" before :meth:`start`)."""
        return f"http://{self.hostname}:{self.port}/" if self.hostname else ""

    @property
    def service_name(self) -> str:
        """The registered service's full name (zeroconf may have added "-2")."""
        return self._info.name if self._info is not None else ""

    def close(self) -> None:
        """Say goodbye on the network and stop."""
        if self._info is not None:
            self._zeroconf.unregister_service(self._info)
            self._info = None
        self._zeroconf.close()


def announce_in_background(name: str, port: int, addresses: Sequence[str],
                           on_ready: Callable[[str], None]) -> PageAnnouncer | None:
    """Start announcing the page without holding up the server (zeroconf probes for a second or
    two); ``on_ready(url)`` gets the ``.local`` URL. None when mDNS cannot start here (no
    multicast-capable interface): the LAN addresses still work, and the reason is logged."""
    try:
        announcer = PageAnnouncer(name, port, addresses)
    except OSError as exc:
        log.warning("mDNS cannot start (%s): phones need the address instead", exc)
        return None

    def run() -> None:
        try:
            on_ready(announcer.start())
        except Exception as exc:  # zeroconf's errors, a name that cannot be had
            log.warning("mDNS cannot announce the page (%s): phones need the address", exc)

    threading.Thread(target=run, name="mdns", daemon=True).start()
    return announcer
