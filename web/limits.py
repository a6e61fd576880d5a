"""The limits every JSON request body is held to before anything reads it.

Python's JSON decoder takes what would later crash deep inside: 1,000 levels of nesting
(``RecursionError``), a 4,500-digit integer (``ValueError``), a lone surrogate ``"\\ud800"``
(which no file or database can store), ``NaN``; and a 15,000-character name would then sit on
every phone. :func:`parse` refuses each of these (answered 400) with a message naming the field (a
path such as ``event.players[0].name``).
"""

from __future__ import annotations

import json
import math
import re
from typing import Any


class LimitError(ValueError):
    """A body over a limit: the message key and its parameters (the field among them)."""

    def __init__(self, key: str, /, **params: Any) -> None:
        super().__init__(key)
        self.key, self.params = key, params

MAX_DEPTH = 24
"""Nesting levels of objects and lists (a taught card with effects needs about ten)."""
SCAN_DEPTH = 200
"""Past this depth the body is refused before the decoder recurses into it."""
MAX_DIGITS = 15
"""Digits of a whole number: counts, versions and seeds fit with room to spare."""
MAX_TEXT = 2000
"""Characters of any text (a card's printed text fits)."""
MAX_NAME = 100
"""Characters of a name or an id (``name``, ``id`` and what they hold)."""
NAME_KEYS = frozenset({"name", "id"})

_TOKENS = re.compile(r'"(?:[^"\\]|\\.)*"|[\[\]{}]', re.DOTALL)
_SURROGATE = re.compile("[\ud800-\udfff]")


class _Refused:
    """A number the decoder must not build (too many digits, NaN, infinity)."""

    def __init__(self, text: str) -> None:
        self.text = text


def _number(text: str) -> int | _Refused:
    return int(text) if len(text.lstrip("-")) <= MAX_DIGITS else _Refused(text)


def _float(text: str) -> float | _Refused:
    value = float(text)
    return value if math.isfinite(value) else _Refused(text)


def _deepest_field(raw: str) -> str | None:
    """The top-level field whose value nests deeper than :data:`SCAN_DEPTH` (``body`` for a
    value that is not an object), or None: a scan over brackets outside strings."""
    depth, key, top = 0, "body", None
    for token in _TOKENS.finditer(raw):
        text = token.group()
        if text[0] == '"':
            if depth == 1 and top == "{":
                key = text[1:-1]
            continue
        if text in "[{":
            top = top or text
            depth += 1
            if depth > SCAN_DEPTH:
                return key if top == "{" else "body"
        else:
            depth -= 1
    return None


def _check(value: Any, path: str, depth: int, name: bool) -> None:
    if depth > MAX_DEPTH:
        raise LimitError("request.too_deep", field=path, limit=MAX_DEPTH)
    if isinstance(value, str):
        _text(value, path, name)
    elif isinstance(value, _Refused):
        raise LimitError("request.bad_number", field=path, limit=MAX_DIGITS)
    elif isinstance(value, dict):
        for key, item in value.items():
            label = key[:40].encode("utf-8", "backslashreplace").decode()  # printable as is
            inner = f"{path}.{label}" if path else label
            _text(key, inner, True)
            _check(item, inner, depth + 1, name or key in NAME_KEYS)
    elif isinstance(value, list):
        for index, item in enumerate(value):
            _check(item, f"{path}[{index}]", depth + 1, name)


def _text(value: str, path: str, name: bool) -> None:
    if _SURROGATE.search(value):
        raise LimitError("request.bad_text", field=path or "body")
    limit = MAX_NAME if name else MAX_TEXT
    if len(value) > limit:
        raise LimitError("request.too_long", field=path or "body", size=len(value),
                       limit=limit)


def parse(raw: bytes) -> Any:
    """The JSON value of a request body, within the limits above; else a LimitError naming
    the field (answered 400)."""
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise LimitError("request.bad_json", detail=str(exc)) from None
    field = _deepest_field(text)
    if field is not None:
        raise LimitError("request.too_deep", field=field, limit=MAX_DEPTH)
    try:
        value = json.loads(text, parse_int=_number, parse_float=_float,
                           parse_constant=_Refused)
    except json.JSONDecodeError as exc:
        raise LimitError("request.bad_json", detail=str(exc)) from None
    _check(value, "", 0, False)
    return value
