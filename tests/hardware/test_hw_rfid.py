"""RFID: the three drivers on fake buses, swipes, bad reads, readers that come and go, the tag
map and enrolment through a real session."""

import time

import hwtools
import pytest
from hwfakes import FakeKeyboard, FakeMFRC522, FakePN532

from companion.engine.tags import TagMap, canonical_uid
from companion.speech import Announcer
from hardware import MESSAGES_DIR
from hardware.inputs import Swipe
from hardware.rfid import PartialRead, ReaderError, TagSource
from hardware.rfid.mfrc522 import MFRC522, crc_a
from hardware.rfid.pn532 import PN532
from hardware.rfid.wedge import KeyboardWedge, uid_from_line
from hardware.status import Status, last_tag
from hardware.table import Table

UID4 = bytes.fromhex("04a1b2c3")
UID7 = bytes.fromhex("04112233445566")


def test_canonical_uids():
    assert canonical_uid(UID4) == "04A1B2C3"
    assert canonical_uid("04:a1:b2:c3") == canonical_uid(" 04-A1-B2-C3\n") == "04A1B2C3"
    for bad in ("", "0", "04G1", b""):
        with pytest.raises(ValueError):
            canonical_uid(bad)


def test_crc_a_matches_the_standard():
    assert crc_a(bytes([0x50, 0x00])) == bytes([0x57, 0xCD])  # HLTA, ISO 14443-3 annex


def test_mfrc522_reads_4_and_7_byte_uids_and_refuses_bad_reads():
    chip = FakeMFRC522()
    reader = MFRC522(open_bus=chip)
    assert reader.open() == "MFRC522 v2.0"
    assert reader.read_uid(0) is None
    chip.tag = UID4
    assert reader.read_uid(0) == "04A1B2C3"
    chip.tag = UID7
    assert reader.read_uid(0) == "04112233445566"
    chip.corrupt = True
    with pytest.raises(PartialRead, match="check byte"):
        reader.poll()
    chip.collision = True
    with pytest.raises(PartialRead, match="several tags"):
        reader.poll()
    reader.close()
    assert chip.closed


def test_mfrc522_notices_a_reader_that_stops_answering():
    chip, now = FakeMFRC522(UID4), [0.0]
    reader = MFRC522(open_bus=chip, clock=lambda: now[0])
    reader.open()
    chip.unplugged = True
    now[0] = 5.0
    with pytest.raises(ReaderError, match="does not answer"):
        reader.poll()
    with pytest.raises(OSError):
        MFRC522(open_bus=chip).open()


def test_pn532_reads_uids_and_refuses_bad_frames():
    chip = FakePN532()
    reader = PN532(open_bus=chip)
    assert reader.open() == "PN532 firmware 1.6"
    assert reader.read_uid(0) is None
    chip.tag = UID7
    assert reader.read_uid(0) == "04112233445566"
    chip.corrupt = True
    with pytest.raises(PartialRead, match="checksum"):
        reader.poll()
    chip.unplugged = True
    with pytest.raises(OSError):
        reader.poll()


def test_keyboard_wedge_reads_its_input_device(tmp_path):
    keyboard = FakeKeyboard(tmp_path / "event-kbd")
    reader = KeyboardWedge(keyboard.path, line_timeout=0.2)
    reader.open()
    assert reader.read_uid(0.05) is None
    keyboard.type("04a1b2c3")
    keyboard.type("04112233445566")
    assert reader.read_uid(1) == "04A1B2C3"
    assert reader.read_uid(1) == "04112233445566"
    keyboard.type("04A1", enter=False)       # the reader stops half-way
    with pytest.raises(PartialRead, match="no Enter"):
        reader.read_uid(1)
    keyboard.keys([30, 57, 31, 28])          # A, space, S, Enter: not a UID
    with pytest.raises(PartialRead, match="unexpected key"):
        reader.read_uid(1)
    keyboard.unplug()
    with pytest.raises(ReaderError, match="unplugged"):
        reader.read_uid(1)
    reader.close()
    assert uid_from_line("0077705923", decimal=True) == "04A1B2C3"
    with pytest.raises(ReaderError):
        KeyboardWedge("").open()


def collect(source):
    swipes = []
    source.start(swipes.append)
    return swipes


def test_a_tag_held_or_presented_again_within_the_window_is_one_swipe():
    chip = FakeMFRC522(UID4)
    source = TagSource(MFRC522(open_bus=chip), window=0.5, interval=0.01)
    swipes = collect(source)
    time.sleep(0.3)                          # held on the reader: polled many times
    chip.tag = None
    time.sleep(0.1)
    chip.tag = UID4                          # lifted and put back at once: same swipe
    time.sleep(0.1)
    chip.tag = None
    time.sleep(0.8)
    chip.tag = UID4                          # presented again later: a new swipe
    assert hwtools.wait_until(lambda: len(swipes) == 2)
    source.stop()
    assert swipes == [Swipe("04A1B2C3", "MFRC522 on /dev/spidev0.0")] * 2


def test_half_read_tags_are_ignored_and_a_lost_reader_is_reported_once(tmp_path):
    events = []
    status = Status(listener=lambda device, problem: events.append((device, problem)))
    chip = FakePN532()
    source = TagSource(PN532(open_bus=chip, timeout=0.05), status, interval=0.01, retry=0.05)
    swipes = collect(source)
    chip.tag, chip.corrupt = UID4, True
    assert hwtools.wait_until(lambda: swipes)
    assert source.partial_reads == 1 and len(swipes) == 1
    chip.unplugged = True
    time.sleep(0.3)                          # several retries, one report
    chip.unplugged, chip.tag = False, UID7
    assert hwtools.wait_until(lambda: len(swipes) == 2)
    source.stop()
    name = "PN532 at 0x24 on /dev/i2c-1"
    assert events == [(name, events[0][1]), (name, None)]
    assert events[0][1].key == "problem.not_answering"


def test_an_unplugged_keyboard_wedge_comes_back(tmp_path):
    keyboard = FakeKeyboard(tmp_path / "event-kbd")
    status = Status()
    source = TagSource(KeyboardWedge(keyboard.path), status, retry=0.05)
    swipes = collect(source)
    keyboard.type("04A1B2C3")
    assert hwtools.wait_until(lambda: len(swipes) == 1)
    keyboard.unplug()
    assert hwtools.wait_until(lambda: status.problems)
    keyboard.plug()
    assert hwtools.wait_until(lambda: not status.problems)
    time.sleep(0.1)
    keyboard.type("04112233445566")
    assert hwtools.wait_until(lambda: len(swipes) == 2)
    source.stop()
    assert swipes[1].uid == "04112233445566"


def test_tag_map_survives_reopening_and_a_damaged_file(tmp_path):
    tags = TagMap(tmp_path)
    tags.enroll("04:a1:b2:c3", "incube", "last-bastion")
    assert TagMap(tmp_path).card("04A1B2C3", "last-bastion") == "incube"
    assert TagMap(tmp_path).card("04A1B2C3", "runemasters") is None
    assert TagMap(tmp_path).forget("04A1B2C3") and not TagMap(tmp_path).forget("04A1B2C3")
    tags.path.write_text("{not json")
    assert TagMap(tmp_path).items() == [] and (tmp_path / "tags.broken").exists()


def test_swipes_play_cards_and_unknown_tags_are_enrolled_from_the_phone(tmp_path):
    session = hwtools.started_game(tmp_path)
    voice = hwtools.RecordingVoice()
    announcer = Announcer(voice, "en", catalogs=[MESSAGES_DIR]).start()
    announcer.attach(session)
    table = Table(session, announcer)
    chip = FakeMFRC522()
    table.add(TagSource(MFRC522(open_bus=chip), table.status, window=0.2, interval=0.01))
    chip.tag = UID4                          # an unknown tag: asked aloud, nothing journaled
    assert hwtools.wait_until(lambda: table.pending_tag is not None)
    assert announcer.wait_idle() and voice.lines[-1][0].startswith("Unknown card tag")
    assert hwtools.wait_until(lambda: last_tag(tmp_path) is not None)
    assert last_tag(tmp_path)["uid"] == table.status.snapshot()["last_tag"]["uid"] == "04A1B2C3"
    session.submit({"type": "card", "id": "incube"}, source="web")   # the host says which
    assert hwtools.wait_until(lambda: table.tags.card("04A1B2C3") == "incube")
    assert hwtools.wait_until(lambda: ("This tag is now Incube.", "en") in voice.lines)
    session.submit({"type": "undo"}, source="web")
    chip.tag = None
    time.sleep(0.3)
    chip.tag = UID4                          # the same tag later: the card, by RFID
    assert hwtools.wait_until(lambda: hwtools.journal_types(session)[-1] == ("card", "rfid"))
    assert session.journal_entries()[-1].event.fields == {"id": "incube"}
    table.stop()
    announcer.stop()
