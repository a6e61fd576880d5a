"""The pedal against a fake input device: a named pipe the test writes kernel key events into.

Run with the companion installed in the same environment: ``pip install -e . && pytest``.
"""

import os
import queue
import struct
import time
from importlib.metadata import entry_points

import pytest
from foot_pedal import FootPedal, key_code

from hardware.inputs import Press

EVENT = struct.Struct("llHHi")
KEY_B, KEY_PAGEUP, KEY_A = 48, 104, 30


class FakePedal:
    """A named pipe standing for ``/dev/input/eventN``; :meth:`press` sends a key down, a
    repeat and a key up, each followed by a sync event, as the kernel does."""

    def __init__(self, path) -> None:
        self.path = str(path)
        os.mkfifo(self.path)
        self.fd = os.open(self.path, os.O_RDWR)

    def press(self, code: int) -> None:
        os.write(self.fd, b"".join(EVENT.pack(0, 0, 1, code, value) + EVENT.pack(0, 0, 0, 0, 0)
                                   for value in (1, 2, 0)))

    def unplug(self) -> None:
        os.close(self.fd)


@pytest.fixture
def pedal(tmp_path):
    return FakePedal(tmp_path / "event-kbd")


def test_each_press_of_the_pedal_is_one_next_press_and_other_keys_are_ignored(pedal):
    presses = queue.Queue()
    source = FootPedal({"device": pedal.path, "undo": "pageup"})
    source.start(presses.put)
    try:
        pedal.press(KEY_A)
        pedal.press(KEY_B)
        pedal.press(KEY_PAGEUP)
        assert presses.get(timeout=5) == Press("next", "foot pedal")
        assert presses.get(timeout=5) == Press("undo", "foot pedal")
        assert presses.empty()
        assert source.status() is None
    finally:
        source.stop()


def test_an_unplugged_pedal_says_so_and_works_again_when_plugged_back(pedal):
    presses = queue.Queue()
    source = FootPedal({"device": pedal.path, "retry": 0.05})
    source.start(presses.put)
    try:
        pedal.press(KEY_B)
        assert presses.get(timeout=5) == Press("next", "foot pedal")  # the device is open
        pedal.unplug()
        deadline = time.monotonic() + 5
        while source.status() is None and time.monotonic() < deadline:
            time.sleep(0.01)
        assert "unplugged" in source.status()
        pedal.fd = os.open(pedal.path, os.O_RDWR)  # plugged back in
        pedal.press(KEY_B)
        assert presses.get(timeout=5) == Press("next", "foot pedal")
        assert source.status() is None
    finally:
        source.stop()


@pytest.mark.parametrize(("settings", "words"), [
    ({}, "device"),
    ({"device": "/dev/null", "next": "Ω"}, "not a key name"),
    ({"device": "/dev/null", "next": "b", "undo": 48}, "same key"),
    ({"device": "/dev/null", "nxt": "b"}, "unknown setting nxt"),
])
def test_bad_settings_are_refused_with_what_is_wrong(settings, words):
    with pytest.raises(ValueError, match=words):
        FootPedal(settings)


def test_a_missing_device_is_reported_before_start(tmp_path):
    assert FootPedal({"device": str(tmp_path / "none")}).status().startswith("cannot read")


def test_key_names_and_codes():
    assert key_code("b") == key_code("KEY_B") == key_code(48) == 48
    assert key_code("pagedown") == 109


def test_the_package_declares_its_entry_point():
    [point] = [ep for ep in entry_points(group="companion.sources") if ep.name == "foot-pedal"]
    assert point.load() is FootPedal
