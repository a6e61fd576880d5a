"""What every response carries and what every request must name: security headers, and the
``Host`` allow-list that stops DNS rebinding.

A page from another site cannot read this server's answers, unless its own name is made to
resolve to the Pi (DNS rebinding): the browser then sends that other site's name as ``Host``.
Only this machine's own names are accepted: loopback, any address of this machine (checked by
binding to it, so a new DHCP lease needs no restart), its host name, the mDNS names
``companion.local`` and ``companion-N.local`` (Avahi's name after a clash), and the names the
config's ``[web] hosts`` lists. Others get 400 ``request.bad_host``.

The page runs no inline script (its data blocks are JSON) and no inline style attribute is
needed by the scripts' markup, so the Content-Security-Policy allows scripts, styles, images and
connections from this server only.
"""

from __future__ import annotations

import ipaddress
import re
import socket
import time
from collections.abc import Iterable

from flask import Flask, Response, request

from .errors import ApiError

HEADERS = {
    "Content-Security-Policy": "default-src 'self'; script-src 'self'; style-src 'self'; "
                               "img-src 'self' data:; connect-src 'self'; object-src 'none'; "
                               "base-uri 'none'; form-action 'self'; frame-ancestors 'none'",
    "X-Frame-Options": "DENY",
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "no-referrer",
    "Cross-Origin-Opener-Policy": "same-origin",
}
MDNS = re.compile(r"companion(-[0-9]{1,4})?\.local")
REMEMBER = 60.0
"""Seconds an address found to be this machine's is trusted without binding again."""


def split_names(text: str) -> tuple[str, ...]:
    """The names of a config value such as ``"table.lan, games.home"``."""
    return tuple(name for name in re.split(r"[\s,]+", text.lower()) if name)


def bare_name(host: str) -> str:
    """A ``Host`` header without its port, brackets and final dot, in lower case."""
    host = host.strip().lower()
    if host.startswith("["):
        return host[1:].partition("]")[0]
    if host.count(":") == 1:
        host = host.partition(":")[0]
    return host.rstrip(".")


class HostNames:
    """Decides whether a ``Host`` header names this machine."""

    def __init__(self, configured: Iterable[str] = ()) -> None:
        own = socket.gethostname().lower()
        self.names = {"localhost", own, f"{own}.local", *map(bare_name, configured)}
        self._local: dict[str, float] = {}

    def _is_local_address(self, text: str) -> bool:
        try:
            address = ipaddress.ip_address(text)
        except ValueError:
            return False
        if address.is_loopback:
            return True
        if self._local.get(text, 0.0) > time.monotonic():
            return True
        family = socket.AF_INET6 if address.version == 6 else socket.AF_INET
        try:
            with socket.socket(family, socket.SOCK_DGRAM) as probe:
                probe.bind((text, 0))  # only this machine's own addresses can be bound
        except OSError:
            return False
        self._local[text] = time.monotonic() + REMEMBER
        return True

    def allowed(self, host: str) -> bool:
        """Whether a ``Host`` header (port included or not) names this machine."""
        name = bare_name(host)
        return name in self.names or bool(MDNS.fullmatch(name)) or self._is_local_address(name)


def install(app: Flask, configured: Iterable[str] = ()) -> None:
    """Refuse requests naming another host; add the security headers to every response."""
    names = HostNames(configured)

    @app.before_request
    def check_host() -> None:
        if not names.allowed(request.host):
            raise ApiError(400, "request.bad_host", host=request.host[:80])

    @app.after_request
    def add_headers(response: Response) -> Response:
        for header, value in HEADERS.items():
            response.headers.setdefault(header, value)
        return response
