"""Pressing the buttons of a box that has no pins: gpiozero's mock pins, driven through a FIFO.

With ``[general] pin_factory = "mock"`` the buttons and LEDs run on gpiozero's ``MockFactory``,
which only code inside the companion can drive. ``[buttons] mock_fifo`` names a FIFO (made if
missing) whose lines drive the button pins, so a tinkerer can try a config at a desk and a test
can press buttons of a ``companion run`` in another process::

    echo next > /tmp/companion-buttons       # press and release the next button
    echo 17 > /tmp/companion-buttons         # the same, by its BCM pin
    echo "17 down" > /tmp/companion-buttons  # hold it down ... then "17 up"

The pins go through the real gpiozero buttons, so bounce time, hold time and long presses behave
as on a Pi. A line that names no button is logged and ignored.
"""

from __future__ import annotations

import logging
import os
import select
import stat
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from companion.engine import Message

from .inputs import Emit, Worker
from .status import Status

log = logging.getLogger(__name__)

#: How long a bare ``next`` or ``17`` holds the button down, in seconds.
PRESS_TIME = 0.1


class PinControl(Worker):
    """Reads ``path`` on a thread of its own and drives the mock pins of ``factory``.

    ``pins`` maps a button role to its BCM pin; ``pull_up`` (as in ``[buttons]``) says which
    level a pressed button reads.
    """

    def __init__(self, path: Path | str, factory: Any, pins: Mapping[str, int],
                 pull_up: bool = True, status: Status | None = None) -> None:
        super().__init__()
        self.path, self.factory, self.pull_up = Path(path), factory, pull_up
        self.pins = dict(pins)
        self.status = status if status is not None else Status()
        self.name = f"button FIFO {self.path}"

    def start(self, emit: Emit) -> None:
        """Open the FIFO (making it if missing) and start reading; the buttons do the emitting."""
        try:
            if not self.path.exists():
                os.mkfifo(self.path)
            if not stat.S_ISFIFO(self.path.stat().st_mode):
                raise OSError(f"{self.path} is not a FIFO (make one with mkfifo)")
            fd = os.open(self.path, os.O_RDWR | os.O_NONBLOCK)  # RDWR: no EOF between writers
        except OSError as exc:
            self.status.problem(self.name, Message("problem.unusable", {"detail": str(exc)}))
            return
        self._launch(self._run, fd, name=self.name)

    def command(self, line: str) -> None:
        """Carry out one line: ``ROLE`` or ``PIN`` presses, ``... down`` and ``... up`` hold and
        release."""
        words = line.split()
        if not words:
            return
        name, action = words[0], (words[1:] or ["press"])[0]
        pin = self.pins.get(name, int(name) if name.isdigit() else None)
        if pin not in self.pins.values() or action not in ("press", "down", "up") \
                or len(words) > 2:
            log.warning("%s: %r names no button (known: %s)", self.name, line,
                        ", ".join(f"{role} {pin}" for role, pin in self.pins.items()))
            return
        mock = self.factory.pin(pin)
        pressed, released = (mock.drive_low, mock.drive_high) if self.pull_up \
            else (mock.drive_high, mock.drive_low)
        if action in ("press", "down"):
            pressed()
        if action == "press":
            self._stop.wait(PRESS_TIME)
        if action in ("press", "up"):
            released()

    def _run(self, fd: int) -> None:
        pending = b""
        try:
            while not self._stop.is_set():
                ready, _, _ = select.select([fd], [], [], 0.2)
                if not ready:
                    continue
                pending += os.read(fd, 4096)
                *lines, pending = pending.split(b"\n")
                for line in lines:
                    self.command(line.decode("utf-8", "replace"))
        finally:
            os.close(fd)
