"""Events: the only way anything changes, and the small checkers that validate their fields."""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from .errors import RuleError

SOURCES = ("replay", "web", "button", "rfid", "camera", "cli", "keyboard", "simulator", "test",
           "mqtt", "bluetooth")
RESERVED = ("type", "source", "at")
FORMAT = 2
"""The event format this version writes in the journal and in recorded files (docs/events.md,
«Event formats»). Format 1 is everything written before formats were recorded; each later
change of an event's meaning adds one, with its upcaster (:mod:`.upcast`)."""
FIRST_FORMAT = 1
"""The format of a journal row or a recorded file that does not say its own."""


@dataclass(frozen=True)
class Event:
    """Something that happened at the table: a type, its fields, where it came from and when.

    ``at`` (a Unix time) is set by the session when the event is accepted, never by the rules.
    """

    type: str
    fields: dict[str, Any] = field(default_factory=dict)
    source: str = "replay"
    at: float | None = None

    @classmethod
    def from_json(cls, data: Any) -> Event:
        """Build an event from its JSON object form, refusing anything that is not one."""
        if not isinstance(data, Mapping):
            raise RuleError("event.not_object", got=type(data).__name__)
        kind = data.get("type")
        if not isinstance(kind, str) or not kind:
            raise RuleError("event.no_type")
        source = data.get("source", "replay")
        if source not in SOURCES:
            raise RuleError("event.bad_source", source=source, expected=list(SOURCES))
        at = data.get("at")
        if at is not None and not isinstance(at, int | float):
            raise RuleError("event.bad_field", field="at", expected="number")
        fields = {k: v for k, v in data.items() if k not in RESERVED}
        return cls(kind, fields, source, at)

    @classmethod
    def parse(cls, text: str) -> Event:
        """Build an event from one line of JSON."""
        return cls.from_json(parse_json(text))

    def to_json(self) -> dict[str, Any]:
        """The event as one flat JSON object, as written in replay files and the journal."""
        data: dict[str, Any] = {"type": self.type, **self.fields, "source": self.source}
        if self.at is not None:
            data["at"] = self.at
        return data


def parse_json(text: str) -> Any:
    """One line of JSON, or the RuleError that says where it is not JSON."""
    try:
        return json.loads(text)
    except json.JSONDecodeError as exc:
        raise RuleError("event.bad_json", detail=exc.msg, column=exc.colno) from None


def header_format(data: Any) -> int | None:
    """The event format a recorded file's header line declares (``{"format": 2}``, its first
    line), or None when the line is an event."""
    if not isinstance(data, Mapping) or "type" in data or "format" not in data:
        return None
    version = data["format"]
    if set(data) != {"format"} or isinstance(version, bool) or not isinstance(version, int) \
            or version < FIRST_FORMAT:
        raise RuleError("event.bad_format", format=version, current=FORMAT)
    if version > FORMAT:
        raise RuleError("event.format_newer", format=version, current=FORMAT)
    return version


Checker = Callable[[Any, str], Any]
"""Checks one field value (named by its path) and returns it normalised, or raises RuleError."""


@dataclass(frozen=True)
class Field:
    """One field of an event type: how to check it and whether it may be left out."""

    check: Checker
    required: bool = True


Schema = Mapping[str, Field]


def validate(
    kind: str, fields: Mapping[str, Any], schema: Schema, prefix: str = ""
) -> dict[str, Any]:
    """Check the fields of an event of type ``kind`` against its schema; return them normalised.

    ``prefix`` names where a nested object sits, so that errors give the full path of a field.
    """
    unknown = sorted(set(fields) - set(schema))
    if unknown:
        raise RuleError(
            "event.unknown_field", event=kind, field=prefix + unknown[0], known=sorted(schema)
        )
    clean: dict[str, Any] = {}
    for name, spec in schema.items():
        if name in fields and fields[name] is not None:
            clean[name] = spec.check(fields[name], prefix + name)
        elif spec.required:
            raise RuleError("event.missing_field", event=kind, field=prefix + name)
    return clean


def _bad(path: str, expected: str, value: Any) -> RuleError:
    return RuleError("event.bad_field", field=path, expected=expected, got=value)


def text(value: Any, path: str) -> str:
    """A non-empty string."""
    if not isinstance(value, str) or not value.strip():
        raise _bad(path, "text", value)
    return value.strip()


def boolean(value: Any, path: str) -> bool:
    """True or false."""
    if not isinstance(value, bool):
        raise _bad(path, "true or false", value)
    return value


def integer(low: int | None = None, high: int | None = None) -> Checker:
    """A whole number, optionally bounded."""

    def check(value: Any, path: str) -> int:
        bounds = f"a whole number{'' if low is None else f' >= {low}'}"
        bounds += "" if high is None else f" <= {high}"
        if isinstance(value, bool) or not isinstance(value, int):
            raise _bad(path, bounds, value)
        if (low is not None and value < low) or (high is not None and value > high):
            raise _bad(path, bounds, value)
        return value

    return check


def one_of(*choices: Any) -> Checker:
    """One value out of a fixed list."""

    def check(value: Any, path: str) -> Any:
        if value not in choices:
            raise _bad(path, f"one of {', '.join(map(str, choices))}", value)
        return value

    return check


def list_of(item: Checker, low: int = 0, high: int | None = None) -> Checker:
    """A list whose items all pass ``item``."""

    def check(value: Any, path: str) -> list[Any]:
        too_long = high is not None and isinstance(value, list) and len(value) > high
        if not isinstance(value, list) or len(value) < low or too_long:
            size = f"{low}..{'' if high is None else high}"
            raise _bad(path, f"a list of {size} items", value)
        return [item(v, f"{path}[{i}]") for i, v in enumerate(value)]

    return check


def mapping(key: Checker, val: Checker) -> Checker:
    """An object whose keys pass ``key`` and values pass ``val``."""

    def check(value: Any, path: str) -> dict[Any, Any]:
        if not isinstance(value, Mapping):
            raise _bad(path, "an object", value)
        return {key(k, f"{path}.{k}"): val(v, f"{path}.{k}") for k, v in value.items()}

    return check


def obj(schema: Schema) -> Checker:
    """A nested object with its own schema."""

    def check(value: Any, path: str) -> dict[str, Any]:
        if not isinstance(value, Mapping):
            raise _bad(path, "an object", value)
        return validate(path, value, schema, prefix=f"{path}.")

    return check


def anything(value: Any, path: str) -> Any:
    """Any JSON value; the rules check it further."""
    return value
