"""Fakes for the hardware tests: an MFRC522 on SPI, a PN532 on I2C and an input device that a
keyboard-wedge reader types into (each holds a tag or none, can corrupt its next answer, a tag
read half-way, and can be unplugged); videos of a roll; and labelled rolls."""

from __future__ import annotations

import os
from collections import defaultdict

import cv2
import numpy as np

from hardware.rfid import mfrc522 as m
from hardware.rfid import pn532 as p
from hardware.rfid.wedge import EVENT, KEYS
from vision import Die, Roll
from vision.synth import render


class FakeMFRC522:
    """An MFRC522's registers and FIFO, with a tag of 4 or 7 bytes in its field."""

    def __init__(self, tag: bytes | None = None) -> None:
        self.regs: dict[int, int] = defaultdict(int)
        self.regs[m.VERSION] = 0x92
        self.fifo: list[int] = []
        self.tag = tag
        self.corrupt = self.collision = False
        self.unplugged = False
        self.closed = False

    def __call__(self, bus: int, device: int) -> FakeMFRC522:
        """Opening the bus (what ``open_spi`` does)."""
        if self.unplugged:
            raise FileNotFoundError(f"/dev/spidev{bus}.{device}")
        self.closed = False
        return self

    def close(self) -> None:
        self.closed = True

    def xfer2(self, data: list[int]) -> list[int]:
        address, value = data
        if self.unplugged:
            return [0, 0]                    # an SPI bus with nothing on it reads zeros
        register = (address >> 1) & 0x3F
        if address & 0x80:
            if register == m.FIFO_DATA:
                return [0, self.fifo.pop(0) if self.fifo else 0]
            if register == m.FIFO_LEVEL:
                return [0, len(self.fifo)]
            return [0, self.regs[register]]
        if register == m.FIFO_DATA:
            self.fifo.append(value)
        elif register == m.FIFO_LEVEL:
            self.fifo.clear()
        elif register == m.COM_IRQ:
            self.regs[m.COM_IRQ] &= ~value
        else:
            self.regs[register] = value
            if register == m.BIT_FRAMING and value & 0x80 \
                    and self.regs[m.COMMAND] == m.TRANSCEIVE:
                self._transceive()
        return [0, 0]

    def _transceive(self) -> None:
        answer = self._answer(bytes(self.fifo))
        self.fifo = list(answer or b"")
        self.regs[m.COM_IRQ] = m.TIMER_IRQ if answer is None else m.RX_IRQ
        self.regs[m.ERROR] = m.COLLISION if answer is not None and self.collision else 0

    def _answer(self, frame: bytes) -> bytes | None:
        tag = self.tag
        if tag is None:
            return None
        if frame == bytes([m.REQA]):
            return b"\x44\x00" if len(tag) == 7 else b"\x04\x00"
        if frame == bytes([m.SEL_CL1, 0x20]):
            return self._with_bcc(tag if len(tag) == 4 else bytes([m.CASCADE_TAG]) + tag[:3])
        if frame[:2] == bytes([m.SEL_CL1, 0x70]):
            return b"\x04" + m.crc_a(b"\x04")
        if frame == bytes([m.SEL_CL2, 0x20]):
            return self._with_bcc(tag[3:7])
        return None

    def _with_bcc(self, part: bytes) -> bytes:
        bcc = part[0] ^ part[1] ^ part[2] ^ part[3]
        if self.corrupt:
            self.corrupt, bcc = False, bcc ^ 0xFF
        return part + bytes([bcc])


def pn532_frame(command: int, data: bytes, bad_checksum: bool = False) -> bytes:
    """A frame from the PN532 to the host."""
    body = bytes([p.PN532_TO_HOST, command + 1, *data])
    check = (-sum(body) + (1 if bad_checksum else 0)) & 0xFF
    return bytes([0, 0, 0xFF, len(body), (-len(body)) & 0xFF, *body, check, 0])


class FakePN532:
    """A PN532 on I2C: acknowledges each command, then answers it."""

    def __init__(self, tag: bytes | None = None) -> None:
        self.tag = tag
        self.pending: list[bytes] = []
        self.corrupt = False
        self.unplugged = False
        self.commands: list[int] = []

    def __call__(self, bus: int) -> FakePN532:
        if self.unplugged:
            raise FileNotFoundError(f"/dev/i2c-{bus}")
        return self

    def close(self) -> None:
        pass

    def _check(self) -> None:
        if self.unplugged:
            raise OSError(121, "Remote I/O error")

    def write(self, address: int, data: bytes) -> None:
        self._check()
        command = data[6]
        self.commands.append(command)
        answers = {p.GET_FIRMWARE_VERSION: b"\x32\x01\x06\x07", p.SAM_CONFIGURATION: b"",
                   p.RF_CONFIGURATION: b""}
        if command == p.IN_LIST_PASSIVE_TARGET:
            answer = b"\x00" if self.tag is None else bytes(
                [1, 1, 0x00, 0x44, 0x00, len(self.tag), *self.tag])
        else:
            answer = answers[command]
        self.pending = [p.ACK, pn532_frame(command, answer, self.corrupt)]
        self.corrupt = False

    def read(self, address: int, count: int) -> bytes:
        self._check()
        if count == 1:
            return bytes([p.READY if self.pending else 0])
        data = bytes([p.READY]) + self.pending.pop(0)
        return data.ljust(count, b"\x00")[:count]


KEYCODES = {c: code for code, c in KEYS.items() if code < 60}  # the main keyboard's keys


class FakeKeyboard:
    """A named pipe standing for ``/dev/input/eventN``; :meth:`type` sends key events."""

    def __init__(self, path) -> None:
        self.path = str(path)
        os.mkfifo(self.path)
        self.fd: int | None = None
        self.plug()

    def plug(self) -> None:
        self.fd = os.open(self.path, os.O_RDWR)

    def unplug(self) -> None:
        os.close(self.fd)
        self.fd = None

    def keys(self, codes) -> None:
        data = b"".join(EVENT.pack(0, 0, 1, code, value) + EVENT.pack(0, 0, 0, 0, 0)
                        for code in codes for value in (1, 0))
        os.write(self.fd, data)

    def type(self, text: str, enter: bool = True) -> None:
        self.keys([42] + [KEYCODES[c] for c in text.upper()] + ([28] if enter else []))



def dice_video(path, faces, profile="last-bastion/combat", moving=4, still=12, fps=10.0,
               seed=7, colours=None):
    """A video of a roll: ``moving`` frames of dice still tumbling, then ``still`` frames of the
    settled ``faces`` (of ``colours``, one per die, for dice made in several). Returns the
    path."""
    rng = np.random.default_rng(seed)
    frames = [render(profile, rng, count=len(faces))[0] for _ in range(moving)]
    frames += [render(profile, np.random.default_rng(seed), faces=list(faces),
                      bodies=colours)[0]] * still
    height, width = frames[0].shape[:2]
    writer = cv2.VideoWriter(str(path), cv2.VideoWriter_fourcc(*"MJPG"), fps, (width, height))
    for frame in frames:
        writer.write(frame)
    writer.release()
    return path


def labelled_roll(profile, faces, colours=None):
    """A certain roll of ``faces`` side by side (of ``colours``, one per die, when given): what
    a reader that knows the dice returns."""
    dice = zip(faces, colours or [None] * len(faces), strict=True)
    return Roll(profile, tuple(Die(face, 0.99, (40 * i, 0, 40 * i + 30, 30), False, colour)
                               for i, (face, colour) in enumerate(dice)))
