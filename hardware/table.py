"""The table: where input records meet the session.

A ``next`` press sends the event the game suggests now (its expectation's ``next``), a tag swipe
fills the card blank of the event the game expects (through the tag map), and anything refused
is said aloud as a warning and flashes the LEDs; the companion keeps running. An unknown tag is
asked about (aloud, and on the host page through :meth:`Table.pending`); the next card given
another way (the phone) or :meth:`Table.enroll` teaches it.
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable, Mapping
from concurrent.futures import ThreadPoolExecutor
from typing import Any

from companion.engine import Expectation, Message, RuleError, Session, Step, Template, Update
from companion.engine.tags import TagMap
from companion.speech import RESULT, WARNING, Announcer

from .frames import FrameTap
from .inputs import Press, Record, Source, Swipe
from .status import Status

log = logging.getLogger(__name__)

#: How long an unknown tag waits for the card it stands for, in seconds.
ENROL_WINDOW = 120.0


class Table:
    """Routes what the sources report to the session, and speaks the refusals.

    ``actions`` maps the button roles that are not events (``repeat``, ``draw``, ``roll``) to
    what they do; by default each says again what the companion waits for. The camera binds
    ``roll`` to reading the dice at once; a simulator may bind ``draw`` to a virtual card.
    ``camera`` is the running camera's frame tap (its last frame, for the host page's camera
    view), or None without a camera.
    """

    def __init__(self, session: Session, announcer: Announcer | None = None,
                 tags: TagMap | None = None, status: Status | None = None) -> None:
        self.session, self.announcer = session, announcer
        self.tags = tags if tags is not None else TagMap(session.data_dir)
        self.status = status if status is not None else Status(session.data_dir)
        self.sources: list[Source] = []
        self.outputs: list[Any] = []  # things with a stop(), stopped after the sources (LEDs)
        self.actions: dict[str, Callable[[], None]] = {
            "repeat": self.repeat, "draw": self.repeat, "roll": self.repeat}
        self.on_warning: list[Callable[[Message], None]] = []
        self.camera: FrameTap | None = None
        self.pending_tag: tuple[str, float] | None = None
        self._asked: Template | None = None  # the card event waiting when the tag was unknown
        self._tag_lock = threading.Lock()  # the reader's thread, the web and the worker name tags
        self._worker = ThreadPoolExecutor(1, thread_name_prefix="table")
        self._unsubscribe = session.subscribe(self._on_update)

    # -- sources ---------------------------------------------------------------------------------

    def add(self, source: Source) -> Source:
        """Start a source reporting to this table."""
        source.start(self.emit)
        self.sources.append(source)
        return source

    def stop(self) -> None:
        """Stop every source and stop listening to the session."""
        for part in [*reversed(self.sources), *self.outputs]:
            part.stop()
        self.sources.clear()
        self.outputs.clear()
        self._unsubscribe()
        self._worker.shutdown(wait=True)

    def emit(self, record: Record) -> None:
        """Take one record from a source (any thread)."""
        if isinstance(record, Press):
            self.press(record)
        elif isinstance(record, Swipe):
            self.swipe(record)
        elif isinstance(record, Message):
            self.warn(record)
        else:
            self.submit(record)

    # -- what records become -------------------------------------------------------------------

    def submit(self, event: Mapping[str, Any], source: str | None = None) -> Step | None:
        """Submit an event; a refusal is said as a warning and gives None."""
        try:
            return self.session.submit(event, source=source)
        except RuleError as error:
            self.warn(Message(error.key, error.params))
            return None

    def warn(self, message: Message) -> None:
        """Say a warning and flash the LEDs."""
        log.info("warning: %s %s", message.key, message.params)
        if self.announcer is not None:
            self.announcer.say(message, WARNING)
        for listener in self.on_warning:
            listener(message)

    def repeat(self) -> None:
        """Say again what the companion waits for."""
        expectation = self.session.expects()
        message = expectation.message or Message("press.game_over")
        if self.announcer is not None:
            self.announcer.say(message, RESULT)

    def waiting(self) -> str:
        """What the LEDs should show now (see :func:`waiting_for`)."""
        return waiting_for(self.session.expects())

    def press(self, press: Press) -> None:
        """A button press: an action, an undo, or the confirmation of what is suggested."""
        if press.role in self.actions:
            self.actions[press.role]()
        elif press.role == "undo":
            self.submit({"type": "undo"}, "button")
        elif press.role == "next":
            expectation = self.session.expects()
            if expectation.next is not None:
                self.submit(expectation.next, "button")
            elif expectation.kind == "nothing":
                self.warn(Message("press.game_over"))
            else:
                message = expectation.message.to_json() if expectation.message else None
                self.warn(Message("press.cannot_confirm", {"expected": message}))
        else:
            log.warning("button %s has an unknown role %r", press.button, press.role)

    def swipe(self, swipe: Swipe) -> None:
        """A tag swipe: the card it stands for, or a question when the tag is unknown."""
        game = self.session.game.id if self.session.game else None
        card = self.tags.card(swipe.uid, game)
        template = self.session.expects().template("card")
        if template is not None and template.blank.extra:
            template = None  # several cards (AoT's commit): one swipe is not all of them
        with self._tag_lock:
            self.pending_tag = None if card is not None else (swipe.uid, time.monotonic())
            self._asked = template
        if card is not None and template is not None:
            self.submit(template.fill(card), "rfid")
        elif card is not None:
            self.warn(Message("tags.not_now", {"card": card}))
        else:
            self.warn(Message("tags.unknown", {"uid": swipe.uid}))
        self.status.tag_seen(swipe.uid, swipe.reader, card)

    def pending(self) -> tuple[str, float] | None:
        """The unknown tag waiting to be named and the seconds left to name it, or None."""
        with self._tag_lock:
            pending = self.pending_tag
        left = ENROL_WINDOW - (time.monotonic() - pending[1]) if pending is not None else 0.0
        return (pending[0], left) if pending is not None and left > 0 else None

    def enroll(self, card: str) -> str | None:
        """Teach the waiting unknown tag that it is ``card``; return its UID (None if none).

        A second caller (the worker and the web may both name it) waits until the first has
        written the tag map, so that the tag is known when either returns.
        """
        with self._tag_lock:
            pending = self.pending_tag
            if pending is None or time.monotonic() - pending[1] > ENROL_WINDOW:
                self.pending_tag = None
                return None
            game = self.session.game.id if self.session.game else None
            self.tags.enroll(pending[0], card, game)  # a refused write leaves the tag waiting
            self.pending_tag = None
        if self.announcer is not None:
            self.announcer.say(Message("tags.enrolled", {"uid": pending[0], "card": card}),
                               RESULT)
        return pending[0]

    def _on_update(self, update: Update) -> None:
        asked = self._asked
        if self.pending_tag is not None and asked is not None and asked.blank is not None \
                and update.event.type == asked.type and update.event.source != "rfid":
            card = update.event.fields.get(asked.blank.field)
            if isinstance(card, str):
                self._worker.submit(self.enroll, card)


def waiting_for(expectation: Expectation) -> str:
    """What the table must provide, as the LEDs show it: ``setup``, ``card``, ``dice``,
    ``choice`` (a press confirms), ``host`` (a decision on the phone), ``action`` or
    ``nothing``."""
    if expectation.kind == "choice":
        return "choice" if expectation.next is not None else "host"
    return expectation.kind
