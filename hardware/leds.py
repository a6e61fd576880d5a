"""LEDs that show what the companion waits for, and flash on a warning.

Two wirings: one RGB LED (a colour per state) or one LED per state plus a warning LED. What
the companion waits for is one of ``setup``, ``card``, ``dice``, ``choice`` (a press of next
confirms), ``host`` (a decision on the phone), ``action`` (the hero's free actions) or
``nothing``. The :class:`Indicator` updates the LEDs on its own thread, so the session's
listener only sets a flag.

gpiozero is imported when the lights are made; tests give a ``MockFactory`` as ``pin_factory``.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Mapping
from typing import Any, Protocol

from companion.engine import Session

#: The RGB LED's colour for each state (on/off channels: no PWM needed).
COLOURS: dict[str, tuple[int, int, int]] = {
    "setup": (0, 1, 1), "card": (0, 1, 0), "dice": (0, 0, 1), "choice": (1, 1, 0),
    "host": (1, 0, 1), "action": (1, 1, 1), "nothing": (0, 0, 0)}
WARNING_COLOUR = (1, 0, 0)
FLASH = {"on_time": 0.15, "off_time": 0.1, "n": 3}


class Lights(Protocol):
    """Something that can show a state and flash."""

    def show(self, what: str) -> None:
        """Show what the companion waits for."""

    def flash(self) -> None:
        """Flash a warning (blocking for its duration)."""

    def close(self) -> None:
        """Release the pins."""


class RGBLights:
    """One RGB LED on three pins (``common_anode`` for the anode-to-3.3 V kind)."""

    def __init__(self, red: int, green: int, blue: int, common_anode: bool = False,
                 pin_factory: Any = None) -> None:
        from gpiozero import RGBLED

        self.led = RGBLED(red, green, blue, active_high=not common_anode, pwm=False,
                          pin_factory=pin_factory)
        self._what = "nothing"

    def show(self, what: str) -> None:
        """Light the state's colour."""
        self._what = what
        self.led.color = COLOURS.get(what, COLOURS["nothing"])

    def flash(self) -> None:
        """Blink red three times, then show the state again."""
        self.led.blink(on_color=WARNING_COLOUR, off_color=(0, 0, 0), background=False, **FLASH)
        self.show(self._what)

    def close(self) -> None:
        """Release the pins."""
        self.led.close()


class SingleLights:
    """One LED per state (``pins`` maps states to pins) and an optional warning LED."""

    def __init__(self, pins: Mapping[str, int], warning: int | None = None,
                 pin_factory: Any = None) -> None:
        from gpiozero import LED

        self.leds = {what: LED(pin, pin_factory=pin_factory) for what, pin in pins.items()}
        self.warning = LED(warning, pin_factory=pin_factory) if warning is not None else None

    def show(self, what: str) -> None:
        """Light the state's LED only."""
        for state, led in self.leds.items():
            led.value = state == what

    def flash(self) -> None:
        """Blink the warning LED three times."""
        if self.warning is not None:
            self.warning.blink(background=False, **FLASH)

    def close(self) -> None:
        """Release the pins."""
        for led in [*self.leds.values(), *([self.warning] if self.warning else [])]:
            led.close()


class Indicator:
    """Keeps ``lights`` showing ``waiting()`` (re-read after each update of the session) and
    flashes them on :meth:`warn`, on a thread of its own."""

    def __init__(self, lights: Lights, waiting: Callable[[], str]) -> None:
        self.lights, self.waiting = lights, waiting
        self._wake = threading.Condition()
        self._dirty, self._flashes, self._running = True, 0, False
        self._thread: threading.Thread | None = None
        self._unsubscribe: Callable[[], None] | None = None
        self.shown: str | None = None

    def attach(self, session: Session) -> None:
        """Refresh after every accepted event of ``session``."""
        self._unsubscribe = session.subscribe(lambda _update: self.refresh())

    def refresh(self, *_: Any) -> None:
        """Ask for the LEDs to be brought up to date (never blocks)."""
        with self._wake:
            self._dirty = True
            self._wake.notify()

    def warn(self, *_: Any) -> None:
        """Ask for a warning flash (never blocks)."""
        with self._wake:
            self._flashes += 1
            self._wake.notify()

    def start(self) -> Indicator:
        """Start the LED thread."""
        self._running = True
        self._thread = threading.Thread(target=self._run, name="leds", daemon=True)
        self._thread.start()
        return self

    def stop(self) -> None:
        """Stop the thread, turn the LEDs off and release them."""
        if self._unsubscribe is not None:
            self._unsubscribe()
        with self._wake:
            self._running = False
            self._wake.notify()
        if self._thread is not None:
            self._thread.join(5)
        self.lights.show("nothing")
        self.lights.close()

    def _run(self) -> None:
        while True:
            with self._wake:
                self._wake.wait_for(lambda: self._dirty or self._flashes or not self._running)
                if not self._running:
                    return
                flash, self._flashes = self._flashes > 0, 0
                self._dirty = False
            if flash:
                self.lights.flash()
            self.shown = self.waiting()
            self.lights.show(self.shown)
