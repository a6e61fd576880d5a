"""The buses RFID chips hang on: SPI through ``spidev``, I2C through ``/dev/i2c-N``.

Drivers take any object with the same two or three methods, so the tests give them fake buses.
``spidev`` is imported only when a real SPI bus is opened (it exists only on a Pi-like board).
"""

from __future__ import annotations

import fcntl
import os
from typing import Any, Protocol

I2C_SLAVE = 0x0703  # ioctl: address the following reads and writes to this device


class SPIBus(Protocol):
    """A full-duplex SPI transfer: bytes out, as many bytes in."""

    def xfer2(self, data: list[int]) -> list[int]:
        """Send ``data`` and return what came back."""

    def close(self) -> None:
        """Release the bus."""


class I2CBus(Protocol):
    """Raw I2C reads and writes to a device address."""

    def write(self, address: int, data: bytes) -> None:
        """Write ``data`` to the device."""

    def read(self, address: int, count: int) -> bytes:
        """Read ``count`` bytes from the device."""

    def close(self) -> None:
        """Release the bus."""


def open_spi(bus: int, device: int, speed_hz: int = 1_000_000) -> Any:
    """``/dev/spidevBUS.DEVICE`` as an :class:`SPIBus`; OSError when SPI is off or absent."""
    path = f"/dev/spidev{bus}.{device}"
    if not os.path.exists(path):
        raise FileNotFoundError(f"{path} does not exist (is SPI enabled?)")
    try:
        import spidev
    except ImportError as exc:
        raise OSError("the spidev module is missing (sudo apt install python3-spidev)") from exc
    spi = spidev.SpiDev()
    spi.open(bus, device)
    spi.max_speed_hz = speed_hz
    spi.mode = 0
    return spi


class LinuxI2C:
    """``/dev/i2c-N`` read and written directly (no smbus library needed)."""

    def __init__(self, bus: int) -> None:
        self.path = f"/dev/i2c-{bus}"
        self._fd = os.open(self.path, os.O_RDWR)
        self._address: int | None = None

    def _select(self, address: int) -> None:
        if address != self._address:
            fcntl.ioctl(self._fd, I2C_SLAVE, address)
            self._address = address

    def write(self, address: int, data: bytes) -> None:
        """Write ``data`` to the device at ``address``."""
        self._select(address)
        os.write(self._fd, data)

    def read(self, address: int, count: int) -> bytes:
        """Read ``count`` bytes from the device at ``address``."""
        self._select(address)
        return os.read(self._fd, count)

    def close(self) -> None:
        """Close the bus device."""
        os.close(self._fd)
