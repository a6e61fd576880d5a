"""Commands from the broker: the "next" button and undo, answered on the reply topic.

A command is a JSON object ``{"command": "next" | "undo", "secret": "...", "id": ...}`` on the
table's command topic. Two locks guard it: the broker's (only a user its ACL lets write the
topic can send one; docs/hardware.md has the mosquitto files) and the shared ``[mqtt]
command_secret``, compared in constant time. ``next`` is what the "next" button means now (the
game's expectation's ``next`` event) and is refused when the game waits for something a press
cannot give; ``undo`` goes back one step. Every command gets one reply: ``ok`` with the
journal version, or the refusal's message key and its text in French and English; a refused
command changes nothing.
"""

from __future__ import annotations

import hmac
import json
from typing import Any

from companion.engine import Message, RuleError, Session
from companion.i18n import LANGUAGES, render

COMMANDS = ("next", "undo")


class Refused(Exception):
    """A command that is not carried out, with the message that says why."""

    def __init__(self, message: Message) -> None:
        super().__init__(message.key)
        self.message = message


def parse(payload: bytes) -> dict[str, Any]:
    """The command object of a payload; raises :class:`Refused` when it is not one."""
    try:
        command = json.loads(payload)
    except (UnicodeDecodeError, ValueError):
        raise Refused(Message("mqtt.not_json")) from None
    if not isinstance(command, dict):
        raise Refused(Message("mqtt.not_json"))
    return command


def check(command: dict[str, Any], secret: str) -> str:
    """The command's name when its secret is right and it is known; raises :class:`Refused`."""
    given = command.get("secret")
    if not isinstance(given, str) or not hmac.compare_digest(given.encode(), secret.encode()):
        raise Refused(Message("mqtt.bad_secret"))
    if command.get("command") not in COMMANDS:
        raise Refused(Message("mqtt.unknown_command", {"command": str(command.get("command")),
                                                       "known": ", ".join(COMMANDS)}))
    return command["command"]


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


def handle(payload: bytes, session: Session, secret: str) -> dict[str, Any]:
    """Carry out one command; the reply to publish (``ok``, and ``error`` when refused)."""
    reply: dict[str, Any] = {"id": None, "command": None}
    try:
        command = parse(payload)
        reply.update(id=command.get("id"), command=command.get("command"))
        event = event_for(check(command, secret), session)
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
