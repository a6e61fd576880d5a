"""How fast the table's inputs reach the journal, and how fast the voice starts.

    .venv/bin/python benchmarks/inputs.py [--presses N] [--swipes N] [--announcements N]

Printed: the median and p95 milliseconds from a (mock) button press, or a tag swipe (MFRC522 on
a fake SPI bus, polled as the running companion does, and a keyboard-wedge reader typing into
a fake input device), to its event being committed to the journal (targets: under 20 ms); and
from an event being submitted to the first audio sample that espeak-ng writes for its
announcement (target: under 300 ms). Needs gpiozero and espeak-ng; the journal is on a
temporary directory of this machine's disk.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import tempfile
import threading
import time
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(ROOT), str(ROOT / "tests"), str(ROOT / "tests" / "hardware")]

from gpiozero.pins.mock import MockFactory  # noqa: E402
from hwfakes import FakeKeyboard, FakeMFRC522  # noqa: E402
from hwtools import started_game  # noqa: E402

from companion.engine import Session  # noqa: E402
from companion.speech import Announcer, EspeakVoice  # noqa: E402
from hardware.buttons import Buttons  # noqa: E402
from hardware.rfid import TagReader, TagSource  # noqa: E402
from hardware.rfid.mfrc522 import MFRC522  # noqa: E402
from hardware.rfid.wedge import KeyboardWedge  # noqa: E402
from hardware.table import Table  # noqa: E402

TAGS = {"04A1B2C3": "incube", "04112233445566": "replicateur-sombre"}


class Journaled:
    """Waits for the next commit of the session and tells when it happened."""

    def __init__(self, session: Session) -> None:
        self._done = threading.Event()
        self.at = 0.0
        session.subscribe(self._committed)

    def _committed(self, _update: object) -> None:
        self.at = time.perf_counter()
        self._done.set()

    def time(self, act: Callable[[], None]) -> float:
        """Milliseconds from ``act`` to the commit it causes."""
        self._done.clear()
        start = time.perf_counter()
        act()
        if not self._done.wait(5):
            raise RuntimeError("the input never reached the journal")
        return (self.at - start) * 1000


def presses(count: int, data_dir: Path) -> list[float]:
    """A mock button press on next, then on undo, alternately: answer, undo, answer..."""
    session = started_game(data_dir)
    session.submit({"type": "card", "id": "incube"})
    session.submit({"type": "place", "slot": "red.1"})  # now waiting for an answer
    factory = MockFactory()
    table = Table(session)
    table.add(Buttons({"next": 17, "undo": 27}, pin_factory=factory))
    journaled = Journaled(session)
    times = []
    for i in range(count):
        pin = factory.pin(17 if i % 2 == 0 else 27)
        times.append(journaled.time(pin.drive_low))
        pin.drive_high()
        time.sleep(0.06)  # past the bounce time
    table.stop()
    return times


def swipes(count: int, data_dir: Path, reader: TagReader, present: Callable[[str], None],
           remove: Callable[[], None]) -> list[float]:
    """Two enrolled tags presented in turn; each card is undone before the next swipe, and the
    next tag comes after a random pause (a person is not in step with the reader's polling: back
    to back, every swipe would land just after a poll and wait a whole period)."""
    pauses = random.Random(7)
    session = started_game(data_dir)
    table = Table(session)
    for uid, card in TAGS.items():
        table.tags.enroll(uid, card, "last-bastion")
    table.add(TagSource(reader, table.status))
    time.sleep(0.2)  # the reader opens
    journaled = Journaled(session)
    times = []
    for i in range(count):
        uid = list(TAGS)[i % 2]
        time.sleep(pauses.uniform(0, 0.05))
        times.append(journaled.time(lambda uid=uid: present(uid)))
        remove()
        session.submit({"type": "undo"})
    table.stop()
    return times


def mfrc522_swipes(count: int, data_dir: Path) -> list[float]:
    chip = FakeMFRC522()

    def present(uid: str) -> None:
        chip.tag = bytes.fromhex(uid)

    def remove() -> None:
        chip.tag = None

    return swipes(count, data_dir, MFRC522(open_bus=chip), present, remove)


def wedge_swipes(count: int, data_dir: Path) -> list[float]:
    keyboard = FakeKeyboard(data_dir.parent / f"{data_dir.name}-kbd")
    return swipes(count, data_dir, KeyboardWedge(keyboard.path), keyboard.type, lambda: None)


def announcements(count: int, data_dir: Path) -> list[float]:
    """Submit an event; time until espeak-ng writes the first sample of what is said."""
    session = started_game(data_dir)
    session.submit({"type": "card", "id": "incube"})
    session.submit({"type": "place", "slot": "red.1"})
    first = threading.Event()
    heard = [0.0]

    def on_audio(at: float) -> None:
        if not first.is_set():
            heard[0] = at
            first.set()

    announcer = Announcer(EspeakVoice(output_dir=data_dir / "wav", on_audio=on_audio)).start()
    announcer.attach(session)
    times = []
    for i in range(count):
        first.clear()
        event = {"type": "answer", "effects": []} if i % 2 == 0 else {"type": "undo"}
        start = time.perf_counter()
        session.submit(event)
        first.wait(5)
        times.append((heard[0] - start) * 1000)
        announcer.wait_idle(10)
    announcer.stop()
    return times


def show(name: str, times: list[float], target: float) -> None:
    median = statistics.median(times)
    p95 = sorted(times)[int(0.95 * (len(times) - 1))]
    verdict = "ok" if median < target else "OVER TARGET"
    print(f"{name:<44} median {median:7.2f} ms   p95 {p95:7.2f} ms   "
          f"(n={len(times)}, target < {target:g} ms: {verdict})")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--presses", type=int, default=100)
    parser.add_argument("--swipes", type=int, default=60)
    parser.add_argument("--announcements", type=int, default=20)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp)
        show("button press -> journaled", presses(args.presses, root / "presses"), 20)
        show("MFRC522 swipe (polled) -> journaled", mfrc522_swipes(args.swipes, root / "rc522"), 20)
        show("keyboard-wedge swipe -> journaled", wedge_swipes(args.swipes, root / "wedge"), 20)
        show("announcement -> first espeak-ng sample",
             announcements(args.announcements, root / "speech"), 300)


if __name__ == "__main__":
    main()
