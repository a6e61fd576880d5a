"""Issue 12, finding 5: the whole API fuzzed from its own OpenAPI document by schemathesis.

A real ``companion run`` on the loopback; every operation of ``/api/openapi.json`` (the endless
``/api/stream`` aside: tests/web/test_stream*.py) gets bounded generated requests, valid and
invalid, first as the logged-in host (cookie and the rotating CSRF token), then as a viewer.
Each answer must not be a 5xx and must match the document (status, content type, body schema);
the viewer's requests must change nothing: the journal's version, the PIN and the host sessions
stay as they were.
"""

from __future__ import annotations

import hashlib

import pytest
import requests
import schemathesis
from hypothesis import HealthCheck, given, settings
from schemathesis.checks import not_a_server_error
from schemathesis.specs.openapi.checks import (
    content_type_conformance,
    response_schema_conformance,
    status_code_conformance,
)
from webtools import PIN, RunningServer, setup_event

from web.auth import PinStore

CHECKS = [not_a_server_error, status_code_conformance, content_type_conformance,
          response_schema_conformance]
EXAMPLES = settings(max_examples=12, deadline=None, derandomize=True,
                    suppress_health_check=list(HealthCheck))


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    data = tmp_path_factory.mktemp("fuzz") / "data"
    PinStore(data).set(PIN)
    running = RunningServer(data)
    yield running
    running.stop()


class HostSession(requests.Session):
    """A logged-in host: the cookie in the jar, the CSRF token of the last answer on every
    request."""

    def __init__(self, url: str) -> None:
        super().__init__()
        self.url = url
        reply = super().request("POST", url + "api/login", json={"pin": PIN})
        assert reply.status_code == 200, reply.text
        self.csrf = reply.json()["csrf"]

    def request(self, method, url, *args, **kwargs):  # noqa: ANN001, ANN201
        kwargs["headers"] = {**(kwargs.get("headers") or {}), "X-CSRF-Token": self.csrf}
        reply = super().request(method, url, *args, **kwargs)
        self.csrf = reply.headers.get("X-CSRF-Token") or self.csrf
        return reply


@pytest.fixture(scope="module")
def host(server) -> HostSession:
    session = HostSession(server.url)
    assert session.post(server.url + "api/events", json={"event": setup_event()}).ok
    return session


def operations(server) -> list:
    """Every operation of the served document but the endless stream."""
    document = schemathesis.openapi.from_url(server.url + "api/openapi.json")
    found = [result.ok() for result in document.get_all_operations()]
    return [op for op in found if op.path != "/api/stream"]


def fuzz(server, check) -> list[str]:
    """Run ``check(case)`` on bounded generated cases of every operation; the failures."""
    failures: list[str] = []
    for operation in operations(server):

        @given(case=operation.as_strategy())
        @EXAMPLES
        def run(case) -> None:
            check(case)

        try:
            run()
        except (KeyboardInterrupt, SystemExit):
            raise
        except BaseException as error:  # noqa: BLE001 - schemathesis' groups of failures too
            failures.append(f"{operation.method.upper()} {operation.path}: {error}")
    return failures


def test_as_host_no_5xx_and_answers_match_the_document(server, host):
    def check(case) -> None:
        if case.operation.path in ("/api/logout", "/api/sessions/revoke"):
            return  # the host's session must last the run (both are tested in test_pin.py)
        response = case.call(base_url=server.url.rstrip("/"), session=host)
        case.validate_response(response, checks=CHECKS)

    failures = fuzz(server, check)
    assert not failures, "\n\n".join(failures)


def fingerprint(server) -> tuple:
    """What a viewer must not change: the version, the PIN file, the host sessions file."""
    version = requests.get(server.url + "api/state", timeout=5).json()["version"]
    files = [server.data_dir / "web" / name for name in ("host-pin.json", "host-sessions.json")]
    return version, *(hashlib.sha256(f.read_bytes()).hexdigest() for f in files)


def test_as_viewer_no_5xx_and_nothing_changes(server, host):
    before = fingerprint(server)

    def check(case) -> None:
        response = case.call(base_url=server.url.rstrip("/"))
        case.validate_response(response, checks=CHECKS)
        method, path = case.operation.method.upper(), case.operation.path
        assert response.status_code >= 400 or method == "GET" or path == "/api/login", \
            f"{method} {path} was accepted from a viewer"
        assert fingerprint(server) == before, f"{method} {path} changed something"

    failures = fuzz(server, check)
    assert not failures, "\n\n".join(failures)
