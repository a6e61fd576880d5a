"""What the vision package says to people, in French and English.

The package stays free of the companion (DESIGN.md §1), so it keeps its own small catalogs,
``vision/messages/<lang>.json``: plain ``str.format`` templates. Bad input raises a
:class:`VisionError` carrying a message key, so each front end says it in its user's language.
"""

from __future__ import annotations

import json
from functools import cache
from pathlib import Path
from typing import Any

LANGUAGES = ("fr", "en")
_FOLDER = Path(__file__).parent / "messages"


@cache
def _catalog(lang: str) -> dict[str, str]:
    return json.loads((_FOLDER / f"{lang}.json").read_text(encoding="utf-8"))


def say(key: str, lang: str = "en", **params: Any) -> str:
    """One message in ``lang`` (English for a language the package does not speak)."""
    return _catalog(lang if lang in LANGUAGES else "en")[key].format(**params)


class VisionError(ValueError):
    """Input the package cannot use: ``key`` and ``params`` name what was wrong; ``str()`` is
    the English sentence, :meth:`text` the sentence in another language."""

    def __init__(self, key: str, **params: Any) -> None:
        super().__init__(say(key, "en", **params))
        self.key, self.params = key, params

    def text(self, lang: str) -> str:
        """The sentence in ``lang``."""
        return say(self.key, lang, **self.params)
