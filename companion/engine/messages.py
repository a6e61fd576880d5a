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

    def say(self, key: str, /, **params: Any) -> None:
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
class Blank:
    """What the table fills in an event template, in the template's ``field``.

    ``kind`` says who can fill it: ``dice`` (the faces of ``count`` dice of ``profile``, among
    ``options`` when the game knows them; ``extra`` names further single-die fields the same
    roll fills, such as a grey die), ``card`` (a card id, among ``options`` when the deck knows
    what it can give; ``extra`` names further card fields, each filled by the next other card
    shown, such as a face-down card after a face-up one), ``choice`` (one of ``options``) or
    ``form`` (fields the host types on the phone). ``colour`` is the colour of the dice of a
    ``dice`` blank when each player rolls dice of their own colour: one photo of several
    players' dice then fills each one's template.
    """

    kind: str
    field: str | None = None
    profile: str | None = None
    count: int | None = None
    options: list[Any] | None = None
    extra: tuple[str, ...] = ()
    colour: str | None = None

    def to_json(self) -> dict[str, Any]:
        """The blank as a JSON-ready dict (unset parts left out)."""
        data: dict[str, Any] = {"kind": self.kind}
        for name in ("field", "profile", "count", "options", "colour"):
            value = getattr(self, name)
            if value is not None:
                data[name] = copy.deepcopy(value)
        if self.extra:
            data["extra"] = list(self.extra)
        return data


@dataclass(frozen=True)
class Template:
    """One event the table may send now: its type, the fields already fixed (a hero, a
    profile...) and the blank a sensor or the phone fills (None: the event is complete).

    Buttons, the camera, RFID readers, the simulator and the phone only fill blanks: which
    event a roll or a swipe makes is the game's knowledge, never theirs.
    """

    type: str
    fields: dict[str, Any] = field(default_factory=dict)
    blank: Blank | None = None

    def fill(self, value: Any = None, /, **extra: Any) -> dict[str, Any]:
        """The event with the blank filled by ``value`` (and ``extra`` fields, such as a grey
        die), as a JSON-ready dict."""
        event = {"type": self.type, **copy.deepcopy(self.fields)}
        if self.blank is not None and self.blank.field is not None:
            event[self.blank.field] = value
        event.update(extra)
        return event

    def to_json(self) -> dict[str, Any]:
        """The template as a JSON-ready dict."""
        data: dict[str, Any] = {"type": self.type, "fields": copy.deepcopy(self.fields)}
        if self.blank is not None:
            data["blank"] = self.blank.to_json()
        return data


@dataclass(frozen=True)
class Expectation:
    """What the table must provide next.

    ``kind`` is one of ``setup``, ``card``, ``dice``, ``choice``, ``action`` (a free choice among
    the listed event types) or ``nothing`` (the game is over). ``events`` lists the event types
    the game accepts now; ``profile`` and ``count`` describe expected dice; ``options`` the legal
    answers of a choice. ``templates`` are the complete events the table may send now, each with
    the blank a sensor or the phone fills; ``next`` is the event the "next" button sends (the
    suggestion the table confirms), or None when a person must decide.
    """

    kind: str
    events: tuple[str, ...]
    message: Message | None = None
    profile: str | None = None
    count: int | None = None
    options: list[Any] | None = None
    templates: tuple[Template, ...] = ()
    next: dict[str, Any] | None = None

    def template(self, blank: str) -> Template | None:
        """The first template whose blank is of kind ``blank`` (``dice``, ``card``...)."""
        return next((t for t in self.templates if t.blank is not None and t.blank.kind == blank),
                    None)

    def rolled(self) -> list[Template]:
        """The dice templates one roll fills: the first, or every one when they name their
        dice's colours (each player rolls their own, and one throw fills each one's)."""
        found = [t for t in self.templates if t.blank is not None and t.blank.kind == "dice"]
        return found if found and found[0].blank.colour is not None else found[:1]

    def to_json(self) -> dict[str, Any]:
        """The expectation as a JSON-ready dict."""
        data: dict[str, Any] = {"kind": self.kind, "events": list(self.events)}
        if self.message is not None:
            data["message"] = self.message.to_json()
        for name in ("profile", "count", "options", "next"):
            value = getattr(self, name)
            if value is not None:
                data[name] = copy.deepcopy(value)
        if self.templates:
            data["templates"] = [t.to_json() for t in self.templates]
        return data
