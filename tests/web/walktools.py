"""Helpers of the seeded walk (tests/web/test_walk.py): a throwaway copy of a running table to try
the page's controls on, and the scan of the words a phone shows.

A control is tried on a copy: the request its tap sends is caught before it leaves the browser
and submitted to a :class:`~companion.engine.Session` opened on a copy of the server's data
directory (its journal copied with SQLite's backup, its definitions beside it), through the same
``Session.submit`` and simulated table the server uses, then undone there. The table itself is
never touched.
"""

from __future__ import annotations

import json
import re
import shutil
import sqlite3
import tempfile
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from companion.engine import RuleError, Session
from companion.engine.paths import DataPaths
from companion.i18n import LANGUAGES
from companion.simulator import Simulator

ROOT = Path(__file__).resolve().parents[2]
LANGS = LANGUAGES
GAME_FOLDERS = {"last-bastion": "last_bastion", "runemasters": "runemasters",
                "aot-last-stand": "aot_last_stand", "last-heroes": "last_heroes"}


class TableCopy:
    """A copy of a running table's data directory, taken at each step, to try controls on: each
    request accepted there is undone on the copy before the next control is tried."""

    def __init__(self, data_dir: Path, seed: int) -> None:
        self.source = DataPaths.resolve(data_dir)
        self.seed = seed
        self.work = Path(tempfile.mkdtemp(prefix="walk-"))
        self.session: Session | None = None

    def take(self) -> None:
        """Copy the table as it is now (call it when the server is idle)."""
        self._drop()
        copy = self.work / "copy"
        copy.mkdir()
        target = DataPaths.resolve(copy)
        with sqlite3.connect(f"file:{self.source.journal}?mode=ro", uri=True) as src, \
                sqlite3.connect(target.journal) as dst:
            src.backup(dst)
        if self.source.journal_head.exists():
            shutil.copy(self.source.journal_head, target.journal_head)
        definitions = self.source.root / "definitions"
        if definitions.is_dir():
            shutil.copytree(definitions, copy / "definitions")
        self.session = Session(copy)

    def refusals(self, requests: Iterable[tuple[str, dict[str, Any]]]) -> list[str]:
        """Submit the requests one tap sent, in order, to the copy; the refusals' keys and
        parameters (empty: the copy took them all). The copy is then put back as it was."""
        session = self.session
        back_to = session.history()[-1].seq
        refused = []
        for path, body in requests:
            try:
                if path.endswith("/api/simulate/draw"):
                    Simulator(session, self.seed).draw()
                elif path.endswith("/api/simulate/roll"):
                    Simulator(session, self.seed).roll()
                else:
                    session.submit(body["event"], source="web")
            except RuleError as error:
                refused.append(f"{error.key} {json.dumps(error.params, default=str)[:160]}")
        if any((body.get("event") or {}).get("type") == "undo" for _, body in requests):
            self.take()  # an undo is not undone: the copy is taken again
        elif session.history()[-1].seq != back_to:
            session.submit({"type": "undo", "to": back_to})
        return refused

    def _drop(self) -> None:
        if self.session is not None:
            self.session.close()
            self.session = None
        shutil.rmtree(self.work / "copy", ignore_errors=True)

    def close(self) -> None:
        self._drop()
        shutil.rmtree(self.work, ignore_errors=True)


# -- the words a phone shows -------------------------------------------------------------------


def _catalogs(lang: str, game: str) -> list[dict[str, str]]:
    folder = GAME_FOLDERS[game]
    return [{k: v for k, v in json.loads(p.read_text(encoding="utf-8")).items()
             if not k.startswith("_")} for p in (  # a catalog's notes are no text of the page
        ROOT / "web" / "texts" / f"{lang}.json", ROOT / "companion" / "i18n" / f"{lang}.json",
        ROOT / "companion" / "games" / folder / "messages" / f"{lang}.json")]


def catalog_keys(game: str) -> set[str]:
    """Every message key of the page, the engine and the game (a key shown is a text missing)."""
    return {k for lang in LANGS for table in _catalogs(lang, game) for k in table
            if "." in k}


WORD = re.compile(r"[^\W\d_]{5,}")


def printed_names(game: str) -> set[str]:
    """The words of the names the game's catalog gives in one language only (a card printed
    in French in the box, such as Last Bastion's «Canon de l'Infamie»): shown as printed."""
    data = json.loads((ROOT / "companion" / "games" / GAME_FOLDERS[game] / "catalog.json")
                      .read_text(encoding="utf-8"))
    found: set[str] = set()

    def visit(node: Any) -> None:
        if isinstance(node, dict):
            for key, value in node.items():
                if key == "name" and isinstance(value, str):
                    found.update(WORD.findall(value))
                else:
                    visit(value)
        elif isinstance(node, list):
            for item in node:
                visit(item)

    visit(data)
    return found


def _words(lang: str, game: str) -> set[str]:
    return {w.lower() for table in _catalogs(lang, game) for text in table.values()
            for w in WORD.findall(re.sub(r"\{[^}]*\}", " ", text))}


def foreign_words(game: str) -> dict[str, set[str]]:
    """By page language, the words (5 letters or more) of the other languages' catalogs of the
    page, the engine and the game that its own catalogs never use: one of them on the page is a
    text left in another language."""
    words = {lang: _words(lang, game) for lang in LANGS}
    return {lang: set().union(*(words[o] for o in LANGS if o != lang)) - words[lang]
            for lang in LANGS}


def language_names() -> set[str]:
    """Each language's name in itself («Español»): the switch shows the one it goes to."""
    return {json.loads((ROOT / "web" / "texts" / f"{lang}.json").read_text(encoding="utf-8"))
            ["ui.language"] for lang in LANGS}


PATTERNS = {
    "an unfilled {field}": re.compile(r"\{[a-z_]+(?::[^}]*)?\}"),
    "a Python or JSON repr": re.compile(r"\{['\"]|\[['\"]|['\"]: |\bNone\b|\bTrue\b|\bFalse\b"),
    "a command line": re.compile(r"\bcompanion [a-z]+\b|(?<![\w-])--[a-z][a-z-]+"),
    "undefined / null / NaN / [object": re.compile(r"\bundefined\b|\bnull\b|\bNaN\b|\[object"),
}

PAGE_TEXTS = """() => {
  const seen = (e) => !e.closest('[hidden], details:not([open]) > :not(summary)') &&
    e.getClientRects().length > 0;
  const texts = [];
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  for (let n = walker.nextNode(); n; n = walker.nextNode()) {
    const text = n.textContent.trim();
    if (text && n.parentElement && !n.parentElement.closest('script, style') &&
        seen(n.parentElement)) texts.push(text);
  }
  for (const e of document.querySelectorAll('[aria-label], [placeholder], [title]')) {
    if (!seen(e)) continue;
    for (const a of ['aria-label', 'placeholder', 'title']) {
      if (e.hasAttribute(a)) texts.push(a + '=' + e.getAttribute(a));
    }
  }
  for (const o of document.querySelectorAll('select option')) {
    if (seen(o.parentElement)) texts.push(o.textContent.trim());
  }
  return texts;
}"""

WIDE = """() => {
  const wide = [...document.querySelectorAll('body *')].filter((e) =>
    e.getBoundingClientRect().right > window.innerWidth + 0.5 &&
    !e.closest('[hidden], details:not([open]) > :not(summary)'));
  return {width: document.documentElement.scrollWidth, wide: wide.slice(0, 3).map((e) =>
    `${e.tagName.toLowerCase()}.${e.className}[${e.name || e.id || ''}] ` +
    `${Math.round(e.getBoundingClientRect().right)} px`)};
}"""


def word_findings(texts: list[str], lang: str, keys: set[str], foreign: set[str],
                  allowed: set[str]) -> list[str]:
    """What is wrong in the texts a phone shows in ``lang`` (``allowed``: words of the table
    itself, such as its players' names, that may be of either language)."""
    found = []
    for text in dict.fromkeys(texts):
        for what, pattern in PATTERNS.items():
            if pattern.search(text):
                found.append(f"{what}: {text[:120]!r}")
        for token in re.findall(r"[a-z_]+(?:\.[a-z0-9_]+)+", text):
            if token in keys:
                found.append(f"a raw key: {token} in {text[:120]!r}")
        strange = {w for w in WORD.findall(text) if w.lower() in foreign} - allowed
        if strange:
            found.append(f"words of another language than {lang} "
                         f"{sorted(strange)}: {text[:120]!r}")
    return found
