"""What handling one event leaves behind besides the new state: messages, label, definitions."""

from __future__ import annotations

from typing import Any

from companion.engine import Outcome

State = dict[str, Any]

Record = Outcome  # what one event has said, labelled and taught
