"""The companion's settings: defaults completed by TOML files; each value knows where it came from.

Files are read in order, a later one overriding an earlier one: ``/etc/companion/config.toml``
(the box's wiring, written by the installer), ``~/.config/companion/config.toml`` (the user's
taste) and the file named by ``$COMPANION_CONFIG``. A file that cannot be parsed, an unknown key or
a value of the wrong type gives one clear message naming the file and the line (a
:class:`~companion.engine.Message`, said in the user's language); the faulty part is ignored and
everything else keeps working.

A tinkerer adding a sensor adds its section to :data:`DEFAULTS` (and its choices to
:data:`CHOICES`); nothing else here changes.
"""

from __future__ import annotations

import difflib
import os
import re
import tomllib
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from companion.engine import DataPaths, Message
from companion.i18n import DEFAULT_LANGUAGE, LANGUAGES, catalog, render

SYSTEM_FILE = Path("/etc/companion/config.toml")
USER_FILE = Path("~/.config/companion/config.toml")
ENV_FILE = "COMPANION_CONFIG"

#: Every setting and its default, by section. A pin is a BCM GPIO number, or ``false`` when the
#: part is not wired.
DEFAULTS: dict[str, dict[str, Any]] = {
    "general": {"language": "en", "data_dir": "", "pin_factory": ""},
    "speech": {"backend": "espeak-ng", "device": "", "volume": 1.0, "rate": 160, "voice": "",
               "enabled": True, "wav_dir": ""},
    "buttons": {"next": 17, "undo": 27, "draw": 22, "roll": 23, "bounce_time": 0.05,
                "hold_time": 1.0, "stuck_time": 10.0,
                "pull_up": True, "long_next": "repeat", "long_undo": "",
                "long_draw": "", "long_roll": "", "mock_fifo": ""},
    "leds": {"red": 5, "green": 6, "blue": 13, "common_anode": False, "dice": False,
             "card": False, "choice": False, "host": False, "warning": False},
    "rfid": {"reader": "none", "spi_bus": 0, "spi_device": 0, "i2c_bus": 1,
             "i2c_address": 0x24, "device": "", "wedge_format": "hex", "repeat_window": 1.0},
    "camera": {"kind": "none", "index": 0, "path": "", "width": 1280, "height": 960,
               "fps": 10.0, "loop": True},
    # hosts: names the page may be reached by besides the Pi's own, "a, b"; connections: open
    # at once, at most (fewer if the open-file limit is lower); request_timeout: seconds to send
    # a whole request
    "web": {"hosts": "", "connections": 4000, "request_timeout": 10.0},
    "table": {"name": "", "local_name": "companion"},  # local_name: NAME.local on mDNS
    "mqtt": {"host": "", "port": 1883, "username": "", "password": "", "tls": False,
             "ca_file": "", "topic_root": "companion", "discovery": True,
             "discovery_prefix": "homeassistant", "command_secret": "", "keepalive": 30,
             "reconnect_min": 1.0, "reconnect_max": 60.0},
    "sources": {},
}

#: Sections whose keys are free and each value a table of its own: ``[sources.<name>]`` holds
#: the settings of the input source plugin ``<name>``, which checks them itself.
TABLE_SECTIONS = frozenset({"sources"})

#: What each choice-valued setting accepts.
CHOICES: dict[tuple[str, str], tuple[str, ...]] = {
    ("general", "language"): LANGUAGES,
    ("general", "pin_factory"): ("", "lgpio", "rpigpio", "pigpio", "native", "mock"),
    ("speech", "backend"): ("espeak-ng", "pyttsx3", "piper", "silent"),
    ("rfid", "reader"): ("none", "mfrc522", "pn532", "keyboard"),
    ("rfid", "wedge_format"): ("hex", "decimal"),
    ("camera", "kind"): ("none", "picamera2", "opencv", "replay"),
    **{("buttons", f"long_{role}"): ("", "next", "undo", "draw", "roll", "repeat")
       for role in ("next", "undo", "draw", "roll")},
}

#: The settings that are GPIO pins, in the order they claim their pin (the first one keeps it).
PIN_KEYS = (*(("buttons", k) for k in ("next", "undo", "draw", "roll")),
            *(("leds", k) for k in ("red", "green", "blue", "dice", "card", "choice", "host",
                                   "warning")))

#: The numbers that make sense, lowest and highest included (a value outside is refused).
RANGES: dict[tuple[str, str], tuple[float, float]] = {
    ("speech", "volume"): (0.0, 1.0), ("speech", "rate"): (80, 450),
    ("buttons", "bounce_time"): (0.0, 1.0), ("buttons", "hold_time"): (0.1, 10.0),
    ("buttons", "stuck_time"): (1.0, 3600.0),
    ("rfid", "spi_bus"): (0, 6), ("rfid", "spi_device"): (0, 2), ("rfid", "i2c_bus"): (0, 255),
    ("rfid", "i2c_address"): (0x08, 0x77), ("rfid", "repeat_window"): (0.0, 10.0),
    ("camera", "index"): (0, 63), ("camera", "width"): (64, 8192),
    ("camera", "height"): (64, 8192), ("camera", "fps"): (0.5, 120.0),
    ("web", "connections"): (16, 1_000_000), ("web", "request_timeout"): (0.5, 600.0),
}

#: The GPIO pins a bus takes when the reader on it is configured, by bus number.
SPI_PINS = {0: (7, 8, 9, 10, 11), 1: (16, 17, 18, 19, 20, 21)}
I2C_PINS = {0: (0, 1), 1: (2, 3)}

#: Settings never printed (``companion config`` shows that they are set, not what they are).
SECRET_KEYS = {("mqtt", "password"), ("mqtt", "command_secret")}

DEFAULT_ORIGIN = "default"


@dataclass
class Config:
    """The effective settings, where each came from, and what was wrong in the files.

    ``config["buttons"]["next"]`` reads a value; ``origin("buttons", "next")`` says
    ``default`` or ``/etc/companion/config.toml:12``; ``problems`` lists one message per fault
    (:meth:`problem_texts` says them).
    """

    values: dict[str, dict[str, Any]] = field(default_factory=lambda: _copy(DEFAULTS))
    origins: dict[tuple[str, str], str] = field(default_factory=dict)
    problems: list[Message] = field(default_factory=list)
    files: list[Path] = field(default_factory=list)

    def __getitem__(self, section: str) -> dict[str, Any]:
        return self.values[section]

    def origin(self, section: str, key: str) -> str:
        """Where a value came from: ``default`` or ``FILE:LINE``."""
        return self.origins.get((section, key), DEFAULT_ORIGIN)

    def problem_texts(self, lang: str = DEFAULT_LANGUAGE) -> list[str]:
        """The problems as sentences in ``lang``."""
        texts = catalog(lang)
        return [render(problem, texts=texts) for problem in self.problems]

    def describe(self) -> list[str]:
        """The effective config as TOML lines, each value commented with its origin."""
        lines = [f"# read: {', '.join(map(str, self.files)) or 'no file, defaults only'}"]
        for section, values in self.values.items():
            lines.append(f"\n[{section}]")
            for key, value in values.items():
                shown = "(set)" if (section, key) in SECRET_KEYS and value else _toml(value)
                text = f"{key} = {shown}"
                lines.append(f"{text:<32} # {self.origin(section, key)}")
        return lines


def _copy(values: Mapping[str, Mapping[str, Any]]) -> dict[str, dict[str, Any]]:
    return {section: dict(items) for section, items in values.items()}


def _toml(value: Any) -> str:
    if isinstance(value, bool):
        return str(value).lower()
    if isinstance(value, str):
        return '"' + value.replace("\\", "\\\\").replace('"', '\\"') + '"'
    if isinstance(value, Mapping):
        return "{" + ", ".join(f"{_toml(k)} = {_toml(v)}" for k, v in value.items()) + "}"
    if isinstance(value, list):
        return "[" + ", ".join(map(_toml, value)) + "]"
    return repr(value)


def default_files() -> list[Path]:
    """The files read, in order, when none is named."""
    files = [SYSTEM_FILE, USER_FILE.expanduser()]
    if os.environ.get(ENV_FILE):
        files.append(Path(os.environ[ENV_FILE]))
    return files


def data_paths(given: Path | str | None = None, config: Config | None = None) -> DataPaths:
    """The data directory every command uses: ``--data-dir`` (``given``), else
    ``$COMPANION_DATA_DIR``, the config's ``[general] data_dir``, ``$XDG_DATA_HOME/companion``,
    ``~/.local/share/companion`` (see :class:`~companion.engine.DataPaths`)."""
    config = load() if config is None else config
    return DataPaths.resolve(given, config["general"]["data_dir"])


def load(files: Sequence[Path | str] | None = None) -> Config:
    """Read the config files that exist (``default_files()`` unless told) over the defaults."""
    config = Config()
    for path in map(Path, default_files() if files is None else files):
        if path.is_file():
            _merge_file(config, path)
    _check_pins(config)
    return config


def bus_pins(rfid: Mapping[str, Any]) -> dict[int, str]:
    """The GPIO pins the configured reader's bus takes, each with the bus's name."""
    if rfid["reader"] == "mfrc522":
        bus = f"SPI{rfid['spi_bus']} (MFRC522)"
        return dict.fromkeys(SPI_PINS.get(rfid["spi_bus"], ()), bus)
    if rfid["reader"] == "pn532":
        bus = f"I2C{rfid['i2c_bus']} (PN532)"
        return dict.fromkeys(I2C_PINS.get(rfid["i2c_bus"], ()), bus)
    return {}


def _check_pins(config: Config) -> None:
    """Refuse a pin the reader's bus or an earlier setting already uses: it becomes ``false``
    (not wired), with a problem naming both, so the rest of the box still starts."""
    claimed = bus_pins(config["rfid"])
    for section, key in PIN_KEYS:
        pin = config[section][key]
        if pin is False:
            continue
        if pin in claimed:
            config.problems.append(Message("config.pin_taken", {
                "where": config.origin(section, key), "setting": f"{section}.{key} = {pin}",
                "pin": pin, "other": claimed[pin]}))
            config.values[section][key] = False
            continue
        claimed[pin] = f"{section}.{key}"


_HEADER = re.compile(r"^\s*\[\s*([A-Za-z0-9_.\-\"' ]+?)\s*\]")
_KEY = re.compile(r"^\s*([A-Za-z0-9_\-\"'. ]+?)\s*=")


def _key_lines(text: str) -> dict[tuple[str, str], int]:
    """Line numbers of ``key = value`` lines by (section, key): tomllib does not give them."""
    lines: dict[tuple[str, str], int] = {}
    section = ""
    for number, line in enumerate(text.splitlines(), start=1):
        header = _HEADER.match(line)
        if header:
            section = header.group(1).strip("\"'")
            lines.setdefault((section, ""), number)
            head, _, tail = section.partition(".")  # [sources.pedal]: the key "pedal" of sources
            if tail:
                lines.setdefault((head, tail.strip("\"'")), number)
            continue
        key = _KEY.match(line)
        if key:
            parts = [p.strip().strip("\"'") for p in key.group(1).split(".")]
            full = ".".join([section, *parts]) if section else ".".join(parts)
            head, _, tail = full.partition(".")
            lines.setdefault((head, tail), number)
    return lines


def _merge_file(config: Config, path: Path) -> None:
    try:
        text = path.read_text(encoding="utf-8")
        data = tomllib.loads(text)
    except (OSError, UnicodeDecodeError) as exc:
        config.problems.append(Message("config.unreadable", {"where": str(path),
                                                              "detail": str(exc)}))
        return
    except tomllib.TOMLDecodeError as exc:
        config.problems.append(Message("config.syntax", {"where": str(path), "detail": str(exc)}))
        return
    config.files.append(path)
    lines = _key_lines(text)

    def where(section: str, key: str = "") -> str:
        number = lines.get((section, key)) or lines.get((section, ""))
        return f"{path}:{number}" if number else str(path)

    for section, items in data.items():
        if section not in DEFAULTS:
            config.problems.append(Message("config.unknown_section", {
                "where": where(section), "section": f"[{section}]",
                "suggestion": _suggest(section, DEFAULTS)}))
            continue
        if not isinstance(items, dict):
            config.problems.append(Message("config.not_section", {"where": where(section),
                                                                   "section": section}))
            continue
        for key, value in items.items():
            problem = _check(section, key, value)
            if problem:
                config.problems.append(Message(problem.key,
                                               {"where": where(section, key), **problem.params}))
                continue
            config.values[section][key] = value
            config.origins[(section, key)] = where(section, key)


def _suggest(name: str, known: Mapping[str, Any]) -> dict[str, Any] | str:
    """" (did you mean 'x'?)" as a message, or "" when nothing is close."""
    close = difflib.get_close_matches(name, list(known), n=1)
    return Message("config.suggest", {"name": repr(close[0])}).to_json() if close else ""


def _check(section: str, key: str, value: Any) -> Message | None:
    """Why a value cannot be used (without its ``where``), or None when it is fine."""
    known = DEFAULTS[section]
    if section in TABLE_SECTIONS:
        return None if isinstance(value, dict) else Message("config.not_table", {
            "setting": f"{section}.{key} = {_toml(value)}", "section": f"[{section}.{key}]"})
    if key not in known:
        return Message("config.unknown_key", {"key": repr(key), "section": f"[{section}]",
                                              "suggestion": _suggest(key, known),
                                              "known": ", ".join(known)})
    default = known[key]
    params: dict[str, Any] = {}
    if (section, key) in PIN_KEYS:
        ok = value is False or (isinstance(value, int) and not isinstance(value, bool)
                                and 0 <= value <= 27)
        expected = "pin"
    elif (section, key) in CHOICES:
        ok = value in CHOICES[(section, key)]
        expected, params = "choice", {"choices": ", ".join(map(repr, CHOICES[(section, key)]))}
    elif isinstance(default, bool):
        ok, expected = isinstance(value, bool), "bool"
    elif isinstance(default, float):
        ok = isinstance(value, int | float) and not isinstance(value, bool) and value >= 0
        expected = "number"
    elif isinstance(default, int):
        ok = isinstance(value, int) and not isinstance(value, bool) and value >= 0
        expected = "whole"
    else:
        ok, expected = isinstance(value, str), "text"
    if ok and (section, key) in RANGES:
        low, high = RANGES[(section, key)]
        ok = low <= value <= high
        expected, params = "range", {"low": _toml(low), "high": _toml(high)}
    if ok:
        return None
    return Message("config.bad_value", {
        "setting": f"{section}.{key} = {_toml(value)}",
        "expected": (Message("config.expect.range", params) if expected == "range"
                     else Message(f"config.expect.{expected}", params)).to_json(),
        "default": f"{key} = {_toml(default)}"})
