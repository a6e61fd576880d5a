"""Fixtures for the web tests: an app over a fresh session, viewers and logged-in hosts.

pytest puts ``tests/`` on ``sys.path``, where this folder would pass for the ``web`` package:
the repository root goes first so that ``import web`` is the real one (as in tests/vision).
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

import pytest  # noqa: E402
from webtools import Host, login, setup_event  # noqa: E402

from companion.engine import Session  # noqa: E402
from web import WebConfig, create_app  # noqa: E402


@pytest.fixture
def session(tmp_path: Path) -> Session:
    s = Session(tmp_path / "data")
    yield s
    s.close()


@pytest.fixture
def app(session: Session):
    application = create_app(session, WebConfig(simulate=True, seed=7, login_attempts=3))
    yield application
    application.extensions["companion"].hub.close()


@pytest.fixture
def viewer(app):
    return app.test_client()


@pytest.fixture
def host(app) -> Host:
    return login(app)


@pytest.fixture
def playing(host: Host) -> Host:
    """A host whose table has a game set up."""
    assert host.send(setup_event()).status_code == 200
    return host
