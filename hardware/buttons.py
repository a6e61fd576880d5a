"""Push buttons on GPIO pins (gpiozero), each with a role: ``next``, ``undo``, ``draw``, ``roll``.

A button without a long-press role reports on the press itself (the fastest answer). A button
with one reports a short press on release, and the long role as soon as it has been held
``hold_time`` seconds; holding it longer does nothing more, and neither does a button stuck down.
Contact chatter is filtered twice: by gpiozero's ``bounce_time`` on the pin, and by ignoring the
edges that follow a taken edge within ``bounce_time`` (then reading the pin again).

gpiozero is imported when the buttons start; tests give a ``MockFactory`` as ``pin_factory``.
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable, Mapping
from typing import Any

from .inputs import Emit, Press
from .status import Status

log = logging.getLogger(__name__)


class _Debounced:
    """The press logic of one button, fed with its pin's edges.

    The first edge is taken at once (no added delay); edges in the next ``bounce`` seconds are
    chatter and ignored, and when that quiet time ends the pin is read again, so a release (or
    press) hidden in the chatter is not lost.
    """

    def __init__(self, button: str, role: str, long_role: str, bounce: float, emit: Emit,
                 is_pressed: Callable[[], bool], clock: Callable[[], float]) -> None:
        self.button, self.role, self.long_role = button, role, long_role
        self.bounce, self.emit, self.is_pressed, self.clock = bounce, emit, is_pressed, clock
        self._down = False
        self._held = False
        self._quiet_until = float("-inf")
        self._lock = threading.Lock()

    def edge(self, pressed: bool) -> None:
        """The pin changed (``pressed`` is its new state)."""
        with self._lock:
            if self.clock() < self._quiet_until or pressed == self._down:
                return
            press = self._apply(pressed)
        if press is not None:
            self.emit(press)

    def held(self) -> None:
        """The pin has been pressed for the hold time."""
        with self._lock:
            if not self._down or self._held or not self.long_role:
                return
            self._held = True
        self.emit(Press(self.long_role, self.button, long=True))

    def _apply(self, pressed: bool, settled: bool = False) -> Press | None:
        self._down = pressed
        if self.bounce > 0 and not settled:
            self._quiet_until = self.clock() + self.bounce
            timer = threading.Timer(self.bounce, self._resync)
            timer.daemon = True
            timer.start()
        if pressed:
            self._held = False
            return None if self.long_role else Press(self.role, self.button)
        return Press(self.role, self.button) if self.long_role and not self._held else None

    def _resync(self) -> None:
        with self._lock:
            pressed = self.is_pressed()
            press = self._apply(pressed, settled=True) if pressed != self._down else None
        if press is not None:
            self.emit(press)


class Buttons:
    """The buttons of the box: ``pins`` maps a role to its BCM pin (``False`` if not wired),
    ``long_roles`` a role to what a long press of that button does (``""`` for nothing)."""

    def __init__(self, pins: Mapping[str, int | bool], long_roles: Mapping[str, str] | None = None,
                 bounce_time: float = 0.05, hold_time: float = 1.0, pull_up: bool = True,
                 pin_factory: Any = None, status: Status | None = None,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self.pins = {role: pin for role, pin in pins.items() if pin is not False}
        self.long_roles = dict(long_roles or {})
        self.bounce_time, self.hold_time, self.pull_up = bounce_time, hold_time, pull_up
        self.pin_factory, self.clock = pin_factory, clock
        self.status = status if status is not None else Status()
        self.devices: dict[str, Any] = {}

    def start(self, emit: Emit) -> None:
        """Claim the pins; a pin that cannot be used is reported and the others still work."""
        from gpiozero import BadPinFactory, Button, GPIOZeroError

        for role, pin in self.pins.items():
            name = f"{role} button (GPIO{pin})"
            try:
                device = Button(pin, pull_up=self.pull_up, bounce_time=self.bounce_time or None,
                                hold_time=self.hold_time, pin_factory=self.pin_factory)
            except BadPinFactory as exc:
                self.status.problem("GPIO", f"no GPIO on this machine ({exc}); on a Raspberry "
                                            "Pi: sudo apt install python3-lgpio")
                return
            except (GPIOZeroError, OSError, RuntimeError) as exc:
                self.status.problem(name, f"cannot be used ({exc})")
                continue
            logic = _Debounced(role, role, self.long_roles.get(role, ""), self.bounce_time,
                               emit, lambda device=device: device.is_pressed, self.clock)
            device.when_pressed = lambda _d, logic=logic: logic.edge(True)
            device.when_released = lambda _d, logic=logic: logic.edge(False)
            device.when_held = lambda _d, logic=logic: logic.held()
            if device.is_pressed:
                self.status.problem(name, "is pressed at start: stuck, or wired to the wrong "
                                          "pin, or pull_up is wrong in the config")
            self.devices[role] = device

    def stop(self) -> None:
        """Release the pins."""
        for device in self.devices.values():
            device.close()
        self.devices.clear()
