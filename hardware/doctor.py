"""``companion doctor``: what is wrong with the box, and how to fix it.

Each check looks at one thing (the config files, SPI, I2C, the RFID reader, the camera, the
dice reader, the pins, the voice, the journal and the disk it lives on) and says ok, failing
(with the fix), or not needed with this config. The last raw tag UID seen is shown too: when
the reader works but a card never shows up, it tells whether the tag was read at all. The host
page shows the same list (``[c.to_json() for c in run(...)]``); there the companion already
holds the reader, camera and pins, so their state is read from its live
:class:`~hardware.status.Status` instead of opening them a second time.
"""

from __future__ import annotations

import shutil
import time
import warnings
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from companion.config import Config
from companion.engine import DataPaths, Message, StoreError, installed_games
from companion.engine.files import check_writable
from companion.engine.journal import Journal
from companion.engine.lock import holder_of
from companion.engine.registry import registry
from companion.engine.repair import diagnose
from companion.engine.session import DEFINITIONS
from companion.engine.tags import TagMap
from companion.i18n import render
from companion.voices import DEVICE, ENGINE, PLAYER, VoiceError, open_voice
from vision import ProfileError, list_profiles
from vision.profile import taught_faces
from vision.selftest import self_test

from . import sources
from .build import PIN_DEVICES, ROLES, make_camera, make_pin_factory, make_reader
from .cameras import CameraError, CameraLibraryError
from .cards import self_test as cards_self_test
from .status import Status, last_tag, texts


def _m(key: str, /, **params: Any) -> Message:
    return Message(key, params)


READER_FIXES = {"mfrc522": _m("doctor.fix.mfrc522"), "pn532": _m("doctor.fix.pn532"),
                "keyboard": _m("doctor.fix.keyboard")}


PIN_FACTORY_FIX = _m("doctor.fix.pin_factory")


@dataclass(frozen=True)
class Check:
    """One finding: ``ok`` is True, False (then ``fix`` says what to do) or None (not needed).

    ``said`` and ``fix_said`` are message keys (hardware/messages/), so the terminal and the host
    page give the finding in the user's language; ``detail`` and ``fix`` are the English text.
    """

    name: str
    ok: bool | None
    said: Message
    fix_said: Message | None = None

    @property
    def detail(self) -> str:
        """What was found, in English."""
        return self.text("en")["detail"]

    @property
    def fix(self) -> str:
        """What to do, in English ("" when nothing is to be done)."""
        return self.text("en")["fix"]

    def text(self, lang: str) -> dict[str, str]:
        """The finding's name, detail and fix in a language."""
        words = texts(lang)
        return {"name": words.get(f"doctor.name.{NAME_KEYS[self.name]}", self.name),
                "detail": render(self.said, texts=words),
                "fix": render(self.fix_said, texts=words) if self.fix_said else ""}

    def to_json(self, lang: str = "en") -> dict[str, Any]:
        """The finding as JSON-ready data, its texts in ``lang``."""
        return {"id": self.name, "ok": self.ok, **self.text(lang)}


NAME_KEYS = {"config": "config", "SPI": "spi", "I2C": "i2c", "RFID reader": "reader",
             "camera": "camera", "dice reader": "dice", "card camera": "cards", "pins": "pins",
             "speech": "speech", "games": "games", "last tag": "last_tag", "journal": "journal",
             "storage": "storage", "sources": "sources", "MQTT broker": "mqtt"}


def check_config(config: Config) -> Check:
    """The config files parse and hold only known keys."""
    if config.problems:
        return Check("config", False, _m("doctor.config.problems",
                                           problems=[p.to_json() for p in config.problems]),
                     _m("doctor.fix.config"))
    if not config.files:
        return Check("config", True, _m("doctor.config.defaults"))
    return Check("config", True, _m("doctor.config.files", files=list(map(str, config.files))))


def check_bus(config: Config, dev: Path, kind: str) -> Check:
    """SPI (for an MFRC522) or I2C (for a PN532) is enabled when the reader needs it."""
    rfid = config["rfid"]
    if kind == "SPI":
        needed = rfid["reader"] == "mfrc522"
        path = dev / f"spidev{rfid['spi_bus']}.{rfid['spi_device']}"
        fix = _m("doctor.fix.spi")
    else:
        needed, path = rfid["reader"] == "pn532", dev / f"i2c-{rfid['i2c_bus']}"
        fix = _m("doctor.fix.i2c")
    if not needed:
        return Check(kind, None, _m("doctor.bus.not_needed", reader=rfid["reader"]))
    if path.exists():
        return Check(kind, True, _m("doctor.bus.present", path=str(path)))
    return Check(kind, False, _m("doctor.bus.missing", path=str(path), bus=kind), fix)


def check_reader(config: Config) -> Check:
    """The RFID reader answers."""
    kind = config["rfid"]["reader"]
    reader = make_reader(config["rfid"])
    if reader is None:
        return Check("RFID reader", None, _m("doctor.reader.none"))
    try:
        found = reader.open()
    except OSError as exc:
        return Check("RFID reader", False, _m("doctor.failed", device=reader.name, error=str(exc)),
                     READER_FIXES[kind])
    reader.close()
    return Check("RFID reader", True, _m("doctor.reader.ok", device=reader.name, found=found))


CAMERA_FIXES = {"picamera2": _m("doctor.fix.picamera2"), "opencv": _m("doctor.fix.opencv"),
                "replay": _m("doctor.fix.replay")}
CAMERA_LIBRARY_FIX = _m("doctor.fix.camera_library")


def check_camera(config: Config) -> Check:
    """The configured camera gives a frame."""
    camera = make_camera(config["camera"])
    if camera is None:
        return Check("camera", None, _m("doctor.camera.none"))
    try:
        camera.open()
        camera.read()
    except (CameraError, StopIteration) as exc:
        fix = CAMERA_LIBRARY_FIX if isinstance(exc, CameraLibraryError) else \
            CAMERA_FIXES[config["camera"]["kind"]]
        return Check("camera", False, _m("doctor.failed", device=camera.name, error=str(exc)),
                     fix)
    finally:
        camera.close()
    return Check("camera", True, _m("doctor.camera.ok", device=camera.name))


def check_dice(data_dir: Path) -> Check:
    """The dice reader reads a rendered test roll right (how fast, and with which library:
    without ONNX Runtime it works, more slowly), and every profile the owner taught loads (an
    outdated or damaged taught file is named: reading that profile at the table would fail)."""
    try:
        test = self_test()
    except Exception as exc:  # whatever damaged models raise (ONNX Runtime's own errors too)
        return Check("dice reader", False,
                     _m("doctor.dice.broken", error=f"{type(exc).__name__}: {exc}"),
                     _m("doctor.fix.dice_models"))
    if not test.right:
        return Check("dice reader", False, _m("doctor.dice.misread", rolled=list(test.rolled),
                                               read=list(test.read)),
                     _m("doctor.fix.dice_models"))
    taught, problems = [], []
    for name in list_profiles():
        try:
            if taught_faces(name, data_dir):
                taught.append(name)
        except ProfileError as error:
            problems.append(error.texts())
    if problems:
        return Check("dice reader", False, _m("doctor.dice.taught", problems=problems),
                     _m("doctor.fix.taught"))
    library, version = test.engine
    said = _m("doctor.dice.slow" if library == "OpenCV" else "doctor.dice.ok",
              count=len(test.rolled), ms=f"{test.milliseconds:.0f}", engine=library,
              version=version, taught=taught)
    return Check("dice reader", True, said,
                 _m("doctor.fix.onnxruntime") if library == "OpenCV" else None)


def check_cards(data_dir: Path) -> Check:
    """The cards taught from photos load, and each is named as itself when shown on a test
    table (a card the camera would not know is named here, with the fix: teach it again)."""
    test = cards_self_test(data_dir)
    if not test.taught:
        return Check("card camera", None, _m("doctor.cards.none"), _m("doctor.fix.cards_photo"))
    if test.misread:
        return Check("card camera", False,
                     _m("doctor.cards.misread", count=len(test.misread), taught=test.taught,
                        cards=", ".join(test.misread)), _m("doctor.fix.cards_photo"))
    return Check("card camera", True, _m("doctor.cards.ok", taught=test.taught,
                                         ms=f"{test.ms:.0f}"))


def check_held(name: str, device: str, live: Status, fix: Message | None) -> Check:
    """A device the running companion holds: working unless its status names a problem."""
    problems = [_m("hardware.problem", device=d, problem=p.to_json()).to_json()
                for d, p in live.problems.items()
                if d == device or (device == "GPIO" and d in PIN_DEVICES)]
    if problems:
        return Check(name, False, _m("doctor.held.problems", problems=problems), fix)
    return Check(name, True, _m("doctor.held.ok", device=device))


def check_pins(config: Config, pin_factory: Any = None) -> Check:
    """The configured pins are free (the config already refused a pin given twice)."""
    pins = {f"button {role}": config["buttons"][role] for role in ROLES}
    pins.update({f"LED {name}": pin for name, pin in config["leds"].items()
                 if name != "common_anode" and pin is not False})
    used = {name: pin for name, pin in pins.items() if pin is not False}  # distinct: see config
    with warnings.catch_warnings():  # gpiozero warns about each pin library it cannot load
        warnings.simplefilter("ignore")
        try:
            from gpiozero import BadPinFactory, DigitalInputDevice, GPIOZeroError
        except ImportError as exc:
            return Check("pins", False, _m("doctor.pins.no_gpiozero", error=str(exc)),
                         _m("doctor.fix.gpiozero"))
        try:
            pin_factory = pin_factory if pin_factory is not None else make_pin_factory(config)
        except (ImportError, ValueError, GPIOZeroError, OSError, RuntimeError) as exc:
            return Check("pins", False, _m("doctor.pins.factory", error=str(exc)),
                         PIN_FACTORY_FIX)
        for name, pin in used.items():
            try:
                DigitalInputDevice(pin, pin_factory=pin_factory).close()
            except BadPinFactory as exc:
                return Check("pins", False, _m("doctor.pins.no_access", error=str(exc)),
                             PIN_FACTORY_FIX)
            except GPIOZeroError as exc:
                return Check("pins", False,
                             _m("doctor.pins.busy", device=name, pin=pin, error=str(exc)),
                             _m("doctor.fix.pin_busy"))
    return Check("pins", True, _m("doctor.pins.ok", pins=[f"{n} GPIO{p}" for n, p in used.items()]))


SPEECH_FIXES = {ENGINE: {"espeak-ng": _m("doctor.fix.espeak"), "pyttsx3": _m("doctor.fix.pyttsx3"),
                         "piper": _m("doctor.fix.piper")},
                PLAYER: _m("doctor.fix.aplay"), DEVICE: _m("doctor.fix.sound_device")}


def check_speech(config: Config) -> Check:
    """The voice says a short test phrase on the configured device (it is heard, or written to
    ``wav_dir``); what is missing (the engine, the player, the device) comes with its fix."""
    speech = config["speech"]
    backend = speech["backend"] if speech["enabled"] else "silent"
    if backend == "silent":
        return Check("speech", None, _m("doctor.speech.silent"))
    lang = config["general"]["language"]
    where = speech["wav_dir"] or speech["device"] or "default"
    try:
        voice = open_voice(speech)
        try:
            voice.speak(render(_m("doctor.speech.phrase"), texts=texts(lang)), lang)
        finally:
            voice.close()
    except VoiceError as exc:
        fix = SPEECH_FIXES[exc.missing]
        return Check("speech", False, _m("doctor.speech.failed", backend=backend, error=str(exc)),
                     fix[backend] if isinstance(fix, dict) else fix)
    return Check("speech", True, _m("doctor.speech.ok", backend=backend, device=where))


def check_games() -> Check:
    """Every registered game loads; a broken plugin is named with its error and package."""
    plugins = registry()
    games = ", ".join(sorted(plugins.games))
    if plugins.broken:
        broken = "; ".join(f"{b.name} ({b.package}): {b.error}" for b in plugins.broken)
        return Check("games", False, _m("doctor.games.broken", broken=broken, games=games),
                     _m("doctor.fix.games"))
    return Check("games", True, _m("doctor.games.ok", games=games))


def check_last_tag(data_dir: Path) -> Check:
    """The last raw tag UID read by the running companion, and when."""
    seen = last_tag(data_dir)
    if seen is None:
        return Check("last tag", None, _m("doctor.tag.none"))
    when = time.strftime("%Y-%m-%d %H:%M:%S", time.localtime(seen["at"]))
    card = TagMap(data_dir).card(seen["uid"])
    params = {"uid": seen["uid"], "when": when, "device": seen["reader"], "card": card}
    return Check("last tag", True, _m("doctor.tag.known" if card else "doctor.tag.unknown",
                                      **params))


def check_journal(data_dir: Path) -> Check:
    """The journal opens, its checksum chain is whole, every game replays, and the taught
    definitions files hold what it taught. Reads only: safe while the companion runs."""
    path = DataPaths(Path(data_dir)).journal
    if not path.exists():
        return Check("journal", None, _m("doctor.journal.none", path=str(path)))
    try:
        journal = Journal(path, readonly=True)
    except StoreError as error:
        return Check("journal", False, _m(error.key, **error.params), _m("doctor.fix.journal"))
    try:
        findings = diagnose(journal, installed_games())
        if findings:
            return Check("journal", False, findings[0].to_message(), _m("doctor.fix.journal"))
        behind = journal.learned_since(DEFINITIONS)
        if behind:
            return Check("journal", False, _m("doctor.journal.behind", count=len(behind)),
                         _m("doctor.fix.behind"))
        holder = holder_of(Path(data_dir)) or {}
        return Check("journal", True, _m("doctor.journal.held" if holder else "doctor.journal.ok",
                                         events=journal.event_count(),
                                         games=len(journal.games()), **holder))
    finally:
        journal.close()


def check_storage(data_dir: Path) -> Check:
    """The data directory can take writes: not read-only, not (nearly) full."""
    folder = Path(data_dir)
    while not folder.exists() and folder != folder.parent:
        folder = folder.parent
    try:
        check_writable(folder)
    except StoreError as error:
        return Check("storage", False, _m(error.key, **error.params), _m("doctor.fix.storage"))
    free = shutil.disk_usage(folder).free
    return Check("storage", True, _m("doctor.storage.ok", path=str(folder),
                                     free=f"{free / 1e6:.0f} MB"))


def check_sources(config: Config, data_dir: Path, live: Status | None = None) -> Check:
    """The source plugins the config names (``[sources.<name>]``): those the running companion
    holds are judged by its status, the others built (not started) and asked how they are."""
    tables = sources.configured(config)
    if not tables:
        return Check("sources", None, _m("doctor.sources.none",
                                         installed=", ".join(sorted(sources.installed())) or "-"))
    found, failing = [], False
    for name, settings in tables.items():
        held = live is not None and sources.device(name) in live.held
        problem = (live.problems.get(sources.device(name)) if held
                   else sources.probe(name, settings, data_dir))
        failing = failing or problem is not None
        found.append((_m("doctor.sources.failing", source=name, problem=problem.to_json())
                      if problem else _m("doctor.sources.ok", source=name)).to_json())
    return Check("sources", not failing, _m("doctor.sources.found", sources=found),
                 _m("doctor.fix.sources") if failing else None)


def check_mqtt(config: Config) -> Check:
    """The broker of ``[mqtt]`` takes the companion's credentials (a connection of its own)."""
    mqtt = config["mqtt"]
    if not mqtt["host"]:
        return Check("MQTT broker", None, _m("doctor.mqtt.none"))
    try:
        from companion.mqtt.bridge import reach
    except ImportError as exc:
        return Check("MQTT broker", False, _m("doctor.mqtt.no_paho", error=str(exc)),
                     _m("doctor.fix.paho"))
    broker = f"{mqtt['host']}:{mqtt['port']}"
    problem = reach(mqtt)
    if problem:
        return Check("MQTT broker", False, _m("doctor.failed", device=broker, error=problem),
                     _m("doctor.fix.mqtt"))
    return Check("MQTT broker", True, _m("doctor.mqtt.ok", broker=broker,
                                         user=mqtt["username"] or "-"))


def live_checks(config: Config, live: Status) -> dict[str, Check]:
    """The checks of the devices the running companion holds (``live.held``), by check name,
    read from its status."""
    reader, camera = make_reader(config["rfid"]), make_camera(config["camera"])
    devices = {"RFID reader": (reader and reader.name, READER_FIXES.get(config["rfid"]["reader"])),
               "camera": (camera and camera.name, CAMERA_FIXES.get(config["camera"]["kind"])),
               "pins": ("GPIO", PIN_FACTORY_FIX)}
    return {name: check_held(name, device, live, fix)
            for name, (device, fix) in devices.items() if device in live.held}


def run(config: Config, data_dir: Path, dev: Path = Path("/dev"),
        pin_factory: Any = None, live: Status | None = None) -> list[Check]:
    """Every check, in the order a person would look. ``live`` is the running companion's status:
    the devices it holds are judged by it, not opened a second time."""
    held = live_checks(config, live) if live is not None else {}
    return [check_config(config), check_bus(config, dev, "SPI"), check_bus(config, dev, "I2C"),
            held.get("RFID reader") or check_reader(config),
            held.get("camera") or check_camera(config), check_dice(data_dir),
            check_cards(data_dir),
            held.get("pins") or check_pins(config, pin_factory),
            check_sources(config, data_dir, live), check_mqtt(config), check_speech(config),
            check_games(), check_last_tag(data_dir), check_journal(data_dir),
            check_storage(data_dir)]


def report(checks: list[Check], lang: str = "en") -> list[str]:
    """The checks as lines of text: ``[ ok ]``, ``[FAIL]`` with the fix, ``[ -- ]``."""
    lines = []
    fix_word = texts(lang).get("doctor.fix_word", "fix")
    for check in checks:
        mark = {True: " ok ", False: "FAIL", None: " -- "}[check.ok]
        text = check.text(lang)
        lines.append(f"[{mark}] {text['name']}: {text['detail']}")
        if text["fix"]:
            lines.append(f"       {fix_word}: {text['fix']}")
    return lines
