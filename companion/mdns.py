"""``companion.local``: the page announced on the table's network with mDNS (zeroconf).

Phones (iOS, Android 12+, laptops) resolve ``.local`` names and browse ``_http._tcp``
services, so ``http://companion.local:8000/`` opens the page without reading an address. The
service carries the table's name (``[table] name``) and points at the LAN addresses of
:mod:`companion.netaddr`. A second companion on the same network, on another box or on the same
machine, takes ``companion-2.local`` and the service ``Table Companion-2`` (then ``-3``...): a
name is taken when a ``_http._tcp`` service already has it (as its instance name or its host), or
when another machine answers for the host name. This machine's own answer for its host name
(a Pi named ``companion``, answered by Avahi) is no clash. Two companions that start within the
same second may still both see the names free; zeroconf then renames the later service.
"""

from __future__ import annotations

import logging
import re
import socket
import threading
import time
from collections.abc import Callable, Sequence
from typing import Any

from zeroconf import (
    AddressResolverIPv4,
    InterfaceChoice,
    IPVersion,
    ServiceBrowser,
    ServiceInfo,
    Zeroconf,
)

log = logging.getLogger(__name__)

SERVICE = "_http._tcp.local."
HOST = "companion"
#: How long to wait for another machine to answer for a host name before taking it.
PROBE_MS = 1000
MAX_TRIES = 9
#: A host name: one DNS label.
LABEL = re.compile(r"[a-z0-9]([a-z0-9-]{0,50}[a-z0-9])?")


def local_names(host: str = HOST) -> list[str]:
    """Every ``.local`` name a companion called ``host`` may take (for the Host allow-list)."""
    return [f"{host}.local"] + [f"{host}-{n}.local" for n in range(2, MAX_TRIES + 1)]


class PageAnnouncer:
    """Announces the page on mDNS until :meth:`close`.

    ``host`` is the wanted host name (``companion``; raises ValueError when it is not one DNS
    label); ``interfaces`` are zeroconf's (every interface by default; the tests use loopback).
    """

    def __init__(self, name: str, port: int, addresses: Sequence[str], host: str = HOST,
                 interfaces: Any = InterfaceChoice.All) -> None:
        if not LABEL.fullmatch(host):
            raise ValueError(f"{host!r} is not a host name (letters, digits and -)")
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

    def _services(self) -> set[str]:
        """The instance names and host names of the ``_http._tcp`` services on the network now
        (lower case): those a browser finds within :data:`PROBE_MS`."""
        found: set[str] = set()
        browser = ServiceBrowser(self._zeroconf, SERVICE, handlers=[
            lambda zeroconf, service_type, name, state_change: found.add(name)])
        time.sleep(PROBE_MS / 1000)
        browser.cancel()
        taken = set()
        for name in found:
            taken.add(name.lower())
            info = self._zeroconf.get_service_info(SERVICE, name, PROBE_MS)
            if info is not None and info.server:
                taken.add(info.server.lower())
        return taken

    def start(self) -> str:
        """Take a free host name and service name, register the service (blocks a second or
        two while zeroconf probes) and return the page's ``.local`` URL."""
        services = self._services()
        for n in range(1, MAX_TRIES + 1):
            suffix = "" if n == 1 else f"-{n}"
            hostname, service = f"{self.host}{suffix}.local.", f"{self.name}{suffix}.{SERVICE}"
            if hostname.lower() not in services and service.lower() not in services \
                    and not self._taken(hostname):
                break
            log.warning("%s or %s is taken on the network", hostname, service)
        else:
            raise OSError(f"{self.host}.local to {hostname} are all taken on this network")
        info = ServiceInfo(SERVICE, service, port=self.port,
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
                           on_ready: Callable[[str], None],
                           host: str = HOST) -> PageAnnouncer | None:
    """Start announcing the page as ``host.local`` (or ``host-N.local``) without holding up the
    server (zeroconf probes for a second or two); ``on_ready(url)`` gets the ``.local`` URL.
    None when mDNS cannot start here (no multicast-capable interface, a bad host name): the LAN
    addresses still work, and the reason is logged."""
    try:
        announcer = PageAnnouncer(name, port, addresses, host)
    except (OSError, ValueError) as exc:
        log.warning("mDNS cannot start (%s): phones need the address instead", exc)
        return None

    def run() -> None:
        try:
            on_ready(announcer.start())
        except Exception as exc:  # zeroconf's errors, a name that cannot be had
            log.warning("mDNS cannot announce the page (%s): phones need the address", exc)

    threading.Thread(target=run, name="mdns", daemon=True).start()
    return announcer
