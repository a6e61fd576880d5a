"""The phone dashboard and host controls: a Flask app over one Session.

``create_app(session, config, table=..., settings=...)`` builds the app; ``web.cli`` serves it
with a production WSGI server (``companion run``). See docs/web.md.
"""

from __future__ import annotations

import secrets

from flask import Flask

from companion import config as companion_config
from companion.engine import Session
from companion.simulator import Simulator
from hardware.table import Table

from . import api, box, definitions, errors, history, host, openapi, pages, roles, security
from .auth import HostSessions, LoginLimiter, PinStore, RoleTokens, SetupCode
from .compress import gzip_response
from .config import WebConfig
from .context import EXTENSION, Companion
from .hub import Hub

__all__ = ["WebConfig", "create_app"]


def create_app(session: Session, config: WebConfig | None = None, table: Table | None = None,
               settings: companion_config.Config | None = None) -> Flask:
    """The web app of a session: live page ``/``, ``/history`` and the JSON API under /api.

    ``table`` is the running hardware table, if any (the host page's "Box" shows its status and
    names its unknown tags); ``settings`` the companion's config (default: the config files),
    which the host page's doctor checks and whose ``[web] hosts`` names the page may be reached
    by besides this machine's own (the ``Host`` allow-list, ``web.security``). The app
    subscribes to the session at once, so every event accepted from now on reaches the streams;
    call
    ``app.extensions["companion"].hub.close()`` to stop it.
    """
    config = config or WebConfig()
    settings = settings or companion_config.load()
    app = Flask(__name__)
    app.config.update(MAX_CONTENT_LENGTH=config.max_body, SECRET_KEY=secrets.token_bytes(32),
                      JSON_SORT_KEYS=False)
    app.json.ensure_ascii = False
    pins = PinStore(session.data_dir)
    app.extensions[EXTENSION] = Companion(
        session=session, config=config, hub=Hub(session, config.stream_backlog, config.streams,
                                               config.streams_per_address),
        pins=pins, hosts=HostSessions(pins, config.host_hours),
        limiter=LoginLimiter(config.login_attempts, config.login_window),
        simulator=Simulator(session, config.seed) if config.simulate else None,
        table=table, settings=settings, roles=RoleTokens(),
        setup=SetupCode(pins))
    for module in (api, box, definitions, host, history, openapi, pages, roles):
        app.register_blueprint(module.bp)
    app.after_request(host.attach_csrf)
    app.after_request(gzip_response)
    errors.install(app)
    security.install(app, (*config.hosts, *security.split_names(settings["web"]["hosts"])))
    return app
