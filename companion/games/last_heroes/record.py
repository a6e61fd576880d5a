"""What handling one event leaves behind besides the new state: messages, label, definitions."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from companion.engine import Message

State = dict[str, Any]


@dataclass
class Record:
    """Collects the announcements, the history label and the learned definitions of one event."""

    messages: list[Message] = field(default_factory=list)
    label: Message | None = None
    learned: list[tuple[str, str, dict[str, Any]]] = field(default_factory=list)

    def say(self, key: str, **params: Any) -> None:
        """Announce something (a message key of messages/*.json and its parameters)."""
        self.messages.append(Message(key, params))
