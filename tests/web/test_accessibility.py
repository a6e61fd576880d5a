"""No serious or critical accessibility finding (axe-core, injected by Playwright) on the viewer's
page, the host's controls at each kind of decision, and the history page (issue 17).

axe-core comes from the npm registry, pinned in tests/web/axe/package-lock.json (`.ci/run`:
``npm ci --prefix tests/web/axe``)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from test_e2e import ApiHost, at_version, become_host, browser, phone, server  # noqa: F401
from webtools import GAME_SETUPS, setup_event

AXE = Path(__file__).with_name("axe") / "node_modules" / "axe-core" / "axe.min.js"
if not AXE.exists():  # a missing tool is a broken machine, never a silent skip
    raise RuntimeError("axe-core is not installed: npm ci --prefix tests/web/axe (.ci/run does it)")

INCUBE = {"type": "card", "id": "incube", "slot": "red.0", "define": {"complete": True}}


def findings(page) -> list[dict]:
    """axe's serious and critical violations on the page as it is now (both colour schemes are
    the browser's light one here)."""
    page.evaluate(AXE.read_text(encoding="utf-8"))  # not a <script>: the page's CSP refuses those
    result = page.evaluate("""async () => (await axe.run(document, {resultTypes: ['violations']}))
        .violations.filter((v) => ['serious', 'critical'].includes(v.impact))
        .map((v) => ({id: v.id, impact: v.impact, help: v.help,
                      nodes: v.nodes.slice(0, 3).map((n) => n.target.join(' '))}))""")
    return result


def clean(page, where: str) -> None:
    found = findings(page)
    assert not found, f"{where}: " + json.dumps(found, indent=1)


def test_the_viewers_page(browser, server):  # noqa: F811
    page = phone(browser, server.url)
    at_version(page, 0)
    clean(page, "no game")


@pytest.mark.parametrize("game", ["last-bastion", "runemasters", "aot-last-stand",
                                  "last-heroes"])
def test_viewer_and_host_pages_of_each_game(browser, server, game):  # noqa: F811
    page = phone(browser, server.url)
    become_host(page)
    clean(page, "host, new game form")
    api = ApiHost(server.url)
    at_version(page, api.send(setup_event() if game == "last-bastion" else GAME_SETUPS[game]))
    clean(page, f"{game}: host, first decision")
    page.locator("#host-more details").first.locator("summary").click()
    clean(page, f"{game}: host, more controls")
    viewer = phone(browser, server.url)
    at_version(viewer, page.evaluate("app.version"))
    clean(viewer, f"{game}: viewer")


def test_last_bastion_decisions_and_the_history_page(browser, server):  # noqa: F811
    page = phone(browser, server.url)
    become_host(page)
    api = ApiHost(server.url)
    at_version(page, api.send(setup_event(), INCUBE))
    clean(page, "hero phase")
    at_version(page, api.send({"type": "move", "hero": "teagaan", "to": [0, 0]},
                              {"type": "fight", "targets": ["red.0"]}))
    clean(page, "dice to tap, combat helper")
    at_version(page, api.send({"type": "dice", "faces": ["red", "green", "blue"]}))
    clean(page, "result to confirm")
    history = page.context.new_page()
    history.goto(server.url + "history")
    clean(history, "history")
