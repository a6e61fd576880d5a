"""The two ways the engine says no: a refused event and an unusable data directory."""

from __future__ import annotations

from typing import Any


class RuleError(Exception):
    """An event the rules refuse. Nothing was changed or written.

    It carries a message key and parameters rather than text, so that every front end (terminal,
    phone, voice) can say it in the user's language through :mod:`companion.i18n`.
    """

    def __init__(self, key: str, /, **params: Any) -> None:
        super().__init__(key)
        self.key = key
        self.params = params

    def __str__(self) -> str:
        if not self.params:
            return self.key
        details = ", ".join(f"{name}={value!r}" for name, value in self.params.items())
        return f"{self.key} ({details})"


class StoreError(Exception):
    """A file of the data directory is unusable (corrupt, foreign, unreadable, busy, full);
    nothing was written.

    Like :class:`RuleError` it carries a message key (``store.*``) and parameters, so the
    terminal, the page and ``companion doctor`` say what is wrong, and the way out, in the
    user's language.
    """

    def __init__(self, key: str, /, **params: Any) -> None:
        super().__init__(key)
        self.key = key
        self.params = params

    def __str__(self) -> str:
        details = ", ".join(f"{name}={value!r}" for name, value in self.params.items())
        return f"{self.key} ({details})" if details else self.key
