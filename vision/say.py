"""What the vision package says to people, in French and English.

The package stays free of the companion (DESIGN.md §1), so it keeps its own small catalogs,
``vision/messages/<lang>.json``: ``str.format`` templates where ``{count:one=dé|other=dés}``
takes the form the language's plural rules give for the number (Babel's CLDR data: French
says "0 dé" and "1,5 dé", English "0 dice"). Bad input raises a
:class:`VisionError` carrying a message key, so each front end says it in its user's language.
"""

from __future__ import annotations

import json
import string
from functools import cache
from pathlib import Path
from typing import Any

from babel import Locale

_FOLDER = Path(__file__).parent / "messages"
LANGUAGES = tuple(sorted(path.stem for path in _FOLDER.glob("*.json")))
"""One per catalog of ``messages/`` (vision imports nothing of the project, so it finds its
languages by their files rather than reading the companion's list)."""


@cache
def _catalog(lang: str) -> dict[str, str]:
    return json.loads((_FOLDER / f"{lang}.json").read_text(encoding="utf-8"))


class _Numbered(string.Formatter):
    """Formats fields as ``str.format`` does, but a spec of ``category=form`` choices."""

    def __init__(self, lang: str) -> None:
        self.locale = Locale.parse(lang)

    def format_field(self, value: Any, format_spec: str) -> str:
        if "=" not in format_spec:
            return super().format_field(value, format_spec)
        choices = dict(choice.split("=", 1) for choice in format_spec.split("|"))
        return choices.get(self.locale.plural_form(value), choices["other"])


@cache
def _formatter(lang: str) -> _Numbered:
    return _Numbered(lang)


def say(key: str, lang: str = "en", /, **params: Any) -> str:
    """One message in ``lang`` (English for a language the package does not speak)."""
    lang = lang if lang in LANGUAGES else "en"
    return _formatter(lang).format(_catalog(lang)[key], **params)


class VisionError(ValueError):
    """Input the package cannot use: ``key`` and ``params`` name what was wrong; ``str()`` is
    the English sentence, :meth:`text` the sentence in another language."""

    def __init__(self, key: str, /, **params: Any) -> None:
        super().__init__(say(key, "en", **params))
        self.key, self.params = key, params

    def text(self, lang: str) -> str:
        """The sentence in ``lang``."""
        return say(self.key, lang, **self.params)

    def texts(self) -> dict[str, str]:
        """The sentence in every language the package speaks, by language (a page shows the
        one its reader reads)."""
        return {lang: self.text(lang) for lang in LANGUAGES}
