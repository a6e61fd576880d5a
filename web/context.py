"""What every request handler reaches: the session, the hub, the host guards, the simulator,
the box (the running hardware table and the settings it was built from) and the secret
roles' tokens."""

from __future__ import annotations

from dataclasses import dataclass

from flask import current_app, request

from companion.config import Config
from companion.engine import Session
from companion.simulator import Simulator
from hardware.table import Table

from .auth import HostSessions, LoginLimiter, PinStore, RoleTokens, SetupCode
from .config import WebConfig
from .hub import Hub
from .texts import pick_language

EXTENSION = "companion"


@dataclass
class Companion:
    """The objects one web app shares between its requests.

    ``table`` is the running hardware table (None when no sensor runs); ``settings`` the
    companion's config, which ``companion doctor`` on the host page checks; ``setup`` the
    one-time code that allows choosing the first PIN (``setup.current()``: what ``companion run``
    prints and the table says, None once a PIN exists).
    """

    session: Session
    config: WebConfig
    hub: Hub
    pins: PinStore
    hosts: HostSessions
    limiter: LoginLimiter
    simulator: Simulator | None
    table: Table | None
    settings: Config
    roles: RoleTokens
    setup: SetupCode


def current() -> Companion:
    """The companion of the app handling this request."""
    return current_app.extensions[EXTENSION]


def request_lang() -> str:
    """The language to answer in: ``?lang=``, the ``X-Companion-Lang`` header, the browser's
    preference, else the configured language."""
    chosen = request.args.get("lang") or request.headers.get("X-Companion-Lang")
    return pick_language(chosen, request.accept_languages, current().config.lang)
