"""``companion doctor``: what is wrong with the box, and how to fix it.

Each check looks at one thing (the config files, SPI, I2C, the RFID reader, the camera, the
pins, the voice) and says ok, failing (with the fix), or not needed with this config. The last
raw tag UID seen is shown too: when the reader works but a card never shows up, it tells whether
the tag was read at all. The host page shows the same list (``[c.to_json() for c in run(...)]``);
there the companion already holds the reader, camera and pins, so their state is read from its
live :class:`~hardware.status.Status` instead of opening them a second time.
"""

from __future__ import annotations

import shutil
import time
import warnings
from collections import Counter
from collections.abc import Callable
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

from companion.config import Config

from .build import ROLES, make_camera, make_pin_factory, make_reader
from .cameras import CameraError
from .status import Status, last_tag
from .tags import TagMap

READER_FIXES = {
    "mfrc522": "check the wiring (SDA to CE0 pin 24, SCK pin 23, MOSI pin 19, MISO pin 21, "
               "RST and 3.3V to pin 17, never 5 V) and that no other program uses the reader",
    "pn532": "set the board's switches to I2C, check `i2cdetect -y 1` shows 24, and the wiring "
             "(SDA pin 3, SCL pin 5, 3.3 V)",
    "keyboard": "set [rfid] device to the reader's /dev/input/by-id/...-event-kbd, and add the "
                "companion user to the input group (sudo adduser companion input)",
}


PIN_FACTORY_FIX = ("on a Raspberry Pi: sudo apt install python3-lgpio, and a virtual environment "
                   "made with --system-site-packages; at a desk: [general] pin_factory = \"mock\"")


@dataclass(frozen=True)
class Check:
    """One finding: ``ok`` is True, False (then ``fix`` says what to do) or None (not needed)."""

    name: str
    ok: bool | None
    detail: str
    fix: str = ""

    def to_json(self) -> dict[str, Any]:
        """The finding as JSON-ready data."""
        return asdict(self)


def check_config(config: Config) -> Check:
    """The config files parse and hold only known keys."""
    if config.problems:
        return Check("config", False, "; ".join(config.problems),
                     "edit the file at the line named; `companion config` shows what is used")
    files = ", ".join(map(str, config.files)) or "no config file: defaults only"
    return Check("config", True, files)


def check_bus(config: Config, dev: Path, kind: str) -> Check:
    """SPI (for an MFRC522) or I2C (for a PN532) is enabled when the reader needs it."""
    rfid = config["rfid"]
    if kind == "SPI":
        needed = rfid["reader"] == "mfrc522"
        path = dev / f"spidev{rfid['spi_bus']}.{rfid['spi_device']}"
        fix = "sudo raspi-config nonint do_spi 0, then reboot"
    else:
        needed, path = rfid["reader"] == "pn532", dev / f"i2c-{rfid['i2c_bus']}"
        fix = "sudo raspi-config nonint do_i2c 0, then reboot"
    if not needed:
        return Check(kind, None, f"not needed (reader: {rfid['reader']})")
    if path.exists():
        return Check(kind, True, f"{path} is there")
    return Check(kind, False, f"{path} is missing: {kind} is not enabled", fix)


def check_reader(config: Config) -> Check:
    """The RFID reader answers."""
    kind = config["rfid"]["reader"]
    reader = make_reader(config["rfid"])
    if reader is None:
        return Check("RFID reader", None, "none configured ([rfid] reader)")
    try:
        found = reader.open()
    except OSError as exc:
        return Check("RFID reader", False, f"{reader.name}: {exc}", READER_FIXES[kind])
    reader.close()
    return Check("RFID reader", True, f"{reader.name}: {found}")


CAMERA_FIXES = {
    "picamera2": "check the ribbon cable and camera_auto_detect=1 in /boot/firmware/config.txt; "
                 "`rpicam-hello --list-cameras` lists it",
    "opencv": "plug the webcam in; `ls /dev/video*` lists the devices; set [camera] index",
    "replay": "set [camera] path to a video file or a folder of images",
}


def check_camera(config: Config) -> Check:
    """The configured camera gives a frame."""
    camera = make_camera(config["camera"])
    if camera is None:
        return Check("camera", None, "none configured ([camera] kind)")
    try:
        camera.open()
        camera.read()
    except (CameraError, StopIteration) as exc:
        return Check("camera", False, f"{camera.name}: {exc}",
                     CAMERA_FIXES[config["camera"]["kind"]])
    finally:
        camera.close()
    return Check("camera", True, f"{camera.name} gives frames")


def check_held(name: str, device: str, live: Status, fix: str) -> Check:
    """A device the running companion holds: working unless its status names a problem."""
    problems = [f"{d}: {p}" for d, p in live.snapshot()["problems"].items()
                if d == device or (device == "GPIO" and (d == "LEDs" or "(GPIO" in d))]
    if problems:
        return Check(name, False, "; ".join(problems), fix)
    return Check(name, True, f"{device}: working, in use by the running companion")


def check_pins(config: Config, pin_factory: Any = None) -> Check:
    """The configured pins are distinct and free."""
    pins = {f"button {role}": config["buttons"][role] for role in ROLES}
    pins.update({f"LED {name}": pin for name, pin in config["leds"].items()
                 if name != "common_anode" and pin is not False})
    used = {name: pin for name, pin in pins.items() if pin is not False}
    twice = [pin for pin, count in Counter(used.values()).items() if count > 1]
    if twice:
        names = ", ".join(n for n, p in used.items() if p in twice)
        return Check("pins", False, f"GPIO{twice[0]} is given twice ({names})",
                     "give each button and LED its own pin in the config")
    with warnings.catch_warnings():  # gpiozero warns about each pin library it cannot load
        warnings.simplefilter("ignore")
        try:
            from gpiozero import BadPinFactory, DigitalInputDevice, GPIOZeroError
        except ImportError as exc:
            return Check("pins", False, f"gpiozero is missing ({exc})",
                         "pip install gpiozero in the companion's environment")
        try:
            pin_factory = pin_factory if pin_factory is not None else make_pin_factory(config)
        except (ImportError, ValueError, GPIOZeroError, OSError, RuntimeError) as exc:
            return Check("pins", False, f"the pin factory cannot start ({exc})", PIN_FACTORY_FIX)
        for name, pin in used.items():
            try:
                DigitalInputDevice(pin, pin_factory=pin_factory).close()
            except BadPinFactory as exc:
                return Check("pins", False, f"no GPIO access here ({exc})", PIN_FACTORY_FIX)
            except GPIOZeroError as exc:
                return Check("pins", False, f"{name} (GPIO{pin}): {exc}",
                             "another program holds the pin (the companion service? "
                             "sudo systemctl stop companion), or change it in the config")
    return Check("pins", True, ", ".join(f"{n} GPIO{p}" for n, p in used.items()) or "none")


def check_speech(config: Config, which: Callable[[str], str | None] = shutil.which) -> Check:
    """The speech back end can start."""
    speech = config["speech"]
    backend = speech["backend"] if speech["enabled"] else "silent"
    if backend == "silent":
        return Check("speech", None, "silent")
    if which("espeak-ng") is None:
        return Check("speech", False, "espeak-ng is not installed", "sudo apt install espeak-ng")
    if backend == "pyttsx3":
        try:
            import pyttsx3

            pyttsx3.init()
        except (ImportError, RuntimeError, OSError) as exc:
            return Check("speech", False, f"pyttsx3 cannot start ({exc})",
                         "pip install pyttsx3 in the companion's environment, or set "
                         "[speech] backend = \"espeak-ng\"")
    return Check("speech", True, f"{backend} with espeak-ng")


def check_last_tag(data_dir: Path) -> Check:
    """The last raw tag UID read by the running companion, and when."""
    seen = last_tag(data_dir)
    if seen is None:
        return Check("last tag", None, "no tag read yet (swipe one while the companion runs: if "
                                       "nothing shows here, the reader does not see the tag)")
    when = time.strftime("%Y-%m-%d %H:%M:%S", time.localtime(seen["at"]))
    card = TagMap(data_dir).card(seen["uid"])
    meaning = f"card {card}" if card else "unknown tag: `companion tags enroll CARD --uid UID`"
    return Check("last tag", True, f"{seen['uid']} at {when} by {seen['reader']} ({meaning})")


def live_checks(config: Config, live: Status) -> dict[str, Check]:
    """The checks of the devices the running companion holds (``live.held``), by check name,
    read from its status."""
    reader, camera = make_reader(config["rfid"]), make_camera(config["camera"])
    devices = {"RFID reader": (reader and reader.name, READER_FIXES.get(config["rfid"]["reader"])),
               "camera": (camera and camera.name, CAMERA_FIXES.get(config["camera"]["kind"])),
               "pins": ("GPIO", PIN_FACTORY_FIX)}
    return {name: check_held(name, device, live, fix or "")
            for name, (device, fix) in devices.items() if device in live.held}


def run(config: Config, data_dir: Path, dev: Path = Path("/dev"),
        pin_factory: Any = None, live: Status | None = None) -> list[Check]:
    """Every check, in the order a person would look. ``live`` is the running companion's status:
    the devices it holds are judged by it, not opened a second time."""
    held = live_checks(config, live) if live is not None else {}
    return [check_config(config), check_bus(config, dev, "SPI"), check_bus(config, dev, "I2C"),
            held.get("RFID reader") or check_reader(config),
            held.get("camera") or check_camera(config),
            held.get("pins") or check_pins(config, pin_factory),
            check_speech(config), check_last_tag(data_dir)]


def report(checks: list[Check]) -> list[str]:
    """The checks as lines of text: ``[ ok ]``, ``[FAIL]`` with the fix, ``[ -- ]``."""
    lines = []
    for check in checks:
        mark = {True: " ok ", False: "FAIL", None: " -- "}[check.ok]
        lines.append(f"[{mark}] {check.name}: {check.detail}")
        if check.fix:
            lines.append(f"       fix: {check.fix}")
    return lines
