"""The seeded walk's composing step for Last Heroes (tests/web/test_walk.py, issue 39 item 2).

A Last Heroes play is not one control but several chips (the card, how it is played, the ammo
slots, a monster, its impacts...) and a Send, as a player composes it on the page. The walk
composes plays as a player would: it taps a chip nobody tried yet, then the first chip of every
other group still empty (a chip not yet tried first), until Send may be tapped; Send's request is
then caught and tried on the table's copy like any other control. It goes on while a play taps
a chip never tried in this phase of the game, so that every chip offered is part of at least one
play the rules judge.
A play that cannot be finished (a chip that leads nowhere: Send stays disabled with nothing left
to pick) is a finding. Each screen composed is scanned too: its words and its width.

The walk seats three players (the fewest the rules take: six charger cards, then the turns) and
is steered toward a weapon loaded and a kill, so that the screens after a kill are reached and
scanned within the walk's steps (:func:`steer`).
"""

from __future__ import annotations

from collections.abc import Callable
from weakref import WeakKeyDictionary

from walktools import PAGE_TEXTS, WIDE, word_findings

CHIPS = """() => {
  const seen = (e) => !e.closest('[hidden], details:not([open]) > :not(summary)') &&
    e.getClientRects().length > 0 && !e.disabled;
  for (const d of document.querySelectorAll('#host details[data-details^="lh-"]:not([open])')) {
    d.open = true;  // a folded play (the Swap) is offered by a tap on its title
  }
  return {chips: [...document.querySelectorAll('#host button[data-act=lh]')].filter(seen)
    .map((e) => ({k: e.dataset.k, v: e.dataset.v, text: e.textContent.trim().slice(0, 30),
      look: e.getAttribute('aria-label') || e.textContent.trim(),
      pressed: e.getAttribute('aria-pressed') === 'true'})),
    ready: [...document.querySelectorAll('#host button[data-act=lh-send]')].some(seen),
    named: Boolean(document.querySelector('#host input[name=lh-name]'))};
}"""

TAP = """([k, v]) => {
  const el = [...document.querySelectorAll('#host button[data-act=' + (k ? 'lh' : 'lh-send') +
    ']')].find((e) => !k || (e.dataset.k === k && e.dataset.v === v));
  if (el) el.click();  // a chip redraws the box at once (its chips are returned); Send posts
  return k ? (CHIPS)() : new Promise((r) => setTimeout(r, 30)).then(() => app.busy)
    .then(() => Boolean(el));
}""".replace("CHIPS", CHIPS)

NEW_MONSTER = "Goule des cryptes"
"""What the walk types where a void waits for a monster new to the table: its printed name."""

TRIED: WeakKeyDictionary = WeakKeyDictionary()
"""By page, then by phase of the game: the chips tried in plays sent. A chip tried at an earlier
step of the same phase is not the first of a play again (the ten charger cards of a table drew
the same fifteen faces ten times over): each step still sends one play at least."""

SEATS = {"last-heroes": 3}
"""How many players the walk seats, by game (every seat of the form when not named here)."""

MULTI = {"sources", "weapons", "light", "dark"}
"""Groups of chips that take several picks (the ammo slots paying a weapon, the weapons of a
kill, the impacts it asks): a player taps one more while Send waits."""

SKIPPED = {"clear"}
"""Chip values that take a pick back (the ✕ of the impacts): no play of their own."""

ROUNDS = 40


def composes(control: str) -> bool:
    """Whether a control of the walk's scan is one this module taps (a chip, Send)."""
    return "|act=lh|" in control or "|act=lh-send|" in control


class Composer:
    """The plays composed on one page at one step of the walk.

    ``sent(label, tap)`` is the walk's own judge: it calls ``tap`` (which taps Send), then tries
    what the tap sent on the table's copy. ``note`` records a finding of this step."""

    def __init__(self, page, sent: Callable[[str, Callable[[], None]], None],
                 note: Callable[[str], None], words: tuple) -> None:
        self.page, self.sent, self.note, self.words = page, sent, note, words
        phase = page.evaluate("app.pic && app.pic.view.phase") or ""
        self.tried: set[tuple[str, str]] = TRIED.setdefault(page, {}).setdefault(phase, set())
        """The chips tried in this phase of the game, at this step or an earlier one, by what a
        player sees (two cards of the same face are one choice)."""
        self.plays = 0
        self.screens: set[tuple[str, ...]] = set()
        """The screens scanned, by the groups of chips picked (one card or another: one screen)."""

    def state(self) -> dict:
        return self.page.evaluate(CHIPS)

    def tap(self, chip: dict) -> dict:
        """Tap a chip; the chips offered then."""
        self.tried.add((chip["k"], chip["look"]))
        return self.page.evaluate(TAP, [chip["k"], chip["v"]])

    def look(self, label: str) -> None:
        """The screen composed: no word that should not be there, nothing past the edge."""
        lang = self.page.evaluate("app.lang")
        keys, foreign, allowed = self.words
        for found in word_findings(self.page.evaluate(PAGE_TEXTS), lang, keys, foreign[lang],
                                   allowed):
            self.note(f"[{lang}] composing {label}: {found}")
        wide = self.page.evaluate(WIDE)
        if wide["width"] > self.page.viewport_size["width"]:
            self.note(f"[{lang}] composing {label}: the page is {wide['width']} px wide: "
                      f"{wide['wide']}")

    def play(self) -> bool:
        """One play composed and sent; whether it tapped a chip never tried before."""
        state = self.state()
        offered = [c for c in state["chips"] if not c["pressed"] and c["v"] not in SKIPPED]
        first = [c for c in offered if (c["k"], c["look"]) not in self.tried]
        if not first and not self.plays:
            first = offered  # one play at least: a move for the walk to go on with
        self.plays += 1
        if not first:
            if not state["named"] or ("name", NEW_MONSTER) in self.tried:
                return False
            self.tried.add(("name", NEW_MONSTER))  # no monster taught for that void: a new one
        taps = first[:1]
        for chip in taps:
            state = self.tap(chip)
        groups = {c["k"] for c in taps}
        while not state["ready"]:
            filled = {c["k"] for c in state["chips"] if c["pressed"]} | groups | {"power"}
            open_ = [c for c in state["chips"] if c["v"] not in SKIPPED and (
                c["k"] not in filled or (c["k"] in MULTI and not c["pressed"]))]
            if not open_:
                break
            group = [c for c in open_ if c["k"] == open_[0]["k"]]
            chip = next((c for c in group if (c["k"], c["look"]) not in self.tried), group[0])
            taps.append(chip)
            state = self.tap(chip)
            groups.add(chip["k"])
        label = " + ".join(f"{c['k']}={c['text']}" for c in taps) or "a void"
        if not state["ready"] and state["named"]:
            self.page.fill("#host input[name=lh-name]", NEW_MONSTER)
            label += f" + name={NEW_MONSTER}"
            state = self.state()
        screen = tuple(c["k"] for c in taps)
        if screen not in self.screens:
            self.screens.add(screen)
            self.look(label)
        if not state["ready"]:
            self.note(f"composing {label}: nothing left to pick and Send stays disabled")
            self.page.reload()
            self.page.wait_for_selector("body.hosting #host")
            return True
        self.sent(label, lambda: self.page.evaluate(TAP, [None, None]))
        return True

    def all(self) -> None:
        """Plays until every chip offered has been part of one (at most ``ROUNDS``)."""
        for _ in range(ROUNDS):
            if not self.play():
                break
        else:
            self.note(f"composing: still new chips after {ROUNDS} plays")


def _event(move: tuple[str, dict]) -> dict:
    return move[1].get("event") or {}


KILL_BY = 8
"""The step at which a steered Last Heroes walk has made its kill: six charger cards, a weapon
loaded, a kill."""


def reached(game: str, steps: int, made: list[dict]) -> str:
    """What a walk of ``steps`` steps should have made and did not (the events ``made``): at
    Last Heroes, a weapon loaded and a kill, so that the screens after them were scanned."""
    if game != "last-heroes" or steps <= KILL_BY:
        return ""
    loaded = any(e.get("type") == "play" and e.get("as") == "weapon" for e in made)
    killed = any(e.get("type") == "kill" for e in made)
    return "" if loaded and killed else f"no weapon loaded and kill in {made}"


def steer(game: str, view: dict, moves: list[tuple[str, dict]]) -> list[tuple[str, dict]]:
    """The moves the seeded walk draws from: at Last Heroes a kill when one is taken, else a
    weapon loaded, else a charger card of the first weapon type at the table (the ammo such a
    weapon needs); every move taken otherwise, and in the other games."""
    if game != "last-heroes":
        return moves
    wanted = [
        lambda e: e.get("type") == "kill",
        lambda e: e.get("type") == "play" and e.get("as") == "weapon",
        lambda e: e.get("type") == "charger" and
        str(e.get("card", "")).startswith(view["weapons"][0] + "-"),
    ]
    for want in wanted:
        chosen = [m for m in moves if want(_event(m))]
        if chosen:
            return chosen
    return moves
