"""MFRC522 reader on SPI (the cheap blue "RC522" boards).

The driver speaks to the chip's registers and runs the ISO 14443-A steps itself: REQA, then
anticollision (cascade level 1, and level 2 for 7-byte UIDs, with a SELECT in between). A bad
check byte or a collision is a tag read half-way; the chip's version register is checked now and
then, so a reader that stops answering (all zeros on the bus) is noticed.
"""

from __future__ import annotations

import contextlib
import time
from collections.abc import Callable
from typing import Any

from . import PartialRead, PollingReader, ReaderError
from .buses import SPIBus, open_spi

# registers
COMMAND, COM_IRQ, ERROR, FIFO_DATA, FIFO_LEVEL, CONTROL, BIT_FRAMING = (
    0x01, 0x04, 0x06, 0x09, 0x0A, 0x0C, 0x0D)
MODE, TX_CONTROL, TX_ASK, T_MODE, T_PRESCALER, T_RELOAD_H, T_RELOAD_L, VERSION = (
    0x11, 0x14, 0x15, 0x2A, 0x2B, 0x2C, 0x2D, 0x37)
# commands
IDLE, TRANSCEIVE, SOFT_RESET = 0x00, 0x0C, 0x0F
# PICC commands
REQA, SEL_CL1, SEL_CL2, CASCADE_TAG = 0x26, 0x93, 0x95, 0x88
RX_IRQ, IDLE_IRQ, TIMER_IRQ = 0x20, 0x10, 0x01  # ComIrqReg bits
ERRORS = 0x1B  # BufferOvfl, CollErr, ParityErr, ProtocolErr
COLLISION = 0x08
KNOWN_VERSIONS = {0x88: "FM17522 clone", 0x90: "v0.0", 0x91: "v1.0", 0x92: "v2.0",
                  0x12: "counterfeit chip", 0xB2: "FM17522 clone"}
HEALTH_EVERY = 2.0  # seconds between version checks while polling


def crc_a(data: bytes) -> bytes:
    """The ISO 14443-A CRC of ``data``, low byte first."""
    crc = 0x6363
    for byte in data:
        byte ^= crc & 0xFF
        byte = (byte ^ (byte << 4)) & 0xFF
        crc = (crc >> 8) ^ (byte << 8) ^ (byte << 3) ^ (byte >> 4)
    return bytes((crc & 0xFF, crc >> 8))


class MFRC522(PollingReader):
    """An MFRC522 on ``/dev/spidevBUS.DEVICE``; ``open_bus`` lets tests give a fake bus."""

    def __init__(self, bus: int = 0, device: int = 0,
                 open_bus: Callable[[int, int], SPIBus] = open_spi,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self.name = f"MFRC522 on /dev/spidev{bus}.{device}"
        self._where, self._open_bus, self._clock = (bus, device), open_bus, clock
        self._spi: Any = None
        self._checked = 0.0

    # -- registers -----------------------------------------------------------------------------

    def _write(self, register: int, *values: int) -> None:
        for value in values:
            self._spi.xfer2([(register << 1) & 0x7E, value])

    def _read(self, register: int) -> int:
        return self._spi.xfer2([((register << 1) & 0x7E) | 0x80, 0])[1]

    def _set_bits(self, register: int, mask: int) -> None:
        self._write(register, self._read(register) | mask)

    def _clear_bits(self, register: int, mask: int) -> None:
        self._write(register, self._read(register) & ~mask & 0xFF)

    def _version(self) -> str:
        version = self._read(VERSION)
        if version not in KNOWN_VERSIONS:
            raise ReaderError(f"{self.name} does not answer (version register 0x{version:02X}); "
                              "check the wiring and that SPI is enabled")
        return f"MFRC522 {KNOWN_VERSIONS[version]}"

    # -- TagReader -----------------------------------------------------------------------------

    def open(self) -> str:
        """Reset the chip, set its timer and turn the antenna on."""
        self._spi = self._open_bus(*self._where)
        version = self._version()
        self._write(COMMAND, SOFT_RESET)
        self._write(T_MODE, 0x8D)        # timer starts after each transmission
        self._write(T_PRESCALER, 0x3E)   # ~ 40 kHz
        self._write(T_RELOAD_H, 0x00)
        self._write(T_RELOAD_L, 0x1E)    # 30 ticks: ~ 25 ms timeout
        self._write(TX_ASK, 0x40)        # 100 % ASK
        self._write(MODE, 0x3D)          # CRC preset 0x6363
        self._set_bits(TX_CONTROL, 0x03)  # antenna on
        self._checked = self._clock()
        return version

    def poll(self) -> bytes | None:
        """The UID of a tag in the field, or None; PartialRead on a damaged answer."""
        if self._clock() - self._checked > HEALTH_EVERY:
            self._version()
            self._checked = self._clock()
        if self._transceive(bytes([REQA]), last_bits=7) is None:
            return None
        first = self._anticollision(SEL_CL1)
        if first[0] != CASCADE_TAG:
            return first[:4]
        select = bytes([SEL_CL1, 0x70, *first])
        if self._transceive(select + crc_a(select)) is None:
            raise PartialRead("no answer to SELECT")
        return first[1:4] + self._anticollision(SEL_CL2)[:4]

    def close(self) -> None:
        """Turn the antenna off and release the bus."""
        if self._spi is not None:
            with contextlib.suppress(OSError):  # the reader may already be gone
                self._clear_bits(TX_CONTROL, 0x03)
            self._spi.close()
            self._spi = None

    # -- ISO 14443-A ---------------------------------------------------------------------------

    def _anticollision(self, level: int) -> bytes:
        answer = self._transceive(bytes([level, 0x20]))
        if answer is None or len(answer) != 5:
            raise PartialRead(f"anticollision answer {answer!r}")
        if answer[0] ^ answer[1] ^ answer[2] ^ answer[3] != answer[4]:
            raise PartialRead(f"bad check byte in {answer.hex()}")
        return answer

    def _transceive(self, data: bytes, last_bits: int = 0) -> bytes | None:
        self._write(COMMAND, IDLE)
        self._write(COM_IRQ, 0x7F)
        self._write(FIFO_LEVEL, 0x80)
        self._write(FIFO_DATA, *data)
        self._write(BIT_FRAMING, last_bits)
        self._write(COMMAND, TRANSCEIVE)
        self._set_bits(BIT_FRAMING, 0x80)  # StartSend
        for _ in range(50):
            irq = self._read(COM_IRQ)
            if irq & (RX_IRQ | IDLE_IRQ | TIMER_IRQ):
                break
        else:
            irq = TIMER_IRQ
        self._clear_bits(BIT_FRAMING, 0x80)
        if not irq & RX_IRQ:
            return None  # timeout: no tag
        error = self._read(ERROR)
        if error & COLLISION:
            raise PartialRead("several tags in the field")
        if error & ERRORS:
            raise PartialRead(f"transmission error 0x{error:02X}")
        return bytes(self._read(FIFO_DATA) for _ in range(self._read(FIFO_LEVEL)))
