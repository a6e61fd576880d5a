"""Saying things in the user's language: message catalogs (fr, en, es) and their rendering.

Announcements, prompts, history labels and refusals are message keys with parameters. A key is
looked up in the game's catalog, then in the common one; a string parameter is shown through its
``name.<value>`` entry when there is one (colours, sides, tiles, heroes, tokens), lists are joined
and nested messages rendered.
"""

from __future__ import annotations

import json
import string
from collections.abc import Mapping
from functools import cache
from pathlib import Path
from typing import Any

from babel import Locale

from companion.engine import Game, Message, RuleError
from companion.engine.catalog import LANGUAGES  # the one list of languages (docs/languages.md)

DEFAULT_LANGUAGE = "en"
_HERE = Path(__file__).parent


@cache
def _load(path: Path) -> dict[str, str]:
    """A catalog's texts; its notes (keys starting with ``_``, such as ``_translation``) are not
    texts and are left out."""
    try:
        texts = json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        return {}
    return {key: text for key, text in texts.items() if not key.startswith("_")}


def catalog(lang: str, game: Game | None = None, state: Any = None) -> dict[str, str]:
    """Every text of a language: the common catalog completed by the game's.

    With the game's ``state``, names include those of this table (players for their heroes).
    """
    if lang not in LANGUAGES:
        raise ValueError(f"unknown language {lang!r}; choose one of {', '.join(LANGUAGES)}")
    texts = dict(_load(_HERE / f"{lang}.json"))
    if game is not None:
        texts.update(_load(Path(game.messages_dir) / f"{lang}.json"))
        names = game.capabilities.names
        if names is not None:
            for key, value in names(lang, state).items():
                texts[f"name.{key}"] = value
    return texts


ELIDED = {"de": "d'", "que": "qu'", "le": "l'", "la": "l'", "ne": "n'", "se": "s'",
          "je": "j'", "ce": "c'", "jusque": "jusqu'", "lorsque": "lorsqu'", "puisque": "puisqu'"}
"""French words that lose their vowel before one: ``{hero:de}`` is "de Gary" or "d'Anna"."""

VOWELS = tuple("aeiouyàâäéèêëîïôöùûüœæAEIOUYÀÂÄÉÈÊËÎÏÔÖÙÛÜŒÆ")


def plural(count: Any, forms: Mapping[str, str], lang: str) -> str:
    """The form of ``forms`` (by CLDR category: ``one``, ``many``, ``other``...) that the
    language's plural rules (Babel) give for ``count``; ``other`` when there is no such form."""
    try:
        number = abs(float(count))
    except (TypeError, ValueError):
        return forms["other"]
    number = int(number) if number.is_integer() else number
    return forms.get(Locale.parse(lang).plural_form(number), forms["other"])


def elide(word: str, text: str) -> str:
    """``word`` before ``text``, elided before a vowel ("d'Anna", "de Gary")."""
    return ELIDED[word] + text if text.startswith(VOWELS) else f"{word} {text}"


class _Formatter(string.Formatter):
    """Renders a template's fields: names through the catalog, and two specs of its own.

    - ``{count:one=étape|other=étapes}``: the form the plural rules give for the value;
    - ``{hero:de}``: the value after a French word elided before a vowel ("d'Anna").
    """

    def __init__(self, texts: Mapping[str, str]) -> None:
        self.texts = texts
        self.lang = texts.get("i18n.lang", DEFAULT_LANGUAGE)

    def format_field(self, value: Any, format_spec: str) -> str:
        if "=" in format_spec:
            forms = dict(part.split("=", 1) for part in format_spec.split("|"))
            return plural(value, forms, self.lang)
        if format_spec in ELIDED:
            return elide(format_spec, self.show(value))
        return self.show(value)

    def show(self, value: Any) -> str:
        if isinstance(value, Mapping) and "key" in value:
            return render(Message(value["key"], value.get("params", {})), texts=self.texts)
        if isinstance(value, Mapping) and value and set(value) <= set(LANGUAGES):
            return value.get(self.lang) or next(iter(value.values()))  # printed text, per language
        if isinstance(value, Mapping):
            return ", ".join(f"{n} {self.show(k)}" for k, n in value.items()) or "—"
        if isinstance(value, list | tuple):
            return ", ".join(self.show(v) for v in value) or "—"
        if value is None:
            return "—"
        if isinstance(value, bool):
            return self.texts.get(f"name.{str(value).lower()}", str(value))
        return self.texts.get(f"name.{value}", str(value))


def render(message: Message | Mapping[str, Any], lang: str = DEFAULT_LANGUAGE,
           game: Game | None = None, state: Any = None,
           texts: Mapping[str, str] | None = None) -> str:
    """One message as text; an unknown key is shown as the key itself with its parameters.

    Pass ``texts`` (from :func:`catalog`) when rendering many messages at once.
    """
    if isinstance(message, Mapping):
        message = Message(message["key"], message.get("params", {}))
    texts = catalog(lang, game, state) if texts is None else texts
    template = texts.get(message.key)
    formatter = _Formatter(texts)
    if template is None:
        params = ", ".join(f"{k}={formatter.show(v)}" for k, v in message.params.items())
        return f"{message.key} ({params})" if params else message.key
    return formatter.vformat(template, (), _Defaults(message.params))


def render_error(error: RuleError, lang: str = DEFAULT_LANGUAGE, game: Game | None = None,
                 state: Any = None) -> str:
    """A refusal as a sentence that says what was wrong and what was expected."""
    return render(Message(error.key, error.params), lang, game, state)


class _Defaults(dict):
    """Parameters a template names but the message did not give show as a dash."""

    def __missing__(self, key: str) -> None:
        return None
