"""Pixels Bluetooth smart dice: each settled roll becomes the game's ``dice`` event.

A Pixels die (GameWithPixels, open protocol) tells its host over Bluetooth Low Energy each time
its roll state or face up changes. This source is a built-in plugin (entry point ``pixels`` of
``companion.sources``, settings in ``[sources.pixels]``) and needs the ``pixels`` extra (bleak)
for its radio; everything but the radio is tested against a fake transport replaying the
documented messages (docs/hardware.md, "Smart dice", says what was checked only by reading).

**Messages** (GameWithPixels/.github doc/CommunicationsProtocol.md, little endian, first byte the
message id): ``IAmADie`` (2) answers ``WhoAreYou`` (1) with the die's state among other things;
``RollState`` (3) is sent on every change: roll state, face index; ``BatteryLevel`` (34): level
in percent, battery state. The face index counts from 0: a d6 on index 2 shows 3.

**Roll states.** Firmware versions number them differently: pixels-js names 0 unknown, 1 rolled,
2 handling, 3 rolling, 4 crooked, 5 on face (not rolled: nudged or never moved); older firmware
sends 0 unknown, 1 on face, 2 handling, 3 rolling, 4 crooked. In both, state 1 following state 3
(rolling) is a die that rolled and settled on a face: that is a roll; 4 (crooked) after rolling
asks for a new roll; anything else is ignored.

**Faces.** The owner maps face numbers to the game's faces per die profile
(``[sources.pixels.faces."last-bastion/combat"]``, ``1 = "red"``...): a Pixels d6 stands in for
a Last Bastion combat die. A profile without a map takes the number as it is (``"4"``, right for
the ``d6`` profile).

**Rolls to events.** While the game waits for dice, each settled roll is kept; once the game's
count is reached the ``dice`` event goes (source ``bluetooth``). A die that settles again before
then was rolled again: its new face replaces the old one when there are enough dice for the
count, and adds to the roll when there are fewer (one die rolled three times for three dice).
"""

from __future__ import annotations

import asyncio
import logging
import struct
import threading
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Protocol

from companion.engine import Expectation, Message

from .inputs import Emit

log = logging.getLogger(__name__)

SERVICE = "6e400001-b5a3-f393-e0a9-e50e24dcca9e"
#: The notify characteristic; the protocol document and pixels-js give it the service's UUID.
NOTIFY = "6e400001-b5a3-f393-e0a9-e50e24dcca9e"
WRITE = "6e400002-b5a3-f393-e0a9-e50e24dcca9e"
WHO_ARE_YOU = bytes([1])
I_AM_A_DIE, ROLL_STATE, BATTERY_LEVEL = 2, 3, 34
SETTLED, HANDLING, ROLLING, CROOKED = 1, 2, 3, 4
I_AM_A_DIE_FORMAT = struct.Struct("<BBBBIIHIBBBB")
#: Battery level (percent) under which a die is reported.
LOW_BATTERY = 10


@dataclass(frozen=True)
class RollState:
    """A die's roll state and face index (from 0)."""

    state: int
    face_index: int


@dataclass(frozen=True)
class IAmADie:
    """A die's identity and state, the answer to ``WhoAreYou``."""

    led_count: int
    pixel_id: int
    build_timestamp: int
    state: int
    face_index: int
    battery_level: int


@dataclass(frozen=True)
class BatteryLevel:
    """A die's battery level in percent and its battery state."""

    level: int
    state: int


PixelsMessage = RollState | IAmADie | BatteryLevel


def decode(data: bytes) -> PixelsMessage | None:
    """One message from a die; None for the ids this source does not use. Raises ValueError
    when a known message has the wrong length."""
    if not data:
        raise ValueError("an empty message")
    kind = data[0]
    if kind == ROLL_STATE:
        if len(data) != 3:
            raise ValueError(f"RollState of {len(data)} bytes, 3 expected")
        return RollState(data[1], data[2])
    if kind == BATTERY_LEVEL:
        if len(data) != 3:
            raise ValueError(f"BatteryLevel of {len(data)} bytes, 3 expected")
        return BatteryLevel(data[1], data[2])
    if kind == I_AM_A_DIE:
        if len(data) != I_AM_A_DIE_FORMAT.size:
            raise ValueError(f"IAmADie of {len(data)} bytes, {I_AM_A_DIE_FORMAT.size} expected")
        (_, leds, _, _, _, pixel_id, _, built, state, face, battery, _) = \
            I_AM_A_DIE_FORMAT.unpack(data)
        return IAmADie(leds, pixel_id, built, state, face, battery)
    return None


Receive = Callable[[str, bytes], None]


class Transport(Protocol):
    """How messages reach the source: ``open(receive)`` calls ``receive(die, data)`` for every
    notification of every die (from any thread) until ``close()``."""

    def open(self, receive: Receive) -> None:
        """Connect to the dice and start delivering their messages."""

    def close(self) -> None:
        """Disconnect."""


class Roller:
    """Turns the messages of the dice into rolls, and rolls into ``dice`` events.

    ``expects`` is the session's; ``faces`` maps a profile to {face number: game face};
    ``dice`` is how many dice are configured (to tell a reroll from the next die).
    """

    def __init__(self, emit: Emit, expects: Callable[[], Expectation],
                 faces: Mapping[str, Mapping[str, str]], dice: int) -> None:
        self.emit, self.expects, self.faces, self.dice = emit, expects, faces, dice
        self.states: dict[str, int] = {}
        self.battery: dict[str, int] = {}
        self.rolls: list[tuple[str, str]] = []  # (die, game face) of the roll being gathered
        self.wanted: tuple[str | None, int | None] | None = None
        self._lock = threading.Lock()

    def receive(self, die: str, data: bytes) -> None:
        """A notification from ``die`` (any thread)."""
        try:
            message = decode(data)
        except ValueError as exc:
            log.warning("%s: unreadable message %s (%s)", die, data.hex(), exc)
            return
        if isinstance(message, BatteryLevel):
            self.battery[die] = message.level
        elif isinstance(message, IAmADie):
            self.battery[die] = message.battery_level
            self.states[die] = message.state
        elif isinstance(message, RollState):
            with self._lock:
                before, self.states[die] = self.states.get(die), message.state
                if before == ROLLING and message.state in (SETTLED, CROOKED):
                    self._settled(die, message)

    def _settled(self, die: str, message: RollState) -> None:
        template = self.expects().template("dice")
        if template is None:
            log.info("%s rolled %d; the game waits for no dice", die, message.face_index + 1)
            return
        profile, count = template.blank.profile, template.blank.count or 1
        wanted = (template.type, tuple(sorted(template.fields.items())), profile, count)
        if wanted != self.wanted:
            self.wanted, self.rolls = wanted, []
        if message.state == CROOKED:
            self.emit(Message("pixels.crooked", {"die": die}))
            return
        number = str(message.face_index + 1)
        face = self.faces.get(profile or "", {}).get(number, number)
        if self.dice >= count:
            self.rolls = [roll for roll in self.rolls if roll[0] != die]
        self.rolls.append((die, face))
        if len(self.rolls) >= count:
            faces, self.rolls, self.wanted = [f for _, f in self.rolls], [], None
            self.emit({**template.fill(faces), "source": "bluetooth"})

    def low_batteries(self) -> list[str]:
        """The dice whose battery is low, as ``name (n%)``."""
        return [f"{die} ({level}%)" for die, level in sorted(self.battery.items())
                if level < LOW_BATTERY]


class PixelsSource:
    """The ``pixels`` source: ``settings`` is ``[sources.pixels]`` (``dice``: the names the dice
    were given in the Pixels app; ``faces``: the face maps by profile), ``context`` the
    :class:`~hardware.sources.SourceContext`; ``transport`` replaces the Bluetooth radio (a
    test's fake)."""

    def __init__(self, settings: Mapping[str, Any], context: Any,
                 transport: Transport | None = None) -> None:
        unknown = set(settings) - {"dice", "faces", "scan_seconds"}
        if unknown:
            raise ValueError(f"unknown setting {', '.join(sorted(unknown))} "
                             "(known: dice, faces, scan_seconds)")
        dice = settings.get("dice")
        if not isinstance(dice, list) or not dice or not all(isinstance(d, str) for d in dice):
            raise ValueError('dice = ["name of a die", ...] (as named in the Pixels app) is '
                             "missing")
        faces = settings.get("faces", {})
        if not isinstance(faces, dict) or not all(
                isinstance(m, dict) and all(isinstance(v, str) for v in m.values())
                for m in faces.values()):
            raise ValueError('faces must map a die profile to face numbers and faces, such as '
                             '[sources.pixels.faces."last-bastion/combat"] 1 = "red"')
        self.names, self.faces, self.context = list(dice), faces, context
        self.transport = transport or BleakTransport(self.names,
                                                     float(settings.get("scan_seconds", 10.0)))
        self.roller: Roller | None = None

    def start(self, emit: Emit) -> None:
        """Connect to the dice and follow their rolls."""
        self.roller = Roller(emit, self.context.expects, self.faces, len(self.names))
        self.transport.open(self.roller.receive)

    def stop(self) -> None:
        """Disconnect from the dice."""
        self.transport.close()

    def status(self) -> str | None:
        """Dice not connected, or with a low battery; None when all is well. Before ``start``
        (``companion doctor``): whether the Bluetooth library is there."""
        if self.roller is None:
            return getattr(self.transport, "unusable", lambda: None)()
        missing = getattr(self.transport, "missing", lambda: [])()
        low = self.roller.low_batteries() if self.roller is not None else []
        said = ([f"not connected: {', '.join(missing)}"] if missing else []) + \
            ([f"battery low: {', '.join(low)}"] if low else [])
        return "; ".join(said) or None


class BleakTransport:
    """The Bluetooth radio, through bleak, on an asyncio loop of its own thread: finds each die
    by its advertised name, subscribes to its notify characteristic, asks ``WhoAreYou``, and
    connects again when a die goes away. (No radio here: checked only by reading.)"""

    def __init__(self, names: Sequence[str], scan_seconds: float = 10.0) -> None:
        self.names, self.scan_seconds = list(names), scan_seconds
        self.connected: set[str] = set()
        self._loop: asyncio.AbstractEventLoop | None = None
        self._thread: threading.Thread | None = None
        self._stopping = False

    @staticmethod
    def unusable() -> str | None:
        """Why the radio cannot be used here (bleak is missing), or None."""
        try:
            import bleak  # noqa: F401
        except ImportError as exc:
            return f"{exc}: pip install 'table-companion[pixels]'"
        return None

    def missing(self) -> list[str]:
        """The dice not connected now."""
        return [name for name in self.names if name not in self.connected]

    def open(self, receive: Receive) -> None:
        """Start the loop: one task per die."""
        import bleak  # noqa: F401 - fail here, in start, when the extra is not installed

        self._loop = asyncio.new_event_loop()
        self._thread = threading.Thread(target=self._run, args=(receive,), daemon=True,
                                        name="pixels bluetooth")
        self._thread.start()

    def _run(self, receive: Receive) -> None:
        asyncio.set_event_loop(self._loop)
        tasks = [self._loop.create_task(self._follow(name, receive)) for name in self.names]
        self._loop.run_until_complete(asyncio.gather(*tasks, return_exceptions=True))

    async def _follow(self, name: str, receive: Receive) -> None:
        from bleak import BleakClient, BleakScanner
        from bleak.exc import BleakError

        while not self._stopping:
            device = await BleakScanner.find_device_by_name(name, timeout=self.scan_seconds)
            if device is None:
                continue
            gone = asyncio.Event()
            try:
                async with BleakClient(device, disconnected_callback=lambda _, g=gone: g.set()) \
                        as client:
                    await client.start_notify(NOTIFY, lambda _, data: receive(name, bytes(data)))
                    await client.write_gatt_char(WRITE, WHO_ARE_YOU, response=False)
                    self.connected.add(name)
                    while not self._stopping and not gone.is_set():
                        await asyncio.sleep(0.5)
            except (TimeoutError, BleakError, OSError) as exc:
                log.warning("%s: %s", name, exc)
            finally:
                self.connected.discard(name)
            await asyncio.sleep(1.0)

    def close(self) -> None:
        """Disconnect every die and stop the loop."""
        self._stopping = True
        if self._thread is not None:
            self._thread.join(15)
