"""Taps and keys per turn on the phones, each game played from the page, turn by turn.

Starts `companion run --simulate` on the loopback with a fresh data directory per game and
seed, and drives the page in Debian's chromium (Playwright) at 360 × 740, as the host would with
no camera and no card reader: the simulated table's Draw and Roll buttons stand for the card and
the dice (one tap, as a card swiped or a roll under the camera, counted apart as "sensor" and
left out of the targets), every other step is a tap on the page. Each tap is counted; a choice
from a list counts two (open it, pick); a text typed counts its characters as keys. The game is
set up over the API (not a turn). Each game is played with ``--seeds`` seeds of the simulated
table (default 10), so each kind of turn is played at least ten times; printed per game and
kind of turn: how many were played, taps and keys, median and maximum, and the target
(issue 39: a routine turn of any game ≤ 6 taps and 0 keys, a known card played in Last Heroes
≤ 4, an Attack on Titan round ≤ 8 on the table's phone and ≤ 3 on the Titan's; issue 17:
teaching a Last Bastion monster ≤ 8). ``--turns`` prints every turn too; ``TAPS_TRACE=1``
prints each tap's selector.

Last Bastion (Gary with Teagaan on the South board, Normal mode):
- teach: an unknown monster is drawn; the host teaches it on the spot ("Not in the list? Teach
  it": name, colour chip, resistance stepper) and draws it, then places it;
- fight: a hero turn: draw, place (a tap on a free slot, when the card may go on more than one:
  «un emplacement libre au choix», rulebook «Règles de placement des cartes Horde»), fight the
  card beside the hero (a tap on it), roll, confirm, end the turn; a question about a card's
  printed effect and a second card drawn (an arrival effect) are named after the turn;
- move+fight: the same with a move first (a tap on the tile), when the nearest card is one step
  away; end: no card within reach, the turn is ended;
- neutral: a neutral board's turn.
The package's cards, Corruption faces and boards whose printed text the companion does not know
are asked about ("nothing changed", a tap counted in the turn); "last-bastion-taught" plays the
same turns with a taught box (LB_TAUGHT: those taught, made up), as an owner's routine turn.
Runemasters (Kulak and Kyreas, Novice; the monsters' weak points taught with the set-up): a
guardian's turn: the Event card at a round's start, the monster that appears, the four runes,
each die that hits the monster in contact (one tap each), End the turn.
Last Heroes (the demo's box: its cards taught, its chargers loaded with the set-up): a weapon
card of a type the charger holds ammo for loaded from the pickers (its face, "Load it", the ammo
that pays), else a card into the charger as ammo; a monster the loaded weapons kill killed (one
tap: the weakest weapons that kill it); End the turn ("known card played" counts the play alone).
Attack on Titan (three heroes, the Basic Titan's untaught cards taught): a round, the game's
turn, on two phones, as tests/web/test_aot_round_taps.py plays it: the Titan commits its two
Action cards and uses its first ability on its own phone; the table rolls (the camera), counters
or suffers each card, moves and shoots once and ends the round.

    .venv/bin/python benchmarks/taps.py [GAME ...] [--seeds N] [--turns]
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request
from collections.abc import Callable
from http.cookiejar import CookieJar
from pathlib import Path

import playwright.sync_api as pw

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT), *(str(ROOT / "tests" / part) for part in
                             ("helpers", "games/runemasters", "web"))]
"""The project first (benchmarks/web.py is not the web package), then the tests' helpers."""
from demos import demo  # noqa: E402
from runemasters_helpers import TAUGHT  # noqa: E402  (the tests' made-up weak points)
from test_aot_round_taps import SETUP as AOT_SETUP  # noqa: E402
from test_aot_round_taps import TAUGHT as AOT_TAUGHT  # noqa: E402
from test_aot_round_taps import Phone as RoundPhone  # noqa: E402
from test_aot_round_taps import play_round  # noqa: E402

from companion.games.last_bastion.catalog import DATA as LB_DATA  # noqa: E402

CHROMIUM = "/usr/bin/chromium"
ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking",
        "--disable-component-update", "--disable-sync", "--no-first-run"]
PIN = "2468"
SETUP = {"type": "setup", "game": "last-bastion", "mode": "normal",
         "boards": {"N": "red", "E": "blue", "S": "yellow", "W": "green"},
         "players": [{"name": "Gary", "hero": "teagaan", "side": "S"}],
         "tiles": [["market", "tomb", "inn"], ["trebuchet", "fountain", "quarry"],
                   ["standard", "tower", "dispensary"]], "first": "S"}
LB_TAUGHT = [{"type": "teach", "kind": "card", "id": card, "definition": {
    **({"colour": "black"} if printed["colour"] is None else {}),
    **({"resistance": 4 if printed["type"] == "warlord" else 2}
       if printed["resistance"] is None else {}), "complete": True}}
    for card, printed in LB_DATA["card"].items() if not printed.get("complete", True)] + [
    {"type": "teach", "kind": kind, "id": item, "definition": {field: []}}
    for kind, field in (("corruption", "effects"), ("board", "full"))
    for item, printed in LB_DATA[kind].items() if field not in printed]
"""A taught box ("last-bastion-taught"): the owner has taught each card, Corruption face and
full board of the package whose printed text the companion does not know (made up: no effect
besides those the package knows, a colour and resistance where the package has none), so a
printed effect is applied by the companion, not asked about ("nothing happened", a tap) as with
the untaught package."""
TARGETS = {"last-heroes: known card played": 4, "aot-last-stand: round": 8,
           "aot-last-stand: round, the Titan's phone": 3, "last-bastion: teach": 8,
           "last-bastion-taught: teach": 8}
"""Issue 39: every game's routine turn in at most 6 taps and no key (the simulated table's rolls
and draws not counted), a known card played in Last Heroes in at most 4, an Attack on Titan round
in at most 8 on the table's phone and 3 on the Titan's; issue 17: teaching a monster in at most
8."""
TURNS = 6
SEEDS = 10
PHONE = {"width": 360, "height": 740}
SENSORS = ("button[data-act=roll]", "button[data-act=draw]")
"""The simulated table's buttons: each stands for a roll under the camera or a card swiped,
counted as a tap and also apart (with a camera and a card reader the phone is not touched)."""
OTHERS = 6
"""Any other turn: a routine turn."""
RM_SETUP = {"type": "setup", "game": "runemasters", "difficulty": "novice",
            "guardians": [{"guardian": "kulak", "path": "blue", "player": "Ann"},
                          {"guardian": "kyreas", "path": "red", "player": "Ben"}],
            "elder": "kulak", "definitions": TAUGHT}
"""Two guardians; the monsters' weak points and rewards taught with the set-up, as an owner
who has taught the box (they are not public: the tests' made-up ones, see
tests/games/runemasters/runemasters_helpers.py)."""
LH_OPENING = 7
"""The Last Heroes demo's set-up and its six charger cards (the opening, not a turn)."""


class Phone:
    """The host's page, counting taps and keystrokes."""

    def __init__(self, page: pw.Page) -> None:
        self.page, self.taps, self.keys, self.sensed = page, 0, 0, 0
        self.questions = self.draws = 0  # Last Bastion: printed effects asked, cards drawn
        self.trace: list[str] = []  # the taps since the last mark: each control, and why

    def version(self) -> int:
        return self.page.evaluate("app.busy.then(() => app.version)")

    def tap(self, selector: str, sends: bool = True) -> None:
        """One tap; with ``sends``, wait until the table has taken the event it sends."""
        before = self.version()
        control = self.page.locator(selector).first
        waits = self.page.evaluate("[app.pic.view.expects.kind, (app.pic.view.prompts || [])"
                                   ".map((p) => p.params.source).find(Boolean)]")
        self.trace.append(f"{selector} «{control.inner_text().strip()[:40]}» (the table waits "
                          f"for {waits[0]}{f', about {waits[1]}' if waits[1] else ''})")
        control.click()
        self.taps += 1
        self.sensed += selector in SENSORS
        if sends and not self.until(f"app.version > {before}"):
            said = self.page.evaluate("app.refusal && app.refusal.message")
            raise RuntimeError(f"{selector}: nothing happened ({said})")

    def until(self, expression: str, seconds: float = 5) -> bool:
        """Wait until ``expression`` holds in the page (polled: the page's CSP forbids the
        string functions of ``wait_for_function``)."""
        end = time.monotonic() + seconds
        while not self.page.evaluate(expression):
            if time.monotonic() > end:
                return False
            time.sleep(0.03)
        return True

    def type(self, selector: str, text: str) -> None:
        self.page.locator(selector).first.fill(text)
        self.keys += len(text)

    def mark(self) -> tuple[int, int, int, float]:
        """Where the counts stand now, to count a turn from (its trace starts afresh)."""
        self.trace = []
        return self.taps, self.keys, self.sensed, time.perf_counter()

    def since(self, start: tuple[int, int, int, float]) -> tuple[int, int, int, float]:
        """Taps, of them the simulated table's, keys and seconds since ``start`` (a mark)."""
        return (self.taps - start[0], self.sensed - start[2], self.keys - start[1],
                time.perf_counter() - start[3])

    def view(self) -> dict:
        """The table's view, once the page has sent everything a tap made it send."""
        return self.page.evaluate("app.busy.then(() => app.pic.view)")

    def turn(self) -> int:
        """The turn as the game numbers it (a neutral board's turn is one)."""
        return self.page.evaluate("app.pic.view.turn")

    def expects(self) -> dict:
        """What the table waits for, once the page has sent everything a tap made it send."""
        return self.page.evaluate("app.busy.then(() => app.pic.view.expects)")


def start_server(data: Path, seed: int) -> tuple[subprocess.Popen, str, str]:
    config = data.parent / "silent.toml"
    config.write_text('[speech]\nbackend = "silent"\n')
    process = subprocess.Popen(
        [sys.executable, "-m", "companion", "run", "--simulate", "--seed", str(seed), "--host",
         "127.0.0.1", "--port", "0", "--data-dir", str(data)], cwd=ROOT,
        stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
        env={**os.environ, "PYTHONUNBUFFERED": "1", "COMPANION_CONFIG": str(config)})
    url = process.stdout.readline().split()[-1]
    while "setup code " not in (line := process.stdout.readline()) and line:
        pass  # the first-run code it prints (and says), needed to choose the PIN
    return process, url, line.split("setup code ")[1][:6]


def api(url: str, code: str) -> Callable[[str, dict], dict]:
    """A logged-in HTTP host (first run: chooses the PIN with the setup code): posts a body to
    a path of the API and returns the answer."""
    opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(CookieJar()))
    csrf = {"token": ""}

    def post(path: str, body: dict) -> dict:
        request = urllib.request.Request(url + path, json.dumps(body).encode(), {
            "Content-Type": "application/json", "X-CSRF-Token": csrf["token"]})
        with opener.open(request, timeout=5) as reply:
            csrf["token"] = reply.headers.get("X-CSRF-Token") or csrf["token"]
            return json.loads(reply.read())

    post("api/pin", {"pin": PIN, "code": code})
    csrf["token"] = post("api/login", {"pin": PIN})["csrf"]
    return post


def place(phone: Phone) -> None:
    """Whatever the table waits for that is not the hero's choice: tap where the drawn card goes
    (on the board), the simulated Draw or Roll, the first hero asked to suffer an effect,
    Confirm, and "nothing changed" for a printed effect the companion does not know (the
    simulated table's cards have none); until the hero may act or the next turn begins."""
    turn = phone.turn()
    while (expects := phone.expects())["kind"] in ("choice", "card", "dice") and \
            phone.turn() == turn:
        if expects["kind"] == "card":
            phone.tap("button[data-act=draw]")
            phone.draws += 1
        elif expects["kind"] == "dice":
            phone.tap("button[data-act=roll]")
        elif "place" in expects["events"]:
            phone.tap(".slot.picked")
        elif "assign" in expects["events"]:
            phone.tap("button[data-act=assign]")
        elif "resolve" in expects["events"]:
            phone.tap("button[data-act=resolve]")
        elif expects.get("options"):
            phone.tap("button[data-act=answer]")
            phone.questions += 1
        else:
            phone.tap("button[data-act=answer-none]")
            phone.questions += 1


def teach(phone: Phone) -> None:
    phone.tap("details[data-details=new-card] > summary", sends=False)
    phone.type("form[data-form=new-card] input[name=name]", "Goule")
    phone.tap("form[data-form=new-card] label.pick:has(input[name=colour][value=yellow])",
              sends=False)
    for _ in range(2):
        phone.tap("form[data-form=new-card] button.step[data-by='1']", sends=False)
    phone.tap("form[data-form=new-card] button.strong")
    place(phone)


NEAREST_FIGHT = """() => {
  const cells = [...document.querySelectorAll('#board .grid > div')];
  const at = (e) => [Math.floor(cells.indexOf(e) / 5), cells.indexOf(e) % 5];
  const side = (a, b) => Math.abs(a[0] - b[0]) + Math.abs(a[1] - b[1]) === 1;
  const step = (a, b) => Math.max(Math.abs(a[0] - b[0]), Math.abs(a[1] - b[1])) === 1;
  const tile = app.pic.view.heroes[app.pic.view.active_hero].tile;
  const here = [tile[0] + 1, tile[1] + 1];
  const cards = cells.filter((e) => e.classList.contains('card'));
  const near = cards.find((c) => side(at(c), here));
  if (near) return {slot: near.dataset.slot};
  for (const t of cells.filter((e) => e.dataset.tile && step(at(e), here))) {
    const card = cards.find((c) => side(at(c), at(t)));
    if (card) return {tile: t.dataset.tile, slot: card.dataset.slot};
  }
  return null;
}"""
"""Where the hero fights from: a card beside their tile, else a tile one step away beside a card
(the Horde slots touch the edge tiles side by side, rulebook «Combattre»)."""


def hero_turn(phone: Phone) -> str:
    """Draw, place, then fight the nearest card (moving first if it is one step away), confirm
    the companion's suggestion and end the turn; return which kind of turn it was."""
    place(phone)
    return fight_and_end(phone)


def fight_and_end(phone: Phone) -> str:
    target = phone.page.evaluate(NEAREST_FIGHT)
    kind = "end"
    if target:
        if "tile" in target:
            phone.tap(f'[data-tile="{target["tile"]}"]')
        phone.tap(f'[data-slot="{target["slot"]}"]')
        place(phone)  # roll, confirm, and whatever the fight's outcome asks
        kind = "move+fight" if "tile" in target else "fight"
    if phone.expects()["kind"] == "action":
        phone.tap("button[data-act=end_turn]")
    return kind


def neutral_turns(phone: Phone, record: Record) -> None:
    while phone.page.evaluate("app.pic.view.neutral && app.pic.view.status === 'playing'"):
        start = phone.mark()
        place(phone)
        record("neutral", *phone.since(start))


def last_bastion(phone: Phone, record: Record, table: Table) -> None:
    """Teach a monster at its draw, then play hero turns and the neutral boards' turns."""
    start = phone.mark()
    teach(phone)
    record("teach", *phone.since(start))
    start = phone.mark()
    record(fight_and_end(phone) + " (after teaching)", *phone.since(start))
    for _ in range(TURNS):
        neutral_turns(phone, record)
        if phone.page.evaluate("app.pic.view.status") != "playing":
            break
        start, questions, draws = phone.mark(), phone.questions, phone.draws
        kind = hero_turn(phone)
        extra = [f"{n} card{'s' if n > 1 else ''} drawn" for n in [phone.draws - draws]
                 if n != 1]
        extra += [f"{n} question{'s' if n > 1 else ''}" for n in [phone.questions - questions]
                  if n]
        record(kind + (f" ({', '.join(extra)})" if extra else ""), *phone.since(start))


def runemasters(phone: Phone, record: Record, table: Table) -> None:
    """The three monsters of the set-up drawn (not a turn), then guardians' turns: the monster
    that appears (Draw), the four runes (Roll), each die that hits the monster in contact
    tapped once, End the turn. The Elder's Event card at a round's start counts in the turn."""
    while phone.page.evaluate("app.pic.view.phase") == "setup_monsters":
        phone.tap("button[data-act=draw]")
    for _ in range(TURNS):
        if phone.page.evaluate("app.pic.view.status") != "playing":
            break
        start = phone.mark()
        while (kind := phone.expects()["kind"]) in ("card", "dice", "choice"):
            phone.tap({"card": "button[data-act=draw]", "dice": "button[data-act=roll]",
                       "choice": "button[data-act=option]"}[kind])
        hits = 0
        while (hit := phone.page.evaluate(
                "app.pic.view.taps.findIndex((e) => e.type === 'hit')")) >= 0:
            phone.tap(f"button[data-act=tap][data-index='{hit}']")
            hits += 1
        phone.tap("button[data-act=event][data-event=end_turn]")
        record(f"guardian, {hits} hit{'s' if hits != 1 else ''}", *phone.since(start))


LH_CHIP = "#host button[data-act=lh][data-k={}]"
LH_SEND = "#host button[data-act=lh-send]"


def lh_pick(phone: Phone, key: str, value: str | None = None) -> None:
    """One of Last Heroes' picker chips: the first of ``key``, or the one of that value."""
    phone.tap(LH_CHIP.format(key) + ("" if value is None else f"[data-v='{value}']"),
              sends=False)


def lh_complete(phone: Phone) -> None:
    """Tap the first chip of each group still asked (an untaught cost or ammo, a charger slot,
    the weapons that pay) until the play can be sent, then send it."""
    for key in ("slot", "sources", "cost", "ammo", "light", "dark", "weapons"):
        if phone.page.locator(f"{LH_SEND}:not([disabled])").count():
            break
        chips = phone.page.locator(LH_CHIP.format(key))
        if chips.count() and not phone.page.locator(
                LH_CHIP.format(key) + "[aria-pressed=true]").count():
            lh_pick(phone, key)
    phone.tap(LH_SEND)


def last_heroes(phone: Phone, record: Record, table: Table) -> None:
    """The demo's box (its cards taught, its chargers loaded with the set-up), turns played
    from the page's pickers: a weapon card of a type the charger holds ammo for is loaded (its
    face, "Load it", the ammo that pays), else a card goes into the charger as ammo; a monster
    the loaded weapons kill is killed; End the turn. The simulated table draws the charger cards
    and the monsters that fill the voids (sensors)."""
    for _ in range(TURNS):
        while phone.page.evaluate("app.pic.view.phase") in ("charger", "refill"):
            phone.tap("button[data-act=draw]")
        if phone.page.evaluate("app.pic.view.status") != "playing":
            break
        start, view = phone.mark(), phone.view()
        loadable = {slot["type"] for p in view["players"] if p["hero"] == view["active"]
                    for slot in p["charger"].values() if slot and slot["ammo"] > 0}
        weapon = next((f for f in view["hand"] if f["type"] in loadable and
                       f["cost"] is not None), None)
        if weapon:
            lh_pick(phone, "card", weapon["card"])
            lh_pick(phone, "as", "weapon")
        else:
            lh_pick(phone, "card")
            lh_pick(phone, "as", "ammo")
        lh_complete(phone)
        record("known card played" if weapon else "card into the charger", *phone.since(start))
        killed = bool(phone.view()["kills"])
        if phone.page.locator("#host button[data-act=lh-kill]").count():
            phone.tap("#host button[data-act=lh-kill]")  # the weakest weapons that kill it
        elif killed:
            lh_pick(phone, "monster")
            lh_complete(phone)
        phone.tap("#host button[data-act=event][data-event=end_turn]")
        record("turn with a kill" if killed else "turn", *phone.since(start))


def attack_on_titan(phone: Phone, record: Record, table: Table) -> None:
    """Rounds played on two phones as tests/web/test_aot_round_taps.py plays them (the Titan
    commits its two Action cards and uses its first ability on its own phone; the table rolls,
    counters or suffers each card, moves and shoots once, ends the round), each phone's taps
    and keys counted apart. A round is the game's turn («Déroulement de la partie»)."""
    host = RoundPhone(table.browser, table.url, "en")
    log_in(host.page)
    link = table.post("api/role/titan", {})["link"]
    titan = RoundPhone(table.browser, table.url.rstrip("/") + link, "en")
    for _ in range(TURNS):
        if host.view()["status"] != "playing":
            break
        started, keys = time.perf_counter(), (host.keys(), titan.keys())
        table_taps, titan_taps = play_round(host, titan)
        seconds = time.perf_counter() - started
        record("round", table_taps, 0, host.keys() - keys[0], seconds)
        record("round, the Titan's phone", titan_taps, 0, titan.keys() - keys[1], seconds)


Record = Callable[[str, int, int, int, float], None]
"""Adds one turn's figures: its kind, taps (of them the simulated table's), keys, seconds."""


class Table:
    """The running companion a benchmark drives: its URL, the browser, and the host's API."""

    def __init__(self, url: str, browser: pw.Browser, post: Callable[[str, dict], dict]) -> None:
        self.url, self.browser, self.post = url, browser, post


GAMES = {"last-bastion": ([SETUP], last_bastion),
         "last-bastion-taught": ([SETUP, *LB_TAUGHT], last_bastion),
         "runemasters": ([RM_SETUP], runemasters),
         "last-heroes": (demo("last-heroes")[:LH_OPENING], last_heroes),
         "aot-last-stand": ([AOT_SETUP, *AOT_TAUGHT], attack_on_titan)}


def log_in(page: pw.Page) -> None:
    """The host logs in from the page with the PIN the API chose."""
    page.wait_for_selector("#conn[data-version]")
    page.click("#host-toggle")
    page.fill("input[name=pin]", PIN)
    page.locator("form[data-form=login] button").click()
    page.wait_for_selector("button[data-act=undo], #host")


def play(game: str, seed: int, results: list[tuple[str, int, int, int, float]]) -> None:
    """One server whose simulated table draws and rolls with ``seed``, the game set up over the
    API, the host's phone logged in; the game's scripted turns, each turn's taps (and of them
    the simulated table's), keys and seconds added to ``results``."""
    setup, driver = GAMES[game]
    with tempfile.TemporaryDirectory() as tmp:
        process, url, code = start_server(Path(tmp) / "data", seed)
        try:
            post = api(url, code)
            for event in setup:
                post("api/events", {"event": event})
            with pw.sync_playwright() as playwright:
                browser = playwright.chromium.launch(executable_path=CHROMIUM, args=ARGS)
                page = browser.new_context(viewport=PHONE).new_page()
                page.goto(url)
                phone = Phone(page)
                phone.until("app.pinSet !== null && app.version >= 1", 15)
                log_in(page)

                def record(kind: str, taps: int, sensed: int, keys: int, seconds: float) -> None:
                    results.append((f"{game}: {kind}", taps, sensed, keys, seconds))
                    if os.environ.get("TAPS_TRACE"):  # each tap of the turn, by its control
                        print(f"seed {seed}, {game}: {kind}, {taps} taps", *(
                            f"  {n}. {line}" for n, line in enumerate(phone.trace, 1)),
                            sep="\n", file=sys.stderr)

                driver(phone, record, Table(url, browser, post))
                browser.close()
        finally:
            process.terminate()
            process.communicate(timeout=10)


def kind_of(name: str) -> str:
    """A turn's kind without its details: "fight (2 cards drawn)" is a fight."""
    return name.split(" (")[0]


def summary(results: list[tuple[str, int, int, int, float]]) -> list[str]:
    """Per game and kind of turn: how many, the taps on the phone (the simulated table's rolls
    and draws not counted) and the keys, median and maximum, against the target."""
    groups: dict[str, list[tuple[int, int]]] = {}
    for name, taps, sensed, keys, _ in results:
        groups.setdefault(kind_of(name), []).append((taps - sensed, keys))
    lines = [f"{'game: turn':<46} {'n':>3} {'taps med/max':>13} {'keys med/max':>13}  target"]
    for name, rows in groups.items():
        taps, keys = [r[0] for r in rows], [r[1] for r in rows]
        target = TARGETS.get(name, OTHERS)
        lines.append(f"{name:<46} {len(rows):>3} {statistics.median(taps):>6g}/{max(taps):<6} "
                     f"{statistics.median(keys):>6g}/{max(keys):<6}  ≤ {target} taps, 0 keys")
    return lines


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("games", nargs="*", help=f"of {', '.join(GAMES)} (default: all)")
    parser.add_argument("--seeds", type=int, default=SEEDS,
                        help=f"games played per game, each with its own seed (default {SEEDS})")
    parser.add_argument("--turns", action="store_true", help="print every turn, not only the "
                        "summary")
    options = parser.parse_args()
    unknown = sorted(set(options.games) - set(GAMES))
    if unknown:
        parser.error(f"unknown game {', '.join(unknown)}; the games: {', '.join(GAMES)}")
    results: list[tuple[str, int, int, int, float]] = []
    stopped = []  # a game the script could not finish: what stopped it
    for game in options.games or list(GAMES):
        for seed in range(1, options.seeds + 1):
            try:
                play(game, seed, results)
            except (AssertionError, RuntimeError, pw.Error) as error:  # pw: a control gone
                stopped.append(f"{game}, seed {seed}: {str(error)[:300]}")
    if options.turns:
        print(f"{'turn':<50} {'taps':>5} {'sensor':>6} {'keys':>5} {'seconds':>8}")
        for name, taps, sensed, keys, seconds in results:
            print(f"{name:<50} {taps:>5} {sensed:>6} {keys:>5} {seconds:>8.2f}")
    print("\n".join(summary(results)))
    for line in stopped:
        print("stopped:", line)
    return 1 if stopped else 0


if __name__ == "__main__":
    sys.exit(main())
