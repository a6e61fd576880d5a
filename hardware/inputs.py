"""What input sources report besides ready-made events: a button press and a tag swipe.

A source calls ``emit`` with one of these records, with an event dict it built itself, or with a
:class:`~companion.engine.Message` to say as a warning. The :class:`~hardware.table.Table` reads
the records against what the game expects now.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any, Protocol

from companion.engine import Message


@dataclass(frozen=True)
class Press:
    """A button press: ``role`` is what it asks for (``next``, ``undo``, ``draw``, ``roll``,
    ``repeat``), ``button`` which button it was, ``long`` whether it was held."""

    role: str
    button: str
    long: bool = False


@dataclass(frozen=True)
class Swipe:
    """A tag presented to a reader: its UID as canonical upper-case hex."""

    uid: str
    reader: str


Record = Press | Swipe | Message | Mapping[str, Any]
Emit = Callable[[Record], None]


class Source(Protocol):
    """An input: ``start`` begins calling ``emit`` (from any thread); ``stop`` ends it."""

    def start(self, emit: Emit) -> None:
        """Begin reporting inputs to ``emit``."""

    def stop(self) -> None:
        """Stop reporting and release the device."""


class Worker:
    """The thread of a source that polls a device: :meth:`_launch` runs a loop until
    :meth:`stop`; the loop checks (and sleeps on) ``self._stop``, so stopping never waits for a
    whole retry delay."""

    JOIN_SECONDS = 5.0

    def __init__(self) -> None:
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None

    def _launch(self, loop: Callable[..., None], *args: Any, name: str) -> None:
        self._stop.clear()
        self._thread = threading.Thread(target=loop, args=args, daemon=True, name=name)
        self._thread.start()

    def stop(self) -> None:
        """Stop the loop and wait for it to release its device."""
        self._stop.set()
        self.join(self.JOIN_SECONDS)
        self._thread = None

    def join(self, timeout: float | None = None) -> None:
        """Wait for the loop to end (a replay that is over, or after :meth:`stop`)."""
        if self._thread is not None:
            self._thread.join(timeout)
