"""Commands from the broker: the "next" button and undo, answered on the reply topic.

A command is a signed JSON object (:mod:`.sign`): ``{"command": "next" | "undo", "at": ...,
"id": ..., "mac": ...}`` on the table's command topic. It carries no secret: its ``mac`` is an
HMAC of the table's id, the command, the time and the id with the shared ``[mqtt]
command_secret``. The :class:`Guard` takes a command only when its MAC is right (compared in
constant time), its time is within :data:`WINDOW` seconds of the companion's clock, and its id
was not taken before, so a command read on the broker cannot be sent again, nor to another
table. Wrong commands are limited: after :data:`GUESSES` of them within :data:`GUESS_PERIOD`
seconds, every command is refused unread until the period has passed. The broker's ACL is the
other lock (docs/hardware.md has the mosquitto files): only the table's own user reads its
command topic.

``next`` is what the "next" button means now (the game's expectation's ``next`` event) and is
refused when the game waits for something a press cannot give; ``undo`` goes back one step.
Every command gets one reply: ``ok`` with the journal version, or the refusal's message key and
its text in French and English; a refused command changes nothing.
"""

from __future__ import annotations

import hmac
import json
import time
from collections import deque
from collections.abc import Callable
from typing import Any

from companion.engine import Message, RuleError, Session
from companion.i18n import LANGUAGES, render

from .sign import COMMANDS, mac

#: Seconds a signed command stays valid either side of its ``at`` (clocks set by NTP agree).
WINDOW = 30
#: Wrong commands (malformed, unsigned, badly signed) taken within :data:`GUESS_PERIOD`.
GUESSES = 5
GUESS_PERIOD = 60.0
#: The longest command id taken.
ID_LENGTH = 64


class Refused(Exception):
    """A command that is not carried out, with the message that says why."""

    def __init__(self, message: Message) -> None:
        super().__init__(message.key)
        self.message = message


def parse(payload: bytes) -> dict[str, Any] | None:
    """The command object of a payload, or None when it is not one."""
    try:
        command = json.loads(payload)
    except (UnicodeDecodeError, ValueError):
        return None
    return command if isinstance(command, dict) else None


class Guard:
    """Checks the signed commands of table ``table`` (its id in topics): each right one is
    taken once, within the window; wrong ones are limited. ``clock`` gives the time (seconds
    since 1970)."""

    def __init__(self, secret: str, table: str, clock: Callable[[], float] = time.time) -> None:
        self.secret, self.table, self.clock = secret, table, clock
        self._taken: dict[str, float] = {}   # id -> when it may be forgotten
        self._wrong: deque[float] = deque()  # times of the recent wrong commands

    def check(self, command: dict[str, Any] | None) -> str:
        """The command's name when it is signed, fresh and new; raises :class:`Refused`.
        ``command`` is the payload's object (None: the payload was not one)."""
        now = self.clock()
        while self._wrong and self._wrong[0] <= now - GUESS_PERIOD:
            self._wrong.popleft()
        if len(self._wrong) >= GUESSES:
            wait = int(self._wrong[0] + GUESS_PERIOD - now) + 1
            raise Refused(Message("mqtt.too_many", {"count": GUESSES, "seconds": wait}))
        try:
            name, at, command_id = self._signed(command)
        except Refused:
            self._wrong.append(now)
            raise
        if abs(now - at) > WINDOW:
            raise Refused(Message("mqtt.stale", {"seconds": WINDOW}))
        for old in [k for k, until in self._taken.items() if until < now]:
            del self._taken[old]
        if command_id in self._taken:
            raise Refused(Message("mqtt.replayed", {"id": command_id}))
        self._taken[command_id] = at + WINDOW
        return name

    def _signed(self, command: dict[str, Any] | None) -> tuple[str, int, str]:
        """The command's name, time and id when its MAC is right; raises :class:`Refused`."""
        if command is None:
            raise Refused(Message("mqtt.not_json"))
        if "secret" in command:
            raise Refused(Message("mqtt.secret_sent"))
        name, at, command_id, given = (command.get(k) for k in ("command", "at", "id", "mac"))
        if not (isinstance(at, int) and not isinstance(at, bool) and isinstance(given, str)
                and isinstance(command_id, str) and 0 < len(command_id) <= ID_LENGTH):
            raise Refused(Message("mqtt.unsigned"))
        if name not in COMMANDS:
            raise Refused(Message("mqtt.unknown_command", {"command": str(name),
                                                           "known": ", ".join(COMMANDS)}))
        expected = mac(self.secret, self.table, name, at, command_id)
        if not hmac.compare_digest(given.encode(), expected.encode()):
            raise Refused(Message("mqtt.bad_signature"))
        return name, at, command_id


def event_for(command: str, session: Session) -> dict[str, Any]:
    """The event a command stands for now; raises :class:`Refused` when there is none."""
    if command == "undo":
        return {"type": "undo"}
    expectation = session.expects()
    if expectation.next is not None:
        return expectation.next
    if expectation.kind == "nothing":
        raise Refused(Message("mqtt.game_over"))
    expected = expectation.message.to_json() if expectation.message else None
    raise Refused(Message("mqtt.cannot_confirm", {"expected": expected}))


def handle(payload: bytes, session: Session, guard: Guard) -> dict[str, Any]:
    """Carry out one command; the reply to publish (``ok``, and ``error`` when refused)."""
    reply: dict[str, Any] = {"id": None, "command": None}
    try:
        command = parse(payload)
        if command is not None:
            reply.update(id=command.get("id"), command=command.get("command"))
        event = event_for(guard.check(command), session)
        session.submit(event, source="mqtt")
    except Refused as refusal:
        return {**reply, "ok": False, "error": said(refusal.message, session)}
    except RuleError as error:
        return {**reply, "ok": False, "error": said(Message(error.key, error.params), session)}
    return {**reply, "ok": True, "event": event["type"], "version": session.version}


def said(message: Message, session: Session) -> dict[str, Any]:
    """A refusal as its key and its text in each language."""
    return {"key": message.key, **{lang: render(message, lang, session.game, session.state)
                                   for lang in LANGUAGES}}
