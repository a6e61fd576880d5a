"""Push buttons on GPIO pins (gpiozero), each with a role: ``next``, ``undo``, ``draw``, ``roll``.

A button without a long-press role reports on the press itself (the fastest answer). A button
with one reports a short press on release, and the long role as soon as it has been held
``hold_time`` seconds; holding it longer does nothing more. A button down for ``stuck_time``
seconds (or already down when the companion starts) is reported as stuck, on the host page and
aloud, and reported working again once it comes up: a jammed key or a crushed wire is found
during the game, not at the next reboot. Contact chatter is filtered twice: by gpiozero's
``bounce_time`` on the pin, and by ignoring the edges that follow a taken edge within
``bounce_time`` (then reading the pin again).

gpiozero is imported when the buttons start; tests give a ``MockFactory`` as ``pin_factory``.
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable, Mapping
from typing import Any

from companion.engine import Message

from .inputs import Emit, Press
from .status import Status

log = logging.getLogger(__name__)

def button_device(role: str) -> str:
    """The id under which the ``role`` button's problems are reported (named for people by the
    catalog's ``name.button.<role>``)."""
    return f"button.{role}"


class _Debounced:
    """The press logic of one button, fed with its pin's edges.

    The first edge is taken at once (no added delay); edges in the next ``bounce`` seconds are
    chatter and ignored, and when that quiet time ends the pin is read again, so a release (or
    press) hidden in the chatter is not lost.
    """

    def __init__(self, button: str, role: str, long_role: str, bounce: float, emit: Emit,
                 is_pressed: Callable[[], bool], clock: Callable[[], float],
                 stuck_after: float = float("inf"),
                 on_stuck: Callable[[bool], None] = lambda stuck: None) -> None:
        self.button, self.role, self.long_role = button, role, long_role
        self.bounce, self.emit, self.is_pressed, self.clock = bounce, emit, is_pressed, clock
        self.stuck_after, self.on_stuck = stuck_after, on_stuck
        self._down = is_pressed()  # down at start: stuck until it comes up (see Buttons.start)
        self._stuck = self._down
        self._presses = 0
        self._held = self._down  # so coming up is not taken for a short press
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
        """The pin has been pressed for the hold time, by gpiozero's clock. It is read again:
        on a loaded machine the release of a short press may not have been handled yet, and
        a button already up is a short press, sent when its release is."""
        with self._lock:
            if not self._down or self._held or not self.long_role or not self.is_pressed():
                return
            self._held = True
        self.emit(Press(self.long_role, self.button, long=True))

    def _apply(self, pressed: bool, settled: bool = False) -> Press | None:
        self._down = pressed
        if self.bounce > 0 and not settled:
            self._quiet_until = self.clock() + self.bounce
            _later(self.bounce, self._resync)
        if pressed:
            self._held = False
            self._presses += 1
            if self.stuck_after != float("inf"):
                _later(self.stuck_after, self._check_stuck, self._presses)
            return None if self.long_role else Press(self.role, self.button)
        if self._stuck:
            self._stuck = False
            _later(0, self.on_stuck, False)  # not under the lock: the status may log and speak
        return Press(self.role, self.button) if self.long_role and not self._held else None

    def _check_stuck(self, press: int) -> None:
        with self._lock:
            stuck = self._down and press == self._presses and not self._stuck
            self._stuck = self._stuck or stuck
        if stuck:
            self.on_stuck(True)

    def _resync(self) -> None:
        with self._lock:
            pressed = self.is_pressed()
            press = self._apply(pressed, settled=True) if pressed != self._down else None
        if press is not None:
            self.emit(press)


def _later(seconds: float, call: Callable[..., None], *args: Any) -> None:
    timer = threading.Timer(seconds, call, args)
    timer.daemon = True
    timer.start()


class Buttons:
    """The buttons of the box: ``pins`` maps a role to its BCM pin (``False`` if not wired),
    ``long_roles`` a role to what a long press of that button does (``""`` for nothing); a button
    down for ``stuck_time`` seconds is reported stuck until it comes up."""

    def __init__(self, pins: Mapping[str, int | bool], long_roles: Mapping[str, str] | None = None,
                 bounce_time: float = 0.05, hold_time: float = 1.0, pull_up: bool = True,
                 pin_factory: Any = None, status: Status | None = None,
                 clock: Callable[[], float] = time.monotonic, stuck_time: float = 10.0) -> None:
        self.pins = {role: pin for role, pin in pins.items() if pin is not False}
        self.long_roles = dict(long_roles or {})
        self.bounce_time, self.hold_time, self.pull_up = bounce_time, hold_time, pull_up
        self.stuck_time = stuck_time
        self.pin_factory, self.clock = pin_factory, clock
        self.status = status if status is not None else Status()
        self.devices: dict[str, Any] = {}

    def start(self, emit: Emit) -> None:
        """Claim the pins; a pin that cannot be used is reported and the others still work."""
        from gpiozero import BadPinFactory, Button, GPIOZeroError

        for role, pin in self.pins.items():
            name = button_device(role)
            try:
                device = Button(pin, pull_up=self.pull_up, bounce_time=self.bounce_time or None,
                                hold_time=self.hold_time, pin_factory=self.pin_factory)
            except BadPinFactory as exc:
                self.status.problem("GPIO", Message("problem.no_gpio", {"detail": str(exc)}))
                return
            except (GPIOZeroError, OSError, RuntimeError) as exc:
                self.status.problem(name, Message("problem.pin_unusable",
                                                  {"pin": pin, "detail": str(exc)}))
                continue
            if device.is_pressed:
                self.status.problem(name, Message("problem.pressed_at_start", {"pin": pin}))
            logic = _Debounced(role, role, self.long_roles.get(role, ""), self.bounce_time,
                               emit, lambda device=device: device.is_pressed, self.clock,
                               self.stuck_time, self._stuck_reporter(name, pin))
            device.when_pressed = lambda _d, logic=logic: logic.edge(True)
            device.when_released = lambda _d, logic=logic: logic.edge(False)
            device.when_held = lambda _d, logic=logic: logic.held()
            self.devices[role] = device

    def _stuck_reporter(self, name: str, pin: int) -> Callable[[bool], None]:
        def report(stuck: bool) -> None:
            if stuck:
                self.status.problem(name, Message("problem.stuck",
                                                  {"pin": pin, "seconds": round(self.stuck_time)}))
            else:
                self.status.resolved(name)
        return report

    def stop(self) -> None:
        """Release the pins."""
        for device in self.devices.values():
            device.close()
        self.devices.clear()
