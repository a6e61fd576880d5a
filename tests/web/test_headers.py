"""Issue 12, finding 7: security headers, the Host allow-list (DNS rebinding), and (with
finding 4's tests) non-ASCII digits refused as a PIN.

The page itself is checked under its Content-Security-Policy in a real browser by the e2e tests
(``test_e2e.py``: no CSP violation in the console).
"""

from __future__ import annotations

import socket

import pytest

from companion import config as companion_config
from web import WebConfig, create_app
from web.security import HostNames, split_names


@pytest.mark.parametrize("path", ["/", "/api/state", "/history", "/static/app.js",
                                  "/api/nothing"])
def test_every_answer_carries_the_security_headers(viewer, path):
    headers = viewer.get(path).headers
    csp = headers["Content-Security-Policy"]
    assert "script-src 'self'" in csp and "'unsafe-inline'" not in csp
    assert "frame-ancestors 'none'" in csp
    assert headers["X-Frame-Options"] == "DENY"
    assert headers["X-Content-Type-Options"] == "nosniff"
    assert headers["Referrer-Policy"] == "no-referrer"


def test_the_page_has_no_inline_script(viewer):
    page = viewer.get("/").get_data(as_text=True)
    scripts = page.split("<script")[1:]
    assert scripts and all(' src="' in s.split(">")[0] or 'type="application/json"' in
                           s.split(">")[0] for s in scripts)
    assert " style=" not in page and " on" + "click=" not in page


@pytest.mark.parametrize("host", ["evil.example", "evil.example:8000", "companion.local.evil",
                                  "203.0.113.9", "[2001:db8::1]:8000", "companion-x.local"])
def test_other_hosts_are_refused(app, session, host):
    client = app.test_client()
    before = session.journal_entries()
    response = client.get("/api/state", headers={"Host": host})
    assert response.status_code == 400 and response.json["error"] == "request.bad_host"
    assert host.split(":")[0].strip("[") in response.json["message"]
    assert client.get("/?lang=fr", headers={"Host": host}).status_code == 400
    assert session.journal_entries() == before


@pytest.mark.parametrize("host", ["localhost", "localhost:8000", "127.0.0.1:8000", "[::1]:80",
                                  "companion.local", "COMPANION-2.local:8000", "127.1.2.3",
                                  socket.gethostname(), socket.gethostname() + ".local"])
def test_this_machine_names_are_accepted(app, host):
    assert app.test_client().get("/api/state", headers={"Host": host}).status_code == 200


def test_an_address_of_this_machine_is_accepted():
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
        probe.connect(("192.0.2.1", 9))  # no packet is sent: this picks the outgoing address
        own = probe.getsockname()[0]
    names = HostNames()
    assert names.allowed(f"{own}:8000")
    assert not names.allowed("192.0.2.1:8000")


def test_configured_names_are_accepted(session, tmp_path):
    conf = tmp_path / "c.toml"
    conf.write_text('[web]\nhosts = "table.lan, Games.Home."\n')
    settings = companion_config.load([conf])
    assert not settings.problems
    names = split_names(settings["web"]["hosts"])  # what companion run gives the web
    app = create_app(session, WebConfig(hosts=(*names, "pi.example")))
    try:
        client = app.test_client()
        for host in ("table.lan:8000", "games.home", "pi.example"):
            assert client.get("/api/state", headers={"Host": host}).status_code == 200
        assert client.get("/api/state", headers={"Host": "other.lan"}).status_code == 400
    finally:
        app.extensions["companion"].hub.close()
