"""``companion tags``, ``companion config`` and ``companion doctor`` (through their parsers)."""

import argparse
import functools
import json
import threading

import hwtools  # noqa: F401  (puts the repository first on sys.path)
import pytest
from gpiozero import Button
from gpiozero.pins.mock import MockFactory
from hwfakes import FakeKeyboard, FakeMFRC522

from companion import config as settings
from hardware import doctor
from hardware.cli import add_hardware_parsers
from hardware.rfid.mfrc522 import MFRC522
from hardware.status import Status


def run(capsys, *argv):
    parser = argparse.ArgumentParser(prog="companion")
    add_hardware_parsers(parser.add_subparsers(dest="command", required=True))
    args = parser.parse_args(argv)
    code = args.func(args)
    out, err = capsys.readouterr()
    return code, out, err


@pytest.fixture(autouse=True)
def no_user_config(monkeypatch, tmp_path):
    monkeypatch.setattr(settings, "default_files", lambda: [])
    monkeypatch.setenv("COMPANION_DATA_DIR", str(tmp_path / "data"))


def test_tags_enroll_list_forget(capsys, tmp_path):
    assert run(capsys, "tags", "enroll", "incube", "--uid", "04:a1:b2:c3")[0] == 0
    code, out, _ = run(capsys, "tags", "list")
    assert code == 0 and out.split() == ["04A1B2C3", "last-bastion", "incube"]
    assert json.loads(run(capsys, "tags", "list", "--json")[1]) == {
        "04A1B2C3": {"card": "incube", "game": "last-bastion"}}
    assert run(capsys, "tags", "forget", "04a1b2c3")[1] == "forgot tag 04A1B2C3\n"
    code, _, err = run(capsys, "tags", "forget", "04a1b2c3")
    assert code == 2 and "not enrolled" in err
    code, _, err = run(capsys, "tags", "enroll", "no-such-card", "--uid", "04A1")
    assert code == 2 and "unknown card 'no-such-card'" in err
    code, _, err = run(capsys, "tags", "enroll", "incube", "--uid", "04G")
    assert code == 2 and "not a tag UID" in err
    code, _, err = run(capsys, "tags", "enroll", "incube")
    assert code == 2 and "no RFID reader configured" in err
    code, _, err = run(capsys, "tags", "forget", "04a1b2c3", "--lang", "fr")
    assert code == 2 and err == "le badge 04A1B2C3 n'est pas enregistré\n"


def test_tags_enroll_waits_for_a_swipe_on_the_configured_reader(capsys, tmp_path):
    keyboard = FakeKeyboard(tmp_path / "event-kbd")
    conf = tmp_path / "c.toml"
    conf.write_text(f'[rfid]\nreader = "keyboard"\ndevice = "{keyboard.path}"\n')
    typist = threading.Timer(0.3, keyboard.type, ["04112233445566"])
    typist.start()
    code, out, err = run(capsys, "tags", "enroll", "canon-de-l-infamie", "--config", str(conf),
                         "--timeout", "5")
    assert code == 0 and "Swipe the tag now" in err, err
    assert out == "tag 04112233445566 is now canon-de-l-infamie (last-bastion)\n"


def test_config_prints_values_with_their_origin_and_problems(capsys, tmp_path):
    conf = tmp_path / "c.toml"
    conf.write_text('[speech]\nrate = 140\nvolum = 0.5\n')
    code, out, err = run(capsys, "config", "--config", str(conf))
    assert code == 2
    assert f"# {conf}:2" in next(line for line in out.splitlines() if line.startswith("rate"))
    assert f"{conf}:3: unknown key 'volum'" in err


def test_doctor_says_what_is_wrong_and_how_to_fix_it(tmp_path, capsys):
    conf = tmp_path / "c.toml"
    conf.write_text('[rfid]\nreader = "mfrc522"\n[speech]\nenabled = false\n'
                    '[leds]\nred = 17\n')
    cfg = settings.load([conf])
    checks = {c.name: c for c in doctor.run(cfg, tmp_path, dev=tmp_path)}
    assert checks["SPI"].ok is False and "do_spi" in checks["SPI"].fix
    assert checks["I2C"].ok is None
    assert checks["RFID reader"].ok is False and "never 5 V" in checks["RFID reader"].fix
    assert checks["config"].ok is False and "leds.red = 17: GPIO17 is already used by " \
        "buttons.next" in checks["config"].detail
    assert checks["speech"].ok is None and checks["camera"].ok is None
    code, out, _ = run(capsys, "doctor", "--config", str(conf))
    assert code == 1 and "[FAIL] SPI" in out and "fix: sudo raspi-config nonint do_spi 0" in out


def test_doctor_passes_on_a_healthy_box(tmp_path, monkeypatch):
    (tmp_path / "spidev0.0").touch()
    chip = FakeMFRC522()
    monkeypatch.setattr("hardware.build.MFRC522", functools.partial(MFRC522, open_bus=chip))
    conf = tmp_path / "c.toml"
    conf.write_text('[rfid]\nreader = "mfrc522"\n'
                    '[speech]\nbackend = "espeak-ng"\ndevice = "null"\n')
    Status(tmp_path).tag_seen("04A1B2C3", "MFRC522 on /dev/spidev0.0")
    factory = MockFactory()
    checks = doctor.run(settings.load([conf]), tmp_path, dev=tmp_path, pin_factory=factory)
    assert [c.name for c in checks if c.ok is False] == []
    by_name = {c.name: c for c in checks}
    assert by_name["RFID reader"].detail.endswith("MFRC522 v2.0")
    assert "04A1B2C3" in by_name["last tag"].detail and "unknown tag" in by_name["last tag"].detail
    Button(27, pin_factory=factory)          # the undo pin, held by another program
    assert "GPIO27" in doctor.check_pins(settings.load([conf]), factory).detail
