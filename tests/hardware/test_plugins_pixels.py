"""Pixels smart dice without a radio: the documented messages (GameWithPixels/.github
doc/CommunicationsProtocol.md) decoded, and replayed by a fake transport through the ``pixels``
source plugin into a Last Bastion fight, whose roll the game takes as a ``dice`` event."""

import struct
import sys
import threading
import time
import types

import hwtools
import pytest
from hwtools import started_game, wait_until
from test_plugins import plugin_table

from companion import config as settings
from hardware import pixels, sources

assert hwtools  # the repository first on sys.path

# The messages as the protocol document lays them out: id, then the fields, little endian.
WHO_I_AM = struct.pack("<BBBBIIHIBBBB", 2, 6, 1, 0, 0xDEADBEEF, 0x1234ABCD, 4096, 1700000000,
                       1, 3, 78, 0)  # 6 LEDs, on face index 3, battery 78 %


def roll_state(state: int, face_index: int) -> bytes:
    return bytes([3, state, face_index])


def roll(face: int) -> list[bytes]:
    """A roll as a die reports it: picked up, rolling, then settled on ``face`` (1-based)."""
    return [roll_state(2, 0), roll_state(3, 4), roll_state(3, 1), roll_state(1, face - 1)]


class Replay:
    """A fake transport: :meth:`play` delivers messages as the radio would, from its thread."""

    def __init__(self) -> None:
        self.receive = None
        self.closed = False

    def open(self, receive) -> None:
        self.receive = receive

    def play(self, *messages: tuple[str, bytes]) -> None:
        def deliver():
            for die, data in messages:
                self.receive(die, data)
                time.sleep(0.001)
        thread = threading.Thread(target=deliver)
        thread.start()
        thread.join()

    def close(self) -> None:
        self.closed = True


REPLAY = Replay()


def fake_pixels(settings, context):
    """The ``pixels`` plugin with the replay in place of the radio."""
    return pixels.PixelsSource(settings, context, transport=REPLAY)


PLUGINS = {"pixels": sources.EntryPoint("pixels", f"{__name__}:fake_pixels", sources.GROUP)}
CONFIG = """[sources.pixels]
dice = ["A", "B", "C"]
[sources.pixels.faces."last-bastion/combat"]
1 = "red"
2 = "green"
3 = "blue"
4 = "yellow"
5 = "black"
6 = "white"
"""


def test_documented_messages_decode():
    assert pixels.decode(bytes([3, 1, 2])) == pixels.RollState(1, 2)
    assert pixels.decode(bytes([34, 80, 1])) == pixels.BatteryLevel(80, 1)
    assert pixels.decode(WHO_I_AM) == pixels.IAmADie(6, 0x1234ABCD, 1700000000, 1, 3, 78)
    assert pixels.decode(bytes([29, 1, 2])) is None                  # Blink: not ours
    for bad in (b"", bytes([3, 1]), WHO_I_AM[:-1]):
        with pytest.raises(ValueError):
            pixels.decode(bad)


def fight(tmp_path, text: str = CONFIG):
    """A Last Bastion game waiting for the 3 combat dice of a fight, and a table running the
    pixels plugin of the config ``text``."""
    path = tmp_path / "config.toml"
    path.write_text(text, encoding="utf-8")
    cfg = settings.load([path])
    assert cfg.problems == []
    session = started_game(tmp_path / "data")
    for event in ({"type": "card", "id": "incube"}, {"type": "place", "slot": "red.1"},
                  {"type": "answer", "effects": []},
                  {"type": "move", "hero": "elmer", "to": [0, 1]},
                  {"type": "fight", "targets": ["red.1"]}):
        session.submit(event, source="test")
    assert session.expects().count == 3
    table, status = plugin_table(session, cfg, PLUGINS)
    return session, table, status


def dice_events(session):
    return [e.event for e in session.journal_entries() if e.event.type == "dice"]


def test_three_settled_rolls_become_the_fight_dice_with_the_owner_faces(tmp_path):
    session, table, status = fight(tmp_path)
    try:
        REPLAY.play(("A", WHO_I_AM), ("B", roll_state(5, 2)),      # nudged: not a roll
                    *[("A", m) for m in roll(1)], *[("B", m) for m in roll(6)])
        assert dice_events(session) == []                          # two of three dice
        REPLAY.play(*[("C", m) for m in roll(4)])
        assert wait_until(lambda: dice_events(session))
        [dice] = dice_events(session)
        assert dice.fields["faces"] == ["red", "white", "yellow"] and dice.source == "bluetooth"
        assert status.problems == {}
    finally:
        table.stop()
    assert REPLAY.closed
    session.close()


def test_a_die_rolled_again_replaces_its_face_and_a_crooked_one_is_said(tmp_path):
    session, table, _ = fight(tmp_path)
    warnings = []
    table.on_warning.append(warnings.append)
    try:
        REPLAY.play(*[("A", m) for m in roll(1)], *[("A", m) for m in roll(2)],
                    ("B", roll_state(2, 0)), ("B", roll_state(3, 1)), ("B", roll_state(4, 1)),
                    *[("B", m) for m in roll(3)], *[("C", m) for m in roll(3)])
        assert wait_until(lambda: dice_events(session))
        assert dice_events(session)[0].fields["faces"] == ["green", "blue", "blue"]
        [crooked] = warnings
        assert crooked.key == "pixels.crooked" and crooked.params == {"die": "B"}
    finally:
        table.stop()
    session.close()


def test_one_die_rolled_three_times_gives_the_three_dice(tmp_path):
    session, table, _ = fight(tmp_path, CONFIG.replace('["A", "B", "C"]', '["Solo"]'))
    try:
        REPLAY.play(*[("Solo", m) for m in roll(1) + roll(1) + roll(6)])
        assert wait_until(lambda: dice_events(session))
        assert dice_events(session)[0].fields["faces"] == ["red", "red", "white"]
    finally:
        table.stop()
    session.close()


def test_without_a_face_map_the_numbers_go_as_they_are_and_the_game_judges_them(tmp_path):
    session, table, _ = fight(tmp_path, '[sources.pixels]\ndice = ["A", "B", "C"]\n')
    warnings = []
    table.on_warning.append(warnings.append)
    try:
        REPLAY.play(*[(die, m) for die in "ABC" for m in roll(2)])
        assert wait_until(lambda: warnings)
        assert warnings[0].key == "dice.bad_faces" and warnings[0].params["faces"] == ["2"] * 3
        assert dice_events(session) == []
        assert session.expects().kind == "dice"                    # refused: nothing changed
    finally:
        table.stop()
    session.close()


def test_rolls_while_the_game_waits_for_no_dice_do_nothing_and_a_low_battery_is_reported(
        tmp_path):
    session, table, status = fight(tmp_path)
    session.submit({"type": "undo"}, source="test")                # back to the hero's actions
    version = session.version
    try:
        REPLAY.play(*[("A", m) for m in roll(5)], ("B", bytes([34, 6, 0])))
        assert session.version == version
        [plugin] = table.sources
        plugin.check()
        assert status.snapshot()["problems"] == {
            "source pixels": "reports: battery low: B (6%)"}
    finally:
        table.stop()
    session.close()


@pytest.mark.parametrize(("text", "words"), [
    ("", "dice = "),
    ('dice = "A"', "dice = "),
    ('dice = ["A"]\nfaces = {d6 = 3}', "faces must map"),
    ('dice = ["A"]\ncolour = "red"', "unknown setting colour"),
])
def test_bad_settings_say_what_is_wrong(tmp_path, text, words):
    path = tmp_path / "config.toml"
    path.write_text(f"[sources.pixels]\n{text}\n", encoding="utf-8")
    with pytest.raises(ValueError, match=words):
        pixels.PixelsSource(settings.load([path])["sources"]["pixels"], None, Replay())


def test_the_source_is_installed_under_its_entry_point():
    assert sources.installed()["pixels"].value == "hardware.pixels:PixelsSource"


def test_doctor_before_start_asks_whether_the_bluetooth_library_is_there(monkeypatch):
    source = pixels.PixelsSource({"dice": ["A"]}, None)
    monkeypatch.setitem(sys.modules, "bleak", types.ModuleType("bleak"))  # installed
    assert source.status() is None
    monkeypatch.setitem(sys.modules, "bleak", None)                       # missing
    assert source.status().endswith("pip install 'table-companion[pixels]'")
