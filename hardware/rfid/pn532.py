"""PN532 reader on I2C (the red or blue "PN532 NFC" boards, switches set to I2C).

Commands go in normal information frames; the chip acknowledges each one, then answers when its
status byte says ready. ``RFConfiguration`` limits the passive activation retries so that a poll
returns at once when no tag is there. A frame with a bad checksum is a tag read half-way.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

from . import PartialRead, PollingReader, ReaderError
from .buses import I2CBus, LinuxI2C

HOST_TO_PN532, PN532_TO_HOST = 0xD4, 0xD5
GET_FIRMWARE_VERSION, SAM_CONFIGURATION, RF_CONFIGURATION, IN_LIST_PASSIVE_TARGET = (
    0x02, 0x14, 0x32, 0x4A)
ACK = bytes([0x00, 0x00, 0xFF, 0x00, 0xFF, 0x00])
READY = 0x01


def frame(command: int, data: bytes = b"") -> bytes:
    """A normal information frame carrying one command from the host."""
    body = bytes([HOST_TO_PN532, command, *data])
    length = len(body)
    return bytes([0x00, 0x00, 0xFF, length, (-length) & 0xFF, *body, (-sum(body)) & 0xFF, 0x00])


def parse(raw: bytes, command: int) -> bytes:
    """The data of the PN532's answer to ``command``; PartialRead when the frame is damaged."""
    start = raw.find(b"\x00\xff")
    if start < 0 or len(raw) < start + 4:
        raise PartialRead(f"no frame in {raw.hex()}")
    length, check = raw[start + 2], raw[start + 3]
    body = raw[start + 4:start + 4 + length]
    if (length + check) & 0xFF or len(body) != length or len(raw) < start + 5 + length:
        raise PartialRead(f"bad length in {raw.hex()}")
    if (sum(body) + raw[start + 4 + length]) & 0xFF:
        raise PartialRead(f"bad checksum in {raw.hex()}")
    if body[:2] != bytes([PN532_TO_HOST, command + 1]):
        raise PartialRead(f"answer to another command: {body.hex()}")
    return body[2:]


class PN532(PollingReader):
    """A PN532 at ``address`` on ``/dev/i2c-BUS``; ``open_bus`` lets tests give a fake bus."""

    def __init__(self, bus: int = 1, address: int = 0x24,
                 open_bus: Callable[[int], I2CBus] = LinuxI2C, timeout: float = 0.5) -> None:
        self.name = f"PN532 at 0x{address:02X} on /dev/i2c-{bus}"
        self._bus_number, self.address, self._open_bus = bus, address, open_bus
        self.timeout = timeout
        self._bus: Any = None

    def _wait_ready(self) -> None:
        deadline = time.monotonic() + self.timeout
        while self._bus.read(self.address, 1)[:1] != bytes([READY]):
            if time.monotonic() > deadline:
                raise ReaderError(f"{self.name} does not answer (never ready)")
            time.sleep(0.002)

    def call(self, command: int, data: bytes = b"", answer: int = 32) -> bytes:
        """Send one command and return the data of its answer."""
        self._bus.write(self.address, frame(command, data))
        self._wait_ready()
        if self._bus.read(self.address, len(ACK) + 1)[1:] != ACK:
            raise ReaderError(f"{self.name} did not acknowledge command 0x{command:02X}")
        self._wait_ready()
        return parse(self._bus.read(self.address, answer + 1)[1:], command)

    def open(self) -> str:
        """Check the firmware, use the chip as a plain reader, and make polls return at once."""
        self._bus = self._open_bus(self._bus_number)
        try:
            ic, version, revision, _ = self.call(GET_FIRMWARE_VERSION)[:4]
        except PartialRead as exc:
            raise ReaderError(f"{self.name} answers garbage ({exc})") from None
        except ValueError:
            raise ReaderError(f"{self.name} gave a short firmware answer") from None
        self.call(SAM_CONFIGURATION, bytes([0x01, 0x14, 0x01]))
        self.call(RF_CONFIGURATION, bytes([0x05, 0xFF, 0x01, 0x01]))
        return f"PN5{ic:02X} firmware {version}.{revision}"

    def poll(self) -> bytes | None:
        """The UID of one ISO 14443-A tag in the field, or None."""
        data = self.call(IN_LIST_PASSIVE_TARGET, bytes([0x01, 0x00]))
        if not data or data[0] == 0:
            return None
        if len(data) < 6 or len(data) < 6 + data[5]:
            raise PartialRead(f"short target answer {data.hex()}")
        return data[6:6 + data[5]]

    def close(self) -> None:
        """Release the bus."""
        if self._bus is not None:
            self._bus.close()
            self._bus = None
