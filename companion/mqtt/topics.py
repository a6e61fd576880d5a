"""The topic tree of one table (see docs/hardware.md, "MQTT")::

    companion/<table>/availability      online | offline (retained; offline is the last will)
    companion/<table>/state             the summary as JSON (retained)
    companion/<table>/state/<field>     each field alone: game, status, phase, ... (retained)
    companion/<table>/event             each accepted event as JSON (not retained)
    companion/<table>/command           {"command": "next" | "undo", "at", "id", "mac"} (signed)
    companion/<table>/command/reply     {"id": ..., "ok": ..., "error": {...}} (not retained)

``companion`` is ``[mqtt] topic_root``; ``<table>`` the table's id, made from ``[table] name``
(the machine's host name when unset).
"""

from __future__ import annotations

import re
import socket
from dataclasses import dataclass

#: The wildcard of a topic root matching every table's ``state``.
ANY = "+"


def table_id(name: str) -> str:
    """A table's id in topics: its name in lower case, every run of other characters than
    letters, digits, ``_`` and ``-`` made one ``-``. Raises ValueError when nothing is left."""
    slug = re.sub(r"[^a-z0-9_-]+", "-", name.lower()).strip("-")
    if not slug:
        raise ValueError(f"{name!r} has no letter or digit to name the table in topics")
    return slug


def table_name(configured: str) -> str:
    """The table's name: ``[table] name``, else this machine's host name."""
    return configured or socket.gethostname()


@dataclass(frozen=True)
class Topics:
    """The topics of table ``table`` (an id) under ``root``."""

    root: str
    table: str

    @property
    def base(self) -> str:
        """The table's branch of the tree."""
        return f"{self.root}/{self.table}"

    @property
    def availability(self) -> str:
        """``online`` while connected, ``offline`` after a clean stop or as the last will."""
        return f"{self.base}/availability"

    @property
    def state(self) -> str:
        """The summary as JSON."""
        return f"{self.base}/state"

    def field(self, name: str) -> str:
        """One field of the summary, alone."""
        return f"{self.state}/{name}"

    @property
    def event(self) -> str:
        """Each accepted event."""
        return f"{self.base}/event"

    @property
    def command(self) -> str:
        """Where commands are accepted."""
        return f"{self.base}/command"

    @property
    def reply(self) -> str:
        """Where each command is answered."""
        return f"{self.command}/reply"
