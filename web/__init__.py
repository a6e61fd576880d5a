"""The phone dashboard and host controls: a Flask app over one Session.

``create_app(session, config)`` builds the app; ``web.cli`` serves it with a production WSGI
server (``companion run``). See docs/web.md.
"""

from __future__ import annotations

import secrets

from flask import Flask

from companion.engine import Session
from companion.simulator import Simulator

from . import api, errors, history, host, openapi, pages
from .auth import HostSessions, LoginLimiter, PinStore
from .config import WebConfig
from .context import EXTENSION, Companion
from .hub import Hub

__all__ = ["WebConfig", "create_app"]


def create_app(session: Session, config: WebConfig | None = None) -> Flask:
    """The web app of a session: live page ``/``, ``/history`` and the JSON API under /api.

    It subscribes to the session at once, so every event accepted from now on reaches the
    streams; call ``app.extensions["companion"].hub.close()`` to stop it.
    """
    config = config or WebConfig()
    app = Flask(__name__)
    app.config.update(MAX_CONTENT_LENGTH=config.max_body, SECRET_KEY=secrets.token_bytes(32),
                      JSON_SORT_KEYS=False)
    app.json.ensure_ascii = False
    pins = PinStore(session.data_dir)
    app.extensions[EXTENSION] = Companion(
        session=session, config=config, hub=Hub(session, config.stream_backlog),
        pins=pins, hosts=HostSessions(pins, config.host_hours),
        limiter=LoginLimiter(config.login_attempts, config.login_window),
        simulator=Simulator(session, config.seed) if config.simulate else None)
    for module in (api, host, history, openapi, pages):
        app.register_blueprint(module.bp)
    app.after_request(host.attach_csrf)
    errors.install(app)
    return app
