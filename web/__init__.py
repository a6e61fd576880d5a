"""The phone dashboard and host controls: a Flask app over one Session.

``create_app(session, config, box=...)`` builds the app; ``companion run`` (companion/app.py) wires
it to the table and serves it with :func:`web.server.serve`. See docs/web.md.
"""

from __future__ import annotations

import secrets

from flask import Flask

from companion.engine import Session
from companion.simulator import Simulator

from . import api, definitions, dice, errors, history, host, link, openapi, pages, preview, roles
from .auth import HostSessions, LoginLimiter, PinStore, RoleTokens, SetupCode
from .box import bp as box_bp
from .compress import gzip_response
from .config import WebConfig
from .context import EXTENSION, Box, Companion, NoBox
from .hub import Hub
from .security import install as install_security

__all__ = ["Box", "WebConfig", "create_app"]


def create_app(session: Session, config: WebConfig | None = None,
               box: Box | None = None) -> Flask:
    """The web app of a session: live page ``/``, ``/history`` and the JSON API under /api.

    ``box`` is what the host page's "Box" shows and asks (the sensors' status, the doctor's
    checks, naming an unknown tag); without one, no sensor runs. The app subscribes to the
    session at once, so every event accepted from now on reaches the streams; call
    ``app.extensions["companion"].hub.close()`` to stop it. ``config.hosts`` names the page may
    be reached by besides this machine's own (the ``Host`` allow-list, ``web.security``).
    """
    config = config or WebConfig()
    app = Flask(__name__)
    app.config.update(MAX_CONTENT_LENGTH=config.max_body, SECRET_KEY=secrets.token_bytes(32),
                      JSON_SORT_KEYS=False)
    app.json.ensure_ascii = False
    pins = PinStore(session.data_dir)
    app.extensions[EXTENSION] = Companion(
        session=session, config=config,
        hub=Hub(session, config.stream_backlog, config.streams, config.streams_per_address),
        pins=pins, hosts=HostSessions(pins, config.host_hours, session.paths.host_sessions),
        limiter=LoginLimiter(config.login_attempts, config.login_window),
        simulator=Simulator(session, config.seed) if config.simulate else None,
        box=box or NoBox(), roles=RoleTokens(), setup=SetupCode(pins))
    for module in (api, definitions, dice, host, history, link, openapi, pages, preview, roles):
        app.register_blueprint(module.bp)
    app.register_blueprint(box_bp)
    app.after_request(host.attach_csrf)
    app.after_request(gzip_response)
    errors.install(app)
    install_security(app, config.hosts)
    return app
