"""RFID readers behind one interface, and the thread that turns reads into swipes.

A :class:`TagReader` driver answers one question, "which tag was presented?", as a
canonical UID (upper-case hex, no separators). :class:`TagSource` polls a reader on its own
thread: a tag held on the reader, or presented again within ``window`` seconds, is one swipe; a
tag read half-way (bad checksum, collision, a keyboard-wedge line cut short) is ignored; a reader
that stops answering is reported once and reopened until it comes back.

Drivers: :mod:`.mfrc522` (SPI), :mod:`.pn532` (I2C), :mod:`.wedge` (USB keyboard-wedge readers,
read from their input device). A new reader is one file with a :class:`TagReader` subclass.
"""

from __future__ import annotations

import logging
import time
from abc import ABC, abstractmethod
from collections.abc import Callable

from companion.engine import Message
from companion.engine.tags import canonical_uid
from hardware.inputs import Emit, Swipe, Worker
from hardware.status import Status

log = logging.getLogger(__name__)




class ReaderError(OSError):
    """The reader is missing or does not answer."""


class PartialRead(Exception):
    """A tag was read half-way: the read is dropped, the reader is fine."""


class TagReader(ABC):
    """One RFID reader: :meth:`open` it, ask :meth:`read_uid` again and again, :meth:`close` it.
    Readers the host must poll derive from :class:`PollingReader` instead."""

    #: How the reader is named in messages ("MFRC522 on /dev/spidev0.0").
    name: str = "RFID reader"

    @abstractmethod
    def open(self) -> str:
        """Connect and check the reader answers; return what it is (firmware, version).
        Raises :class:`ReaderError` when it does not."""

    @abstractmethod
    def read_uid(self, timeout: float) -> str | None:
        """The canonical UID of a tag seen within ``timeout`` seconds, or None."""

    @abstractmethod
    def close(self) -> None:
        """Release the device."""


class PollingReader(TagReader):
    """A reader that answers "which tag is in the field now?" when asked (:meth:`poll`)."""

    _next_poll = 0.0

    @abstractmethod
    def poll(self) -> bytes | None:
        """The raw UID of a tag in the field now, or None."""

    def read_uid(self, timeout: float) -> str | None:
        """Poll once, at most every ``timeout`` seconds (a tag held on the reader included)."""
        wait = self._next_poll - time.monotonic()
        if wait > 0:
            time.sleep(wait)
        self._next_poll = time.monotonic() + timeout
        raw = self.poll()
        return None if raw is None else canonical_uid(raw)


class TagSource(Worker):
    """Runs a reader on its own thread and emits one :class:`~hardware.inputs.Swipe` per tag
    presentation.

    ``window`` is how long (seconds) after its last read the same tag still counts as the same
    swipe; ``interval`` is the polling period; ``retry`` the wait before reopening a reader that
    failed.
    """

    def __init__(self, reader: TagReader, status: Status | None = None, window: float = 1.0,
                 interval: float = 0.02, retry: float = 2.0,
                 clock: Callable[[], float] = time.monotonic) -> None:
        super().__init__()
        self.reader, self.window, self.interval, self.retry = reader, window, interval, retry
        self.status = status if status is not None else Status()
        self.clock = clock
        self.partial_reads = 0
        self._last: tuple[str, float] | None = None

    def start(self, emit: Emit) -> None:
        """Start polling on a thread of its own."""
        self._launch(self._run, emit, name=f"rfid {self.reader.name}")

    def _run(self, emit: Emit) -> None:
        opened = False
        while not self._stop.is_set():
            try:
                if not opened:
                    log.info("%s: %s", self.reader.name, self.reader.open())
                    opened = True
                    self.status.resolved(self.reader.name)
                uid = self.reader.read_uid(self.interval)
            except (PartialRead, ValueError) as exc:
                self.partial_reads += 1
                log.info("%s: tag read half-way (%s); ignored", self.reader.name, exc)
                continue
            except OSError as exc:
                self.status.problem(self.reader.name,
                                    Message("problem.not_answering", {"detail": str(exc)}))
                if opened:
                    self.reader.close()
                    opened = False
                self._stop.wait(self.retry)
                continue
            if uid is not None:
                self._seen(uid, emit)
        if opened:
            self.reader.close()

    def _seen(self, uid: str, emit: Emit) -> None:
        now = self.clock()
        same = self._last is not None and self._last[0] == uid \
            and now - self._last[1] < self.window
        self._last = (uid, now)
        if not same:
            emit(Swipe(uid, self.reader.name))
