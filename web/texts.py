"""The page's own texts (buttons, headings, web refusals) in every language, merged with the
engine's and the game's message catalogs, and messages rendered in all languages at once."""

from __future__ import annotations

import json
from collections.abc import Mapping
from functools import cache
from pathlib import Path
from typing import Any

from companion.engine import Game, Message
from companion.i18n import LANGUAGES, catalog, render

_HERE = Path(__file__).parent / "texts"


@cache
def ui_texts(lang: str) -> dict[str, str]:
    """The web front end's own strings for one language."""
    return json.loads((_HERE / f"{lang}.json").read_text(encoding="utf-8"))


def texts(lang: str, game: Game | None = None, state: Any = None) -> dict[str, str]:
    """Every string the web shows in ``lang``: engine, game (with this table's names) and UI."""
    return {**catalog(lang, game, state), **ui_texts(lang)}


def all_texts(game: Game | None = None, state: Any = None) -> dict[str, dict[str, str]]:
    """:func:`texts` for every language, to render many messages in all of them."""
    return {lang: texts(lang, game, state) for lang in LANGUAGES}


def say(message: Message | Mapping[str, Any], catalogs: Mapping[str, Mapping[str, str]]
        ) -> dict[str, str]:
    """One message rendered in every language, e.g. ``{"fr": "...", "en": "...", "es": "..."}``."""
    return {lang: render(message, texts=table) for lang, table in catalogs.items()}


def pick_language(requested: str | None, accept: Any, default: str) -> str:
    """The language of a request: an explicit choice, else the browser's preference, else the
    configured one."""
    if requested in LANGUAGES:
        return requested
    best = accept.best_match(LANGUAGES) if accept else None
    return best or default


def next_language(lang: str) -> str:
    """The language a page's switch goes to from ``lang``: the next one of
    :data:`~companion.i18n.LANGUAGES`, round."""
    return LANGUAGES[(LANGUAGES.index(lang) + 1) % len(LANGUAGES)]
