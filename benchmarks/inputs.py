"""How fast the table's inputs reach the journal, and how fast the voice starts.

    .venv/bin/python benchmarks/inputs.py [--presses N] [--swipes N] [--announcements N]

Printed: the median and p95 milliseconds from a (mock) button press, or a tag swipe (MFRC522 on
a fake SPI bus, polled as the running companion does, and a keyboard-wedge reader typing into
a fake input device), to its event being committed to the journal (targets: under 20 ms); from
an announcement of about 250 characters (French, English) being given to the announcer to the first
audio sample that espeak-ng streams to aplay (ALSA's ``null`` device; target: under 150 ms); and
for a burst of 20 presses in a second (refused, "draw", accepted next/undo) spoken by espeak-ng
at the pace of a real speaker: how long after the burst the last line starts (target: under
5 s) and whether that last line is the current state. Needs gpiozero, espeak-ng and aplay
(alsa-utils); the journal is on a temporary directory of this machine's disk.
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import sys
import tempfile
import threading
import time
import wave
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(ROOT), str(ROOT / "tests" / "helpers"), str(ROOT / "tests" / "hardware")]

from gpiozero.pins.mock import MockFactory  # noqa: E402
from hwfakes import FakeKeyboard, FakeMFRC522  # noqa: E402
from hwtools import started_game  # noqa: E402

from companion.engine import Message, Session  # noqa: E402
from companion.speech import RESULT, Announcer  # noqa: E402
from companion.voices import EspeakVoice  # noqa: E402
from hardware import MESSAGES_DIR  # noqa: E402
from hardware.buttons import Buttons  # noqa: E402
from hardware.inputs import Press  # noqa: E402
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


SENTENCES = {
    "en": "The Evil grip tightens on the red bastion: two tokens are placed on the tower of the "
          "north wall, the green hero loses one life point, and the next card must be drawn "
          "before the heroes may move again, unless the old guardian is woken by the bell.",
    "fr": "L'emprise du Mal se resserre sur le bastion rouge : deux jetons sont posés sur la tour "
          "du rempart nord, le héros vert perd un point de vie, et la carte suivante doit être "
          "piochée avant que les héros ne bougent, sauf si la cloche réveille le gardien.",
}


def announcements(count: int, data_dir: Path, lang: str) -> list[float]:
    """Give the announcer a 250-character line; time until espeak-ng's first sample leaves for
    aplay (playing on ALSA's null device, which discards it without pacing)."""
    catalogs = data_dir / "messages"
    catalogs.mkdir(parents=True)
    (catalogs / f"{lang}.json").write_text(json.dumps({"bench.sentence": SENTENCES[lang]}))
    first = threading.Event()
    heard = [0.0]

    def on_audio(at: float) -> None:
        heard[0] = at
        first.set()

    announcer = Announcer(EspeakVoice(device="null", on_audio=on_audio), lang, [catalogs],
                          merge_seconds=0.0).start()
    times = []
    for _ in range(count):
        first.clear()
        start = time.perf_counter()
        announcer.say(Message("bench.sentence"), RESULT)
        if not first.wait(5):
            raise RuntimeError("espeak-ng gave no audio")
        times.append((heard[0] - start) * 1000)
        announcer.wait_idle(30)
    announcer.stop()
    return times


class SpeakerVoice:
    """espeak-ng at the pace of a loudspeaker: each sentence is rendered, then takes as long to
    'say' as its audio lasts (ALSA's devices on this machine discard samples without pacing)."""

    def __init__(self, data_dir: Path) -> None:
        self.espeak = EspeakVoice(output_dir=data_dir)

    def speak(self, text: str, lang: str) -> None:
        start = time.monotonic()
        self.espeak.speak(text, lang)
        with wave.open(str(self.espeak.written[-1])) as wav:
            seconds = wav.getnframes() / wav.getframerate()
        time.sleep(max(0.0, seconds - (time.monotonic() - start)))

    def close(self) -> None:
        self.espeak.close()


def burst(kind: str, data_dir: Path) -> tuple[float, bool, int, int, int]:
    """20 presses in one second; returns the seconds from the burst's end to the start of the
    last line said (negative: it started during the burst), whether that line is about the
    current state, the events the presses journaled, and the lines said and skipped (merged or
    dropped)."""
    session = started_game(data_dir)
    if kind == "accepted":
        session.submit({"type": "card", "id": "incube"})
        session.submit({"type": "place", "slot": "red.1"})  # next answers, undo takes it back
    announcer = Announcer(SpeakerVoice(data_dir / "said"), "en", [MESSAGES_DIR]).start()
    announcer.attach(session)
    table = Table(session, announcer)
    before = session.version
    for i in range(20):
        role = {"refused": "next", "draw": "draw"}.get(kind) or ("next", "undo")[i % 2]
        table.press(Press(role, role))
        time.sleep(0.05)
    end = time.time()
    announcer.wait_idle(120)
    last = announcer.said[-1]
    current = last.version == session.version
    table.stop()
    announcer.stop()
    return (last.at - end, current, session.version - before, len(announcer.said),
            announcer.merged + announcer.dropped)


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
        for lang in ("en", "fr"):
            show(f"{len(SENTENCES[lang])}-char announcement ({lang}) -> first sample",
                 announcements(args.announcements, root / f"speech-{lang}", lang), 150)
        for kind in ("refused", "draw", "accepted"):
            after, current, events, said, skipped = burst(kind, root / f"burst-{kind}")
            verdict = "ok" if after < 5 and current else "OVER TARGET"
            print(f"burst of 20 {kind:<8} presses in 1 s ({events:2d} events): last line starts "
                  f"{after:+5.2f} s after it (target < 5 s), is the current state: {current}; "
                  f"{said} said, {skipped} merged or dropped: {verdict}")


if __name__ == "__main__":
    main()
