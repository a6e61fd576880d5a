"""The first turn of a Last Bastion game played at a box built from a config file: mock button
presses, a keyboard-wedge tag swipe, a video of settled dice, LEDs and the voice, against a real
session. (The same through ``companion run --simulate`` waits for the web's ``run`` command.)

The camera and its settle detection are real; the faces are given by a labelled reader, because
reading coloured combat faces needs faces taught from photos of the real dice (``dice teach``).
"""

import time

import hwtools
import pytest
from gpiozero.pins.mock import MockFactory
from hwfakes import FakeKeyboard, dice_video, labelled_roll

from companion import config as settings
from companion.engine.tags import TagMap
from companion.i18n import render
from companion.speech import CHATTER, Announcer, urgency
from hardware import MESSAGES_DIR, build

FACES = ["red", "red", "white"]


def labelled_reader(frame, profile, data_dir=None, expected=None, colours=False):
    return labelled_roll(profile, FACES)


@pytest.mark.parametrize("lang", ["en", "fr"])
def test_first_turn_at_the_box(tmp_path, monkeypatch, lang):
    monkeypatch.setattr("hardware.dice.vision.read", labelled_reader)
    keyboard = FakeKeyboard(tmp_path / "event-kbd")
    video = dice_video(tmp_path / "roll.avi", FACES)
    conf = tmp_path / "config.toml"
    conf.write_text(f'[general]\nlanguage = "{lang}"\n'
                    f'[rfid]\nreader = "keyboard"\ndevice = "{keyboard.path}"\n'
                    f'[camera]\nkind = "replay"\npath = "{video}"\nfps = 20.0\n'
                    '[buttons]\nhold_time = 2.0\n')
    config = settings.load([conf])
    assert config.problems == []
    session = hwtools.Session(tmp_path / "data")
    TagMap(session.data_dir).enroll("04A1B2C3", "incube", "last-bastion")
    voice = hwtools.RecordingVoice()
    announcer = Announcer(voice, config["general"]["language"], [MESSAGES_DIR]).start()
    announcer.attach(session)
    steps = []
    session.subscribe(lambda update: steps.append(update.step))
    factory = MockFactory()
    table = build.start(session, config, announcer, pin_factory=factory)
    indicator = table.outputs[0]

    def press(pin):
        factory.pin(pin).drive_low()
        time.sleep(0.08)
        factory.pin(pin).drive_high()
        time.sleep(0.08)

    def last():
        return hwtools.journal_types(session)[-1]

    session.submit(hwtools.solo(hero="elmer"), source="web")
    assert hwtools.wait_until(lambda: indicator.shown == "card")
    keyboard.type("04A1B2C3")                                      # the card, by RFID
    assert hwtools.wait_until(lambda: last() == ("card", "rfid"))
    session.submit({"type": "place", "slot": "red.1"}, source="web")   # the host's choice
    press(17)                                                      # no printed effect
    session.submit({"type": "move", "hero": "elmer", "to": [0, 1]}, source="web")
    session.submit({"type": "fight", "targets": ["red.1"]}, source="web")
    assert hwtools.wait_until(lambda: last() == ("dice", "camera"), 10)
    assert session.journal_entries()[-1].event.fields == {"faces": sorted(FACES)}
    press(17)                                                      # take the suggestion
    press(17)                                                      # exit effect: none
    press(17)                                                      # end of the turn
    assert hwtools.wait_until(lambda: last() == ("end_turn", "button"))
    assert hwtools.wait_until(lambda: indicator.shown == "card")
    assert hwtools.journal_types(session) == [
        ("setup", "web"), ("card", "rfid"), ("place", "web"), ("answer", "button"),
        ("move", "web"), ("fight", "web"), ("dice", "camera"), ("resolve", "button"),
        ("answer", "button"), ("end_turn", "button")]
    assert announcer.wait_idle()
    table.stop()
    announcer.stop()

    said = [text for text, _ in voice.lines]
    results = [render(m, lang, session.game, step.state) for step in steps
               for m in step.announcements if urgency(m.key, session.game) != CHATTER]
    assert [t for t in said if t in results] == results          # every result, in order
    assert ("Victory" not in " ".join(said)) and any("Incube" in t for t in said)
    assert table.status.snapshot()["problems"] == {}


def test_missing_hardware_is_reported_once_and_the_rest_works(tmp_path):
    conf = tmp_path / "config.toml"
    conf.write_text('[rfid]\nreader = "pn532"\ni2c_bus = 97\n'
                    f'[camera]\nkind = "opencv"\npath = "{tmp_path / "no-webcam"}"\n'
                    '[leds]\nred = false\n[buttons]\nroll = 99\n[speech]\nvolume = 3.5\n')
    config = settings.load([conf])
    session = hwtools.started_game(tmp_path / "data")
    voice = hwtools.RecordingVoice()
    announcer = Announcer(voice, "en", [MESSAGES_DIR]).start()
    factory = MockFactory()
    table = build.start(session, config, announcer, pin_factory=factory)
    problems = table.status.problems
    assert hwtools.wait_until(lambda: len(problems) == 3)
    assert set(problems) == {"config", "PN532 at 0x24 on /dev/i2c-97",
                             f"camera {tmp_path / 'no-webcam'}"}
    shown = table.status.snapshot("en")["problems"]["Configuration"]  # every problem, on the page
    assert "buttons.roll = 99" in shown and "speech.volume = 3.5" in shown
    assert table.outputs == []               # the RGB LED lost a pin: no LEDs
    session.submit({"type": "card", "id": "incube"}, source="web")
    factory.pin(27).drive_low()              # the undo button still works
    assert hwtools.wait_until(lambda: hwtools.journal_types(session)[-1] == ("undo", "button"))
    assert announcer.wait_idle()
    said = [text for text, _ in voice.lines]
    assert said[0] == "The config file has mistakes: run companion doctor."
    assert sum("not working" in text for text in said) == 2
    table.stop()
    announcer.stop()
