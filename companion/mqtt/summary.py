"""What a table publishes about its game: a small summary read from any game's view.

The summary names no game: it reads the keys the games' views share (``game``, ``status``,
``phase``, ``turn`` or ``round``, ``active_hero`` or ``active``, ``score``) and the counts of
their draw piles (``deck``, ``piles``), and says what the table waits for in French and English
(the rendered expectation). Anything else a view holds stays on the companion's own page.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from companion.engine import Session
from companion.i18n import LANGUAGES, render

#: The fields of the summary that hold one value, in the order a person reads them.
FIELDS = ("game", "status", "phase", "round", "active",
          *(f"waiting_{lang}" for lang in LANGUAGES), "version", "at")
#: View keys read for a field, first found wins.
ALIASES = {"phase": ("phase",), "round": ("turn", "round"), "active": ("active_hero", "active")}
#: View keys holding draw piles: their numbers are counts.
PILES = ("deck", "piles")


def numbers(prefix: str, value: Any) -> dict[str, int | float]:
    """The numbers of a value flattened to ``prefix_key`` names (a list counts its items)."""
    if isinstance(value, bool) or value is None:
        return {}
    if isinstance(value, int | float):
        return {prefix: value}
    if isinstance(value, list | tuple):
        return {prefix: len(value)}
    if isinstance(value, Mapping):
        found: dict[str, int | float] = {}
        for key, item in value.items():
            if isinstance(item, int | float | bool | list | tuple | Mapping):
                found.update(numbers(f"{prefix}_{key}", item))
        return found
    return {}


def scalar(value: Any) -> str | int | float | None:
    """A value fit for one sensor: text or a number, else None."""
    return value if isinstance(value, str | int | float) and not isinstance(value, bool) else None


def summary(session: Session, at: float | None = None) -> dict[str, Any]:
    """The summary of the session's game now; ``at`` is the time of its last event (None:
    read from the history)."""
    view = session.view()
    if at is None:
        history = session.history()
        at = history[-1].event.at if history else None
    found: dict[str, Any] = {"game": view.get("game"), "status": view.get("status")}
    for field, keys in ALIASES.items():
        found[field] = next((scalar(view[k]) for k in keys if view.get(k) is not None), None)
    expects = view.get("expects", {})
    message = expects.get("message")
    for lang in LANGUAGES:
        found[f"waiting_{lang}"] = (render(message, lang, session.game, session.state)
                                    if message else None)
    found.update(version=view.get("version"), at=at, expects=expects.get("kind"),
                 events=list(expects.get("events", [])))
    found["counts"] = {name: count for key in PILES if key in view
                       for name, count in numbers(key, view[key]).items()}
    found["scores"] = numbers("score", view.get("score"))
    return found
