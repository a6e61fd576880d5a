"""Everything the config describes, built and started around a session.

``start(session, config)`` makes the table and adds the buttons, LEDs, RFID reader and camera
that the config names. A part that is configured but missing is reported once (logged, said
aloud, listed on the host page) and the rest starts anyway. ``companion run`` calls it, and
``companion run --simulate`` too, for the parts a config names explicitly (see :func:`start`).
"""

from __future__ import annotations

import logging
import os
import warnings
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from companion.config import Config
from companion.engine import Message, Session
from companion.speech import Announcer

from .buttons import Buttons, button_device
from .cameras import Camera, OpenCVCamera, PiCamera, ReplayCamera
from .frames import FrameTap
from .leds import Indicator, Lights, RGBLights, SingleLights
from .mockpins import PinControl
from .rfid import TagReader, TagSource
from .rfid.mfrc522 import MFRC522
from .rfid.pn532 import PN532
from .rfid.wedge import KeyboardWedge
from .sources import plugin_sources
from .status import Status
from .table import Table

log = logging.getLogger(__name__)

ROLES = ("next", "undo", "draw", "roll")
#: The status ids of the parts on GPIO pins (the ``pins`` check of ``companion doctor``).
PIN_DEVICES = frozenset({"leds", *map(button_device, ROLES)})
STATES = ("dice", "card", "choice", "host")
#: gpiozero's own way to name a pin factory; ``[general] pin_factory`` wins over it.
PIN_FACTORY_ENV = "GPIOZERO_PIN_FACTORY"


def pin_factory_name(config: Config) -> str:
    """The pin factory named by ``[general] pin_factory`` or ``$GPIOZERO_PIN_FACTORY``; ``""``
    lets gpiozero choose (lgpio on a Pi)."""
    return config["general"]["pin_factory"] or os.environ.get(PIN_FACTORY_ENV, "")


def make_pin_factory(config: Config) -> Any:
    """The named gpiozero pin factory (found the way gpiozero finds them), or None when none is
    named. Raises ImportError, ValueError or a gpiozero error when it cannot start here."""
    name = pin_factory_name(config)
    if not name:
        return None
    from importlib.metadata import entry_points

    found = entry_points(group="gpiozero_pin_factories", name=name)
    if not found:
        raise ValueError(f"gpiozero has no pin factory {name!r}")
    return next(iter(found)).load()()


def make_reader(rfid: Mapping[str, Any]) -> TagReader | None:
    """The RFID reader of the ``[rfid]`` settings, or None when there is none."""
    kind = rfid["reader"]
    if kind == "mfrc522":
        return MFRC522(rfid["spi_bus"], rfid["spi_device"])
    if kind == "pn532":
        return PN532(rfid["i2c_bus"], rfid["i2c_address"])
    if kind == "keyboard":
        return KeyboardWedge(rfid["device"], decimal=rfid["wedge_format"] == "decimal")
    return None


def make_camera(camera: Mapping[str, Any]) -> Camera | None:
    """The camera of the ``[camera]`` settings, or None when there is none."""
    kind, size = camera["kind"], (camera["width"], camera["height"])
    if kind == "picamera2":
        return PiCamera(*size)
    if kind == "opencv":
        return OpenCVCamera(camera["path"] or camera["index"], *size)
    if kind == "replay":
        return ReplayCamera(camera["path"], camera["fps"], loop=camera["loop"])
    return None


def make_lights(leds: Mapping[str, Any], pin_factory: Any = None) -> Lights | None:
    """One LED per state if any is wired, else the RGB LED if its three pins are, else None."""
    singles = {state: leds[state] for state in STATES if leds[state] is not False}
    if singles:
        warning = leds["warning"] if leds["warning"] is not False else None
        return SingleLights(singles, warning, pin_factory)
    if all(leds[c] is not False for c in ("red", "green", "blue")):
        return RGBLights(leds["red"], leds["green"], leds["blue"], leds["common_anode"],
                         pin_factory)
    return None


def make_buttons(buttons: Mapping[str, Any], status: Status, pin_factory: Any = None) -> Buttons:
    """The buttons of the ``[buttons]`` settings."""
    return Buttons({role: buttons[role] for role in ROLES},
                   {role: buttons[f"long_{role}"] for role in ROLES if buttons[f"long_{role}"]},
                   buttons["bounce_time"], buttons["hold_time"], buttons["pull_up"],
                   pin_factory, status, stuck_time=buttons["stuck_time"])


def start(session: Session, config: Config, announcer: Announcer | None = None,
          pin_factory: Any = None, data_dir: Path | None = None,
          simulate: bool = False) -> Table | None:
    """Build the table and start every configured part; returns the table (``stop()`` ends it).

    With ``simulate`` (virtual dice and cards on the page) only what a config names starts: the
    reader and the camera when one is configured, the source plugins of its ``[sources.<name>]``
    tables (:mod:`hardware.sources`), the buttons and LEDs when a pin factory is
    named (``pin_factory``, ``[general] pin_factory`` or ``$GPIOZERO_PIN_FACTORY``); None when
    that is nothing, so a plain ``--simulate`` touches no hardware.
    """
    pins = not simulate or pin_factory is not None or bool(pin_factory_name(config))
    reader, camera = make_reader(config["rfid"]), make_camera(config["camera"])
    if not pins and reader is None and camera is None and not config["sources"]:
        return None

    def tell(device: str, problem: Message | None) -> None:
        if announcer is not None:
            key = "hardware.back" if problem is None else (
                "hardware.config" if device == "config" else "hardware.missing")
            announcer.say(Message(key, {"device": device}))

    status = Status(session.data_dir, tell)
    if config.problems:  # every one of them (one problem per device in the status)
        status.problem("config", Message("doctor.config.problems",
                                         {"problems": [p.to_json() for p in config.problems]}))
    if announcer is not None:
        announcer.on_failure = lambda detail: status.resolved("speech") if detail is None \
            else status.problem("speech", Message("problem.speech", {"detail": detail}))
    table = Table(session, announcer, status=status)
    if pins:
        status.held.add("GPIO")
        with warnings.catch_warnings():  # gpiozero warns about each pin library it cannot load
            warnings.simplefilter("ignore")
            _start_pins(table, config, status, pin_factory)
    if reader is not None:
        status.held.add(reader.name)
        table.add(TagSource(reader, status, window=config["rfid"]["repeat_window"]))
    if camera is not None:
        from .cards import CardWatcher  # needs vision (OpenCV): only with a camera
        from .dice import DiceWatcher

        status.held.add(camera.name)
        table.camera = FrameTap(camera)
        watcher = DiceWatcher(table.camera, session.expects, status, data_dir or session.data_dir,
                              subscribe=session.subscribe)
        table.add(watcher)
        table.actions["roll"] = watcher.read_now
        table.add(CardWatcher(table.camera, session.expects, data_dir or session.data_dir,
                              status))
    for plugin in plugin_sources(config, status, session.expects, data_dir or session.data_dir):
        table.add(plugin)  # a failing plugin is reported by its status; the rest runs
    return table


def _start_pins(table: Table, config: Config, status: Status, pin_factory: Any) -> None:
    try:
        from gpiozero import GPIOZeroError
    except ImportError as exc:
        status.problem("GPIO", Message("problem.no_gpiozero", {"detail": str(exc)}))
        return
    try:
        pin_factory = pin_factory if pin_factory is not None else make_pin_factory(config)
    except (ImportError, ValueError, GPIOZeroError, OSError, RuntimeError) as exc:
        status.problem("GPIO", Message("problem.pin_factory", {"factory": pin_factory_name(config),
                                                               "detail": str(exc)}))
        return
    buttons = make_buttons(config["buttons"], status, pin_factory)
    table.add(buttons)
    _start_mock_fifo(table, config, status, pin_factory, buttons.pins)
    try:
        lights = make_lights(config["leds"], pin_factory)
    except (GPIOZeroError, OSError, ValueError) as exc:  # no pin library, a pin in use...
        status.problem("leds", Message("problem.unusable", {"detail": str(exc)}))
        return
    if lights is not None:
        indicator = Indicator(lights, table.waiting).start()
        indicator.attach(table.session)
        table.on_warning.append(indicator.warn)
        table.outputs.append(indicator)


def _start_mock_fifo(table: Table, config: Config, status: Status, pin_factory: Any,
                     pins: Mapping[str, int]) -> None:
    fifo = config["buttons"]["mock_fifo"]
    if not fifo:
        return
    from gpiozero.pins.mock import MockFactory

    if not isinstance(pin_factory, MockFactory):
        status.problem("config", Message("problem.fifo_needs_mock", {"fifo": fifo}))
        return
    table.add(PinControl(fifo, pin_factory, pins, config["buttons"]["pull_up"], status))
