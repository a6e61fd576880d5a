"""The page's own address, for the host to hand to the table: the LAN URLs, the ``.local`` name
once mDNS has it, a QR code (SVG) to scan, and the address said aloud on request.

``companion run`` gives the app the :class:`Link` it printed (:func:`attach`); without one (an
app made otherwise) the routes answer 404. ``GET /api/link`` needs the host login, ``POST
/api/link/say`` the CSRF token too.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from urllib.parse import urlsplit

import segno
from flask import Blueprint, Flask, Response, current_app, jsonify

from companion.engine import Message

from .errors import ApiError
from .host import require_host, require_login

KEY = "companion.link"

bp = Blueprint("link", __name__)


@dataclass
class Link:
    """Where phones open the page: ``urls`` (LAN, best first), ``local`` (the mDNS URL, "" until
    registered) and ``say`` (speaks a message; None without a voice)."""

    urls: list[str]
    local: str = ""
    say: Callable[[Message], None] | None = None

    def message(self) -> Message:
        """The sentence that gives the address aloud."""
        address = urlsplit(self.urls[0])
        local = urlsplit(self.local).hostname if self.local else ""
        return Message("link.page", {"address": address.hostname, "port": address.port,
                                     "local": Message("link.local", {"name": local}).to_json()
                                     if local else ""})


def qr_svg(url: str) -> str:
    """A QR code of ``url`` as inline SVG (dark modules, transparent background)."""
    return segno.make(url, error="m").svg_inline(scale=4, border=2, dark="#000", light="#fff")


def attach(app: Flask, link: Link) -> None:
    """Show ``link`` on ``app``'s host page."""
    app.extensions[KEY] = link


def _link() -> Link:
    link = current_app.extensions.get(KEY)
    if link is None:
        raise ApiError(404, "link.none")
    return link


@bp.get("/api/link")
def show() -> Response:
    """The page's URLs, its ``.local`` URL and a QR code of the first one (host only)."""
    require_login()
    link = _link()
    return jsonify({"urls": link.urls, "local": link.local, "qr": qr_svg(link.urls[0])})


@bp.post("/api/link/say")
def say() -> Response:
    """Say the page's address aloud (host only)."""
    require_host()
    link = _link()
    if link.say is None:
        raise ApiError(409, "link.silent")
    link.say(link.message())
    return jsonify({"said": link.message().to_json()})
