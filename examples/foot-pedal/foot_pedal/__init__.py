"""A USB foot pedal as a Table Companion input source: a press is the "next" button.

Most USB foot pedals (PCsensor FS2007/FS2016, iKKEGOL, Scythe) are keyboards: a press types one
key, ``b`` out of the box on many of them. The pedal is read from its own input device
(``/dev/input/by-id/...-event-kbd``), never from the terminal, so it works under systemd with no
keyboard focus; the device is grabbed when the kernel allows it, so the key never reaches a
console. Key events are decoded from the kernel's ``struct input_event`` records, so the package
needs no library.

The companion finds the source through the entry point ``foot-pedal`` of the group
``companion.sources`` (see pyproject.toml) and calls :class:`FootPedal` with the settings of the
config table ``[sources.foot-pedal]``::

    [sources.foot-pedal]
    device = "/dev/input/by-id/usb-PCsensor_FootSwitch-event-kbd"
    next = "B"          # the key the pedal types for "next" (a name or a key code)
    undo = ""           # a second pedal, or a three-pedal unit: the key for "undo"
"""

from __future__ import annotations

import contextlib
import fcntl
import os
import select
import struct
import threading
from collections.abc import Callable, Mapping
from typing import Any

from hardware.inputs import Press

__all__ = ["FootPedal", "key_code"]

EVENT = struct.Struct("llHHi")  # struct input_event: timeval, type, code, value
EV_KEY, KEY_DOWN = 0x01, 1  # a held key repeats with value 2: one press, one step
EVIOCGRAB = 0x40044590
#: Key names of linux/input-event-codes.h that pedals are set to type.
KEY_NAMES = {
    **dict(zip("QWERTYUIOP", range(16, 26), strict=True)),
    **dict(zip("ASDFGHJKL", range(30, 39), strict=True)),
    **dict(zip("ZXCVBNM", range(44, 51), strict=True)),
    **dict(zip("1234567890", range(2, 12), strict=True)),
    "ENTER": 28, "SPACE": 57, "TAB": 15, "PAGEUP": 104, "PAGEDOWN": 109, "UP": 103,
    "DOWN": 108, "LEFT": 105, "RIGHT": 106, **{f"F{n}": 58 + n for n in range(1, 11)},
}
SETTINGS = {"device", "next", "undo", "retry"}


def key_code(key: str | int) -> int:
    """The key code of a key name (``"B"``, ``"KEY_PAGEDOWN"``, ``"pagedown"``) or code (48)."""
    if isinstance(key, int) and not isinstance(key, bool) and 0 < key < 768:
        return key
    if isinstance(key, str):
        name = key.upper().removeprefix("KEY_")
        if name in KEY_NAMES:
            return KEY_NAMES[name]
    raise ValueError(f"{key!r} is not a key name ({', '.join(KEY_NAMES)}) or a key code")


class FootPedal:
    """The pedal on ``settings["device"]``; each press of a configured key emits a
    :class:`~hardware.inputs.Press` of its role. ``context`` is the companion's
    :class:`~hardware.sources.SourceContext` (not needed here)."""

    def __init__(self, settings: Mapping[str, Any], context: Any = None) -> None:
        unknown = set(settings) - SETTINGS
        if unknown:
            raise ValueError(f"unknown setting {', '.join(sorted(unknown))} "
                             f"(known: {', '.join(sorted(SETTINGS))})")
        self.device = settings.get("device", "")
        if not isinstance(self.device, str) or not self.device:
            raise ValueError('device = "/dev/input/by-id/...-event-kbd" is missing')
        keys = {"next": settings.get("next", "B"), "undo": settings.get("undo", "")}
        self.roles = {key_code(key): role for role, key in keys.items() if key != ""}
        if len(self.roles) < sum(key != "" for key in keys.values()):
            raise ValueError(f"next and undo are the same key ({keys['next']!r})")
        self.retry = float(settings.get("retry", 2.0))
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        self._problem: str | None = None

    def status(self) -> str | None:
        """What is wrong now (the device is missing, unreadable or was unplugged), else None."""
        if self._thread is None and not os.access(self.device, os.R_OK):
            return f"cannot read {self.device}"
        return self._problem

    def start(self, emit: Callable[[Press], None]) -> None:
        """Read the pedal on a thread of its own; a press calls ``emit``."""
        self._stop.clear()
        self._thread = threading.Thread(target=self._run, args=(emit,), daemon=True,
                                        name=f"foot pedal {self.device}")
        self._thread.start()

    def stop(self) -> None:
        """Stop reading and release the device."""
        self._stop.set()
        if self._thread is not None:
            self._thread.join(5)
        self._thread = None

    def _run(self, emit: Callable[[Press], None]) -> None:
        while not self._stop.is_set():
            try:
                fd = os.open(self.device, os.O_RDONLY | os.O_NONBLOCK)
            except OSError as exc:
                self._problem = f"cannot open {self.device} ({exc.strerror})"
                self._stop.wait(self.retry)
                continue
            with contextlib.suppress(OSError):  # not evdev (a test's pipe), or grabbed already
                fcntl.ioctl(fd, EVIOCGRAB, 1)
            self._problem = None
            try:
                self._read(fd, emit)
            finally:
                os.close(fd)

    def _read(self, fd: int, emit: Callable[[Press], None]) -> None:
        pending = b""
        while not self._stop.is_set():
            ready, _, _ = select.select([fd], [], [], 0.2)
            if not ready:
                continue
            try:
                data = os.read(fd, EVENT.size * 64)
            except BlockingIOError:
                continue
            if not data:
                self._problem = f"{self.device} was closed (pedal unplugged?)"
                self._stop.wait(self.retry)
                return
            pending += data
            whole = len(pending) - len(pending) % EVENT.size
            for _, _, kind, code, value in EVENT.iter_unpack(pending[:whole]):
                if kind == EV_KEY and value == KEY_DOWN and code in self.roles:
                    emit(Press(self.roles[code], "foot pedal"))
            pending = pending[whole:]
