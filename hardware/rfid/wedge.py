"""USB keyboard-wedge readers: they "type" the UID and Enter on a keyboard of their own.

The reader is read from its input device (``/dev/input/by-id/...-event-kbd``), never from the
terminal, so it works with no keyboard focus, under systemd, and without the digits reaching a
console (the device is grabbed when the kernel allows it). Key events are decoded from the raw
``struct input_event`` records, so no library is needed. A line cut short (no Enter within
``line_timeout``) or holding a non-hex key is a tag read half-way.
"""

from __future__ import annotations

import contextlib
import fcntl
import os
import select
import struct
import time
from collections import deque

from companion.engine.tags import canonical_uid

from . import PartialRead, ReaderError, TagReader

EVENT = struct.Struct("llHHi")  # struct input_event: timeval, type, code, value
EV_KEY, KEY_DOWN = 0x01, 1
EVIOCGRAB = 0x40044590
ENTER = {28, 96}  # KEY_ENTER, KEY_KPENTER
KEYS = {2: "1", 3: "2", 4: "3", 5: "4", 6: "5", 7: "6", 8: "7", 9: "8", 10: "9", 11: "0",
        30: "A", 48: "B", 46: "C", 32: "D", 18: "E", 33: "F",
        79: "1", 80: "2", 81: "3", 75: "4", 76: "5", 77: "6", 71: "7", 72: "8", 73: "9",
        82: "0"}
SHIFTS = {42, 54}  # readers that type upper-case hex press shift: ignored


def uid_from_line(line: str, decimal: bool) -> str:
    """The canonical UID a reader typed: hex as it is, or a decimal number (many cheap
    125 kHz and 13.56 MHz readers type the UID as a 10-digit number) turned into 4+ hex bytes."""
    if decimal:
        if not line.isdigit():
            raise PartialRead(f"not a decimal UID: {line!r}")
        number = int(line)
        return canonical_uid(number.to_bytes(max(4, (number.bit_length() + 7) // 8), "big"))
    try:
        return canonical_uid(line)
    except ValueError:
        raise PartialRead(f"not a hex UID: {line!r}") from None


class KeyboardWedge(TagReader):
    """A keyboard-wedge reader on an input device path; ``decimal`` when it types numbers."""

    def __init__(self, device: str, decimal: bool = False, line_timeout: float = 0.5) -> None:
        self.device, self.decimal, self.line_timeout = device, decimal, line_timeout
        self.name = f"keyboard-wedge reader {device}"
        self._fd: int | None = None
        self._line = ""
        self._started = 0.0
        self._pending = b""
        self._lines: deque[str | PartialRead] = deque()
        self._broken: int | None = None  # the first unexpected key of the current line

    def open(self) -> str:
        """Open (and if possible grab) the input device."""
        if not self.device:
            raise ReaderError("no input device configured ([rfid] device = \"/dev/input/by-id/"
                              "...-event-kbd\")")
        self._fd = os.open(self.device, os.O_RDONLY | os.O_NONBLOCK)
        # not an evdev device (a test's pipe) or already grabbed: the keys still arrive
        with contextlib.suppress(OSError):
            fcntl.ioctl(self._fd, EVIOCGRAB, 1)
        self._line, self._pending, self._broken = "", b"", None
        self._lines.clear()
        return f"input device {self.device}"

    def read_uid(self, timeout: float) -> str | None:
        """The UID typed within ``timeout`` seconds (a line ended by Enter), or None."""
        deadline = time.monotonic() + timeout
        while (left := deadline - time.monotonic()) > 0:
            if self._lines:
                line = self._lines.popleft()
                if isinstance(line, PartialRead):
                    raise line
                return line
            if (self._line or self._broken is not None) \
                    and time.monotonic() - self._started > self.line_timeout:
                line, self._line, self._broken = self._line, "", None
                raise PartialRead(f"no Enter after {line!r}")
            ready, _, _ = select.select([self._fd], [], [], min(left, self.line_timeout))
            if not ready:
                continue
            data = os.read(self._fd, EVENT.size * 64)
            if not data:
                raise ReaderError(f"{self.device} was closed (reader unplugged?)")
            self._feed(data)
        return None

    def _feed(self, data: bytes) -> None:
        self._pending += data
        whole = len(self._pending) - len(self._pending) % EVENT.size
        records, self._pending = self._pending[:whole], self._pending[whole:]
        for _, _, kind, code, value in EVENT.iter_unpack(records):
            if kind != EV_KEY or value != KEY_DOWN or code in SHIFTS:
                continue
            if code in ENTER:
                line, broken, self._line, self._broken = self._line, self._broken, "", None
                if broken is not None:
                    self._lines.append(PartialRead(f"unexpected key code {broken} in {line!r}"))
                elif line:
                    self._lines.append(self._decode(line))
                continue
            if not self._line:
                self._started = time.monotonic()
            if code in KEYS:
                self._line += KEYS[code]
            elif self._broken is None:
                self._broken = code

    def _decode(self, line: str) -> str | PartialRead:
        try:
            return uid_from_line(line, self.decimal)
        except PartialRead as exc:
            return exc

    def close(self) -> None:
        """Close the input device."""
        if self._fd is not None:
            os.close(self._fd)
            self._fd = None
