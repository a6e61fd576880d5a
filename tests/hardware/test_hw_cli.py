"""``companion tags``, ``companion config`` and ``companion doctor`` (through their parsers)."""

import argparse
import base64
import functools
import json
import sys
import threading

import hwtools  # noqa: F401  (puts the repository first on sys.path)
import numpy as np
import pytest
from gpiozero import Button
from gpiozero.pins.mock import MockFactory
from hwfakes import FakeKeyboard, FakeMFRC522

import vision
import vision.net
from companion import config as settings
from hardware import doctor
from hardware.cli import add_hardware_parsers
from hardware.rfid.mfrc522 import MFRC522
from hardware.status import Status
from vision.profile import taught_path
from vision.synth import render


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


@pytest.fixture
def fresh_models():
    """The dice models loaded anew in the test, and again after it (they are kept per process)."""
    vision.net.shipped.cache_clear()
    yield
    vision.net.shipped.cache_clear()


def _red_dice(data_dir, count=3):
    image = render("last-bastion/combat", np.random.default_rng(7), faces=["red"] * count)[0]
    vision.teach("last-bastion/combat", "red", [image], data_dir, count=count)


def test_doctor_reads_a_test_roll_and_names_the_library_and_taught_profiles(tmp_path, capsys):
    _red_dice(tmp_path / "data")
    code, out, _ = run(capsys, "doctor", "--lang", "fr")
    line = next(line for line in out.splitlines() if "lecteur de dés" in line)
    assert line.startswith("[ ok ]") and "lit juste un lancer d'essai de 6 dés" in line
    assert "ONNX Runtime" in line and "faces apprises : last-bastion/combat" in line


def test_doctor_says_dice_read_more_slowly_without_onnx_runtime(monkeypatch, fresh_models,
                                                                 tmp_path):
    """A 32-bit Pi OS has no ONNX Runtime: the dice still read, and the tinkerer is told why
    they read more slowly and what to do."""
    monkeypatch.setitem(sys.modules, "onnxruntime", None)
    check = doctor.check_dice(tmp_path)
    assert check.ok is True and "with OpenCV" in check.detail and "twice as slowly" in check.detail
    assert "pip install onnxruntime" in check.fix and "64-bit" in check.fix


def test_doctor_names_damaged_dice_models(monkeypatch, fresh_models, tmp_path):
    shipped = vision.net.read_model_file("dice.json")
    damaged = {**shipped, "detector": base64.b64encode(b"not a network").decode()}
    monkeypatch.setattr(vision.net, "read_model_file",
                        lambda name: damaged if name == "dice.json" else shipped)
    check = doctor.check_dice(tmp_path)
    assert check.ok is False and "the dice models do not run" in check.detail
    assert "--force-reinstall table-companion" in check.fix


def test_doctor_names_a_model_that_reads_the_test_roll_wrong(monkeypatch, tmp_path):
    """A model file whose class names no longer match its network (edited by hand, a bad
    retraining) reads every die, wrong: the test roll tells."""
    model = vision.net.read_model_file("dice.json")
    mixed = vision.net.DiceNets.from_dict({**model, "classes": model["classes"][::-1]})
    monkeypatch.setattr("vision.reader.shipped", lambda: mixed)
    check = doctor.check_dice(tmp_path)
    assert check.ok is False and check.detail.startswith("read a test roll of 1, 2, 3, 4, 5, 6 as")


def test_doctor_names_a_damaged_taught_file_and_the_way_out(tmp_path):
    _red_dice(tmp_path)
    path = taught_path("last-bastion/combat", tmp_path)
    path.write_text(path.read_text()[:100])
    check = doctor.check_dice(tmp_path)
    assert check.ok is False and str(path) in check.detail and "unreadable" in check.detail
    assert "faces reset --profile PROFILE" in check.fix
    assert "illisibles" in check.text("fr")["detail"]
