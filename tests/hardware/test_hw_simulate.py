"""The sensors of ``companion run --simulate``: only what a config names starts; mock pins are
pressed through the button FIFO; the doctor judges the devices the companion holds by their
live status; an unknown tag waits two minutes to be named."""

import os
import time

import hwtools
import pytest
from gpiozero.pins.mock import MockFactory
from hwfakes import FakeKeyboard

from companion import config as settings
from hardware import build, doctor, table
from hardware.inputs import Swipe
from hardware.mockpins import PinControl
from hardware.rfid import TagSource


def load(tmp_path, text):
    conf = tmp_path / "config.toml"
    conf.write_text(text)
    return settings.load([conf])


def test_plain_simulate_starts_nothing(tmp_path, monkeypatch):
    monkeypatch.delenv(build.PIN_FACTORY_ENV, raising=False)
    session = hwtools.started_game(tmp_path / "data")
    assert build.start(session, settings.load([]), simulate=True) is None
    assert not (session.data_dir / "hardware-status.json").exists()


def test_simulate_starts_the_configured_reader_only(tmp_path, monkeypatch):
    monkeypatch.delenv(build.PIN_FACTORY_ENV, raising=False)
    keyboard = FakeKeyboard(tmp_path / "event-kbd")
    config = load(tmp_path, f'[rfid]\nreader = "keyboard"\ndevice = "{keyboard.path}"\n')
    session = hwtools.started_game(tmp_path / "data")
    box = build.start(session, config, simulate=True)
    assert [type(s) for s in box.sources] == [TagSource]
    assert box.status.held == {f"keyboard-wedge reader {keyboard.path}"}
    checks = {c.name: c for c in doctor.run(config, session.data_dir, live=box.status)}
    assert checks["RFID reader"].ok is True and "in use" in checks["RFID reader"].detail
    keyboard.unplug()
    assert hwtools.wait_until(lambda: box.status.problems)
    checks = {c.name: c for c in doctor.run(config, session.data_dir, live=box.status)}
    assert checks["RFID reader"].ok is False and "input group" in checks["RFID reader"].fix
    box.stop()


def test_pin_factory_from_the_environment_starts_the_buttons(tmp_path, monkeypatch):
    monkeypatch.setenv(build.PIN_FACTORY_ENV, "mock")
    fifo = tmp_path / "buttons"
    config = load(tmp_path, f'[buttons]\nhold_time = 2.0\nmock_fifo = "{fifo}"\n')
    session = hwtools.started_game(tmp_path / "data")
    box = build.start(session, config, simulate=True)
    assert fifo.exists(), "the companion makes the FIFO"
    writer = os.open(fifo, os.O_WRONLY)
    session.submit({"type": "card", "id": "incube"}, source="web")
    session.submit({"type": "place", "slot": "red.1"}, source="web")
    os.write(writer, b"hello\n17 sideways\nnext\n")          # two bad lines, then a press
    assert hwtools.wait_until(lambda: hwtools.journal_types(session)[-1] == ("answer", "button"))
    os.write(writer, b"27 down\n")
    time.sleep(0.1)
    os.write(writer, b"27 up\n")
    assert hwtools.wait_until(lambda: hwtools.journal_types(session)[-1] == ("undo", "button"))
    os.close(writer)
    assert box.status.problems == {}
    box.stop()


def test_mock_fifo_needs_mock_pins(tmp_path, monkeypatch):
    monkeypatch.delenv(build.PIN_FACTORY_ENV, raising=False)
    config = load(tmp_path, f'[buttons]\nmock_fifo = "{tmp_path / "buttons"}"\n')
    session = hwtools.started_game(tmp_path / "data")
    box = build.start(session, config)                # gpiozero chooses: real pins, or none
    assert "needs [general] pin_factory" in box.status.text("config")
    box.stop()


def test_a_long_press_through_the_fifo(tmp_path):
    factory = MockFactory()
    pins = {"next": 17}
    control = PinControl(tmp_path / "buttons", factory, pins)
    control.command("next down")
    assert factory.pin(17).state is False
    control.command("17 up")
    assert factory.pin(17).state is True
    (tmp_path / "file").write_text("")
    control = PinControl(tmp_path / "file", factory, pins)
    control.start(print)
    assert "is not a FIFO" in control.status.text(control.name)


def test_unknown_tag_waits_two_minutes(tmp_path, monkeypatch):
    session = hwtools.started_game(tmp_path / "data")
    box = table.Table(session)
    box.swipe(Swipe("04A1B2C3", "fake"))
    uid, left = box.pending()
    assert uid == "04A1B2C3" and table.ENROL_WINDOW - 1 < left <= table.ENROL_WINDOW
    later = time.monotonic() + table.ENROL_WINDOW + 1
    monkeypatch.setattr(table.time, "monotonic", lambda: later)
    assert box.pending() is None and box.enroll("incube") is None
    box.stop()


@pytest.mark.parametrize("name", ["", "mock"])
def test_the_pin_factory_is_found_by_name(tmp_path, monkeypatch, name):
    monkeypatch.delenv(build.PIN_FACTORY_ENV, raising=False)
    factory = build.make_pin_factory(load(tmp_path, f'[general]\npin_factory = "{name}"\n'))
    assert (factory is None) if not name else isinstance(factory, MockFactory)
    monkeypatch.setenv(build.PIN_FACTORY_ENV, "nosuch")
    with pytest.raises(ValueError, match="no pin factory 'nosuch'"):
        build.make_pin_factory(settings.load([]))
