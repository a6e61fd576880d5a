"""A seeded walk of every game on a 360 × 740 and a 430 × 932 phone, in a real browser (issue 39,
items 2, 5, 6).

From a fresh data directory the host sets the game up from the page's own form, then plays:
at each step every control the page offers (the host's box, Undo, the board's tiles and
slots) is tapped, the request it sends caught before it leaves and submitted to a throwaway
copy of the table (:class:`walktools.TableCopy`): a refusal there is a control offered that the
rules do not take (goal 0). Every text the phone shows, in every language (English, French,
Spanish: issue 44), is scanned for a raw key, an unfilled ``{…}``, a Python or JSON repr, a
command line, "undefined", "null", "[object" and a word of another language; no page may be
wider than the screen. The walk goes on with one of the accepted controls, drawn by a seeded
random generator (the simulated table rolls and draws when the game waits for it), for the
phone's number of steps or to the end of the game. The small phone is set up in English, the
large one in French (each step is read in every language).

The findings are listed per game, step by step, in the failure message.
"""

from __future__ import annotations

import json
import random
import time
import urllib.request

import pytest
from test_e2e import ApiHost, at_version, become_host, browser, server  # noqa: F401
from walk_aot import other_phones
from walk_lh import SEATS, Composer, composes, reached, steer
from walktools import (
    PAGE_TEXTS,
    WIDE,
    TableCopy,
    catalog_keys,
    foreign_words,
    language_names,
    printed_names,
    word_findings,
)

from companion.i18n import LANGUAGES

PHONES = [pytest.param(({"width": 360, "height": 740}, "en", 12), id="360-en"),
          pytest.param(({"width": 430, "height": 932}, "fr", 4), id="430-fr")]
"""Each phone: its viewport, the language the host sets the game up in, and how many steps it
walks (the large one fewer: the small one finds what is too wide, and CI time is short)."""
GAMES = ["last-bastion", "runemasters", "aot-last-stand", "last-heroes"]
"""Issue 39 asks this walk of every game (the Titan's phone is opened from its role link, Last
Heroes' plays are composed from their chips: walk_aot.py, walk_lh.py)."""
SEED = 5
NAMES = ["Ann", "Ben", "Cleo", "Dan"]
"""What the host types where the set-up form asks a name."""

CONTROLS = """(act) => {
  const seen = (e) => !e.closest('[hidden], details:not([open]) > :not(summary)') &&
    e.getClientRects().length > 0 && !e.disabled;
  const sig = (e) => [e.tagName, e.textContent.trim().slice(0, 40), e.getAttribute('aria-label'),
    ...Object.entries(e.dataset).map(([k, v]) => k + '=' + v),
    (e.closest('form[data-form]') || {dataset: {}}).dataset.event || ''].join('|');
  const all = [...document.querySelectorAll('#undo-slot button, #host button, ' +
    '#host input[type=radio][data-act], ' +
    '#host [data-tile], #host [data-slot], #board [data-tile], #board [data-slot], ' +
    '#role button, #role label.pick')].filter(seen);
  if (act === null) return all.map(sig);
  const el = all.find((e) => sig(e) === act);
  if (el) el.click();
  return new Promise((r) => setTimeout(r, 30)).then(() => app.busy).then(() => Boolean(el));
}"""

CAUGHT = ["**/api/events", "**/api/simulate/*", "**/api/role/events"]


def version_of(url: str) -> dict:
    with urllib.request.urlopen(url + "api/state") as reply:
        return json.loads(reply.read())


def idle(url: str, quiet: float = 0.4, timeout: float = 10.0) -> dict:
    """The server's state once its version has stayed the same for ``quiet`` seconds."""
    deadline = time.monotonic() + timeout
    state, since = version_of(url), time.monotonic()
    while time.monotonic() < deadline:
        time.sleep(0.1)
        now = version_of(url)
        if now["version"] != state["version"]:
            state, since = now, time.monotonic()
        elif time.monotonic() - since >= quiet:
            return now
    return state


def set_up(page, url: str, game: str, timeout: float = 10.0) -> None:
    """The game's own set-up form as a new host fills it: the defaults, and a name in each
    player's name field (in the first ones, for a game that seats fewer: ``SEATS``); sent,
    and the game set up awaited for up to ``timeout`` seconds (on a loaded machine the
    request reached the server after the walk's first look, which took it for refused)."""
    page.select_option("select[name=game-choice]", game)
    form = page.locator(f"form[data-form=setup][data-game={game}]")
    form.wait_for()
    named = form.locator("input[name*=name], input[name*=player]").all()[:SEATS.get(game)]
    for i, field in enumerate(named):
        if not field.input_value():
            field.fill(NAMES[i % len(NAMES)])
    form.locator("button:not([type=button])").last.click()
    deadline = time.monotonic() + timeout
    while version_of(url)["version"] == 0 and time.monotonic() < deadline:
        time.sleep(0.1)


class Walk:
    """One game's walk: the page, the copy, the findings by step."""

    def __init__(self, page, url: str, copy: TableCopy, game: str, width: int) -> None:
        self.page, self.url, self.copy, self.game, self.width = page, url, copy, game, width
        self.phones = [page]
        self.findings: list[str] = []
        self.keys = catalog_keys(game)
        self.foreign = foreign_words(game)
        self.allowed = set(NAMES) | printed_names(game) | language_names()
        self.refused = 0
        self.step = 0
        self.watch(page)

    def watch(self, page) -> None:
        """A phone of the walk (the host's, a secret role's): its errors are findings."""
        if page not in self.phones:
            self.phones.append(page)
        page.on("pageerror", lambda error: self.note(self.step, f"page error: {error}"))

    def note(self, step: int, what: str) -> None:
        self.findings.append(f"step {step}: {what}")

    def scan(self, step: int) -> None:
        """The texts and width of each phone in each language, the switch going round them."""
        for page in self.phones:
            for _ in LANGUAGES:
                lang = page.evaluate("app.lang")
                texts = page.evaluate(PAGE_TEXTS)
                for found in word_findings(texts, lang, self.keys, self.foreign[lang],
                                           self.allowed):
                    self.note(step, f"[{lang}] {found}")
                wide = page.evaluate(WIDE)
                if wide["width"] > self.width:
                    self.note(step, f"[{lang}] the page is {wide['width']} px wide: "
                                    f"{wide['wide']}")
                page.locator("#lang-switch").click()

    def try_controls(self, step: int, version: int) -> list[tuple[str, dict]]:
        """Tap every control each phone offers, each request caught and tried on the copy;
        the requests the copy took (one per control)."""
        self.copy.take()
        accepted: dict[str, tuple[str, dict]] = {}
        tried: dict[str, list[str]] = {}
        for page in self.phones:
            self._try_phone(page, step, version, accepted, tried)
        return list(accepted.values())

    def _try_phone(self, page, step: int, version: int, accepted: dict, tried: dict) -> None:
        caught: list[tuple[str, dict]] = []

        def catch(route) -> None:
            request = route.request
            caught.append((request.url, json.loads(request.post_data or "{}")))
            route.fulfill(status=200, content_type="application/json",
                          body=json.dumps({"version": version}))

        for pattern in CAUGHT:
            page.route(pattern, catch)
        done: set[str] = set()

        def sent(control: str, tap) -> None:
            caught.clear()
            tap()
            if not caught:
                return  # a control of the page itself (a mode, a die face): nothing sent
            key = json.dumps([(u.rsplit("/api/", 1)[1], b.get("event")) for u, b in caught])
            if key not in tried:
                tried[key] = self.copy.refusals(list(caught))
            if tried[key]:
                self.refused += 1
                self.note(step, f"offered but refused: {control.split('|')[1]!r} "
                                f"sent {key[:200]} -> {tried[key]}")
            else:
                accepted[key] = caught[-1]

        for _ in range(60):
            todo = [c for c in page.evaluate(CONTROLS, None)
                    if c not in done and not composes(c)]
            if not todo:
                break
            control = todo[0]
            done.add(control)
            sent(control, lambda c=control: page.evaluate(CONTROLS, c))
        Composer(page, lambda label, tap: sent("|" + label, tap),
                 lambda what: self.note(step, what),
                 (self.keys, self.foreign, self.allowed)).all()  # Last Heroes' chips and Send
        for pattern in CAUGHT:
            page.unroute(pattern)


@pytest.mark.parametrize("phone", PHONES)
@pytest.mark.parametrize("game", GAMES)
def test_a_seeded_walk_offers_only_what_the_rules_take_in_words_that_fit(
        browser, server, tmp_path, game, phone):  # noqa: F811
    viewport, lang, steps = phone
    page = browser.new_context(viewport=viewport).new_page()
    page.goto(server.url)
    become_host(page)
    if page.evaluate("app.lang") != lang:
        page.locator("#lang-switch").click()
    copy = TableCopy(tmp_path / "data", SEED)  # the server fixture's data directory
    walk = Walk(page, server.url, copy, game, viewport["width"])
    rng = random.Random(SEED)
    api = ApiHost(server.url)
    made: list[dict] = []
    try:
        walk.scan(0)
        set_up(page, server.url, game)
        for step in range(1, steps + 1):
            walk.step = step
            state = idle(server.url)
            for each in walk.phones:
                at_version(each, state["version"])
            if state["version"] == 0:
                walk.note(step, "the set-up form with a name for each player is refused: " +
                          page.locator("#toast").inner_text())
                break
            if step == 1:
                for other in other_phones(browser, server.url, game, viewport):
                    walk.watch(other)
                    at_version(other, state["version"])
            walk.scan(step)
            if state["view"].get("status", "playing") != "playing":
                break
            accepted = walk.try_controls(step, state["version"])
            moves = [(u, b) for u, b in accepted if (b.get("event") or {}).get("type") != "undo"]
            if not moves:
                walk.note(step, "no control the rules take is offered: "
                                f"{json.dumps(state['view']['expects'])[:300]} awaited, "
                                f"{state['texts']} said, the page shows "
                                f"{page.evaluate(CONTROLS, None)}")
                break
            url, body = rng.choice(sorted(steer(game, state["view"], moves), key=json.dumps))
            if "/api/simulate/" in url:
                api._post("api/simulate/" + url.rsplit("/", 1)[1], {})
            else:
                api.send(body["event"])
                made.append(body["event"])
        assert not walk.findings, (f"{game}: {len(walk.findings)} findings, {walk.refused} "
                                   "refusals\n" + "\n".join(walk.findings))
        assert not reached(game, walk.step, made), reached(game, walk.step, made)
    finally:
        copy.close()
