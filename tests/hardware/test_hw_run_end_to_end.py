"""The first turn of a Last Bastion game played through ``companion run --simulate`` in a child
process, at a box wired by a config file: a keyboard-wedge reader on a fake input device (a FIFO),
a replay camera on a video of settled dice that the real dice reader reads, buttons on gpiozero's
mock pins, and espeak-ng writing what it says to WAV files. The host sets the game up and plays
the choices through the JSON API, with the PIN.

Mock pins live inside the companion's process, so the test presses the buttons through the
documented button FIFO (``[buttons] mock_fifo``, see hardware/mockpins.py): the presses still go
through the real gpiozero buttons, their bounce and hold times.
"""

import http.cookiejar
import json
import os
import shutil
import signal
import subprocess
import sys
import urllib.request
import wave
from pathlib import Path

import hwtools
import pytest
from hwfakes import FakeKeyboard, dice_video

import vision
from companion.engine import Session
from companion.engine.tags import TagMap
from companion.i18n import catalog, render
from companion.speech import CHATTER, urgency
from web.auth import PinStore

ROOT = Path(__file__).resolve().parents[2]
FACES = ["red", "red", "white"]
PROFILE = "last-bastion/combat"
PIN = "2468"
UID = "04A1B2C3"

if shutil.which("espeak-ng") is None:  # a missing voice is a broken machine, never a silent skip
    raise RuntimeError("espeak-ng is not installed: apt-get install espeak-ng (.ci/run does it)")


def readable_video(path: Path, data_dir: Path) -> Path:
    """A video of the settled ``FACES`` that the dice reader reads for sure (the first of a few
    seeds whose encoded still frame reads right, so a change in ``vision`` does not break it)."""
    import cv2

    for seed in range(1, 30):
        dice_video(path, FACES, PROFILE, moving=4, still=20, fps=20.0, seed=seed)
        capture = cv2.VideoCapture(str(path))
        frames = []
        while (frame := capture.read()[1]) is not None:
            frames.append(frame)
        capture.release()
        roll = vision.read(frames[-1], PROFILE, data_dir=data_dir, expected=len(FACES))
        if roll.certain and sorted(roll.faces) == sorted(FACES):
            return path
    pytest.fail("the dice reader reads none of the rendered rolls for sure")


class Host:
    """The host's phone: a cookie jar, the CSRF token, JSON in and out."""

    def __init__(self, url: str) -> None:
        self.url, self.csrf = url, ""
        self.opener = urllib.request.build_opener(
            urllib.request.HTTPCookieProcessor(http.cookiejar.CookieJar()))
        self.csrf = self.call("POST", "api/login", {"pin": PIN})["csrf"]

    def call(self, method: str, path: str, body: dict | None = None) -> dict:
        data = None if body is None else json.dumps(body).encode()
        request = urllib.request.Request(
            self.url + path, method=method, data=data,
            headers={"Content-Type": "application/json", "X-CSRF-Token": self.csrf})
        with self.opener.open(request, timeout=10) as reply:
            self.csrf = reply.headers.get("X-CSRF-Token", self.csrf)
            return json.loads(reply.read())

    def send(self, event: dict) -> dict:
        return self.call("POST", "api/events", {"event": event})

    def version(self) -> int:
        return self.call("GET", "api/state")["version"]


def replayed_results(entries, lang: str, data_dir: Path) -> list[str]:
    """What the companion must have said for sure: every result and warning of the journaled
    events (replayed in a fresh session in ``data_dir``, never the user's own journal), never
    the chatter a faster table may skip."""
    session = Session(data_dir)
    results = []
    for entry in entries:
        step = session.submit(entry.event.to_json() | {"source": entry.event.source})
        results += [render(m, lang, session.game, step.state) for m in step.announcements
                    if urgency(m.key, session.game) != CHATTER]
    session.close()
    return results


@pytest.mark.parametrize("lang", ["en", "fr"])
def test_first_turn_through_companion_run(tmp_path, lang):
    data = tmp_path / "data"
    TagMap(data).enroll(UID, "incube", "last-bastion")
    PinStore(data).set(PIN)
    keyboard = FakeKeyboard(tmp_path / "event-kbd")
    buttons = tmp_path / "buttons"
    os.mkfifo(buttons)
    video = readable_video(tmp_path / "roll.avi", data)
    wavs = tmp_path / "said"
    conf = tmp_path / "config.toml"
    conf.write_text(f'[general]\nlanguage = "{lang}"\npin_factory = "mock"\n'
                    f'[speech]\nbackend = "espeak-ng"\nwav_dir = "{wavs}"\nrate = 300\n'
                    f'[buttons]\nhold_time = 2.0\nmock_fifo = "{buttons}"\n'
                    f'[rfid]\nreader = "keyboard"\ndevice = "{keyboard.path}"\n'
                    f'[camera]\nkind = "replay"\npath = "{video}"\nfps = 20.0\n')
    errors = (tmp_path / "stderr").open("w")
    process = subprocess.Popen(
        [sys.executable, "-m", "companion", "run", "--simulate", "--host", "127.0.0.1",
         "--port", "0", "--data-dir", str(data)], cwd=ROOT, stdout=subprocess.PIPE,
        stderr=errors, text=True,
        env={**os.environ, "PYTHONUNBUFFERED": "1", "COMPANION_CONFIG": str(conf)})
    press_fd = os.open(buttons, os.O_RDWR)
    try:
        host = Host(process.stdout.readline().split()[-1])

        def then(action, version: int, timeout: float = 10.0) -> int:
            """Do ``action`` and wait for the version after it."""
            action()
            assert hwtools.wait_until(lambda: host.version() > version, timeout), \
                (tmp_path / "stderr").read_text()
            return host.version()

        def press() -> None:
            os.write(press_fd, b"next\n")

        assert host.call("GET", "api/host")["sensors"] is True
        v = host.send(hwtools.solo(hero="elmer"))["version"]
        v = then(lambda: keyboard.type(UID), v)                            # the card, by RFID
        v = host.send({"type": "place", "slot": "red.1"})["version"]        # the host's choice
        v = then(press, v)                                                  # no printed effect
        host.send({"type": "move", "hero": "elmer", "to": [0, 1]})
        v = host.send({"type": "fight", "targets": ["red.1"]})["version"]
        v = then(lambda: None, v, 20)                                       # the camera reads
        for _ in range(3):                       # take the suggestion, exit effect: none, end turn
            v = then(press, v)
        box = host.call("GET", "api/box")
        assert box["problems"] == {} and box["last_tag"]["card"] == "incube"
        process.send_signal(signal.SIGTERM)
        out, _ = process.communicate(timeout=60)
    finally:
        os.close(press_fd)
        errors.close()
        if process.poll() is None:
            process.kill()
    assert process.returncode == 0 and out.rstrip().endswith(catalog(lang)["run.stopped"])

    session = Session(data)
    entries = session.journal_entries()
    assert hwtools.journal_types(session) == [
        ("setup", "web"), ("card", "rfid"), ("place", "web"), ("answer", "button"),
        ("move", "web"), ("fight", "web"), ("dice", "camera"), ("resolve", "button"),
        ("answer", "button"), ("end_turn", "button")]
    assert sorted(entries[6].event.fields["faces"]) == sorted(FACES)
    session.close()

    spoken = sorted(wavs.glob("*.wav"))
    said = [path.with_suffix(".txt").read_text(encoding="utf-8") for path in spoken]
    results = replayed_results(entries, lang, tmp_path / "replayed")
    assert [text for text in said if text in results] == results      # every result, in order
    assert any("Incube" in text for text in said)
    for path, text in zip(spoken, said, strict=True):
        with wave.open(str(path)) as wav:
            seconds = wav.getnframes() / wav.getframerate()
        # 300 words a minute is 0.2 s a word; pauses and long names stretch it, never by 4x
        assert 0.05 * len(text.split()) < seconds < 0.8 * len(text.split()) + 0.5, (text, seconds)
