"""What the engine says and asks: message keys with parameters, prompts, and what it waits for."""

from __future__ import annotations

import copy
from dataclasses import asdict, dataclass, field
from typing import Any


@dataclass(frozen=True)
class Message:
    """Something to say: a catalog key and its parameters, never raw text."""

    key: str
    params: dict[str, Any] = field(default_factory=dict)

    def to_json(self) -> dict[str, Any]:
        """The message as a JSON-ready dict."""
        return {"key": self.key, "params": copy.deepcopy(self.params)}


class Outcome:
    """What one event has produced so far besides the new state: announcements in order, the
    history label, and the owner definitions it taught. A rules module fills it while it works
    and turns it into the event's Step."""

    def __init__(self) -> None:
        self.messages: list[Message] = []
        self.label: Message | None = None
        self.learned: list[tuple[str, str, dict[str, Any]]] = []

    def say(self, key: str, **params: Any) -> None:
        """Add an announcement (a message key of the game's catalog and its parameters)."""
        self.messages.append(Message(key, params))


@dataclass(frozen=True)
class Prompt:
    """A question for a human, answered by an event; it always offers a default."""

    id: str
    key: str
    params: dict[str, Any] = field(default_factory=dict)
    options: list[Any] = field(default_factory=list)
    default: Any = None
    answer: str = "answer"

    def to_json(self) -> dict[str, Any]:
        """The prompt as a JSON-ready dict."""
        return asdict(self)


@dataclass(frozen=True)
class Expectation:
    """What the table must provide next.

    ``kind`` is one of ``setup``, ``card``, ``dice``, ``choice``, ``action`` (a free choice among
    the listed event types) or ``nothing`` (the game is over). ``events`` lists the event types
    the game accepts now; ``profile`` and ``count`` describe expected dice; ``options`` the legal
    answers of a choice.
    """

    kind: str
    events: tuple[str, ...]
    message: Message | None = None
    profile: str | None = None
    count: int | None = None
    options: list[Any] | None = None

    def to_json(self) -> dict[str, Any]:
        """The expectation as a JSON-ready dict."""
        data: dict[str, Any] = {"kind": self.kind, "events": list(self.events)}
        if self.message is not None:
            data["message"] = self.message.to_json()
        for name in ("profile", "count", "options"):
            value = getattr(self, name)
            if value is not None:
                data[name] = copy.deepcopy(value)
        return data
