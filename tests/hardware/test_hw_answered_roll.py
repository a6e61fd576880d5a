"""The host's answer, from the phone, to a roll the camera asked about is kept as examples of this
table when it pairs with the dice read unambiguously (issue 41, item 1): the sure dice keep their
faces, the one doubtful die takes the face left; the corrected die is then read right on the next
reading of the same frame. Two doubtful dice, another number of dice or an answer that is not the
host's keep nothing. The camera's frame is a real labelled photo (byler-d6-train)."""

from __future__ import annotations

from dataclasses import replace

import cv2
import pytest

import vision
from companion.engine import Blank, Event, Expectation, Template
from hardware.dice import DiceWatcher
from vision.datasets import shared_dice
from vision.table import table_examples

PHOTO = shared_dice() / "byler-d6-train" / "images" / "IMG_20191209_100602.jpg"


class Taken:
    """A detector whose button read gives ``roll``."""

    def __init__(self, roll: vision.Roll) -> None:
        self.roll = roll

    def take(self, frame):
        return self.roll


class Named:
    name = "tray camera"


@pytest.fixture
def frame():
    return cv2.imread(str(PHOTO))


def asked(frame, tmp_path, doubtful: int = 1):
    """A watcher that read ``frame`` with its first ``doubtful`` dice in doubt, and the roll."""
    read = vision.read(frame, "d6")
    roll = replace(read, dice=tuple(replace(d, uncertain=i < doubtful)
                                    for i, d in enumerate(read.dice)))
    count = len(roll.dice)
    expectation = Expectation("dice", ("dice",), profile="d6", count=count, templates=(
        Template("dice", blank=Blank("dice", "faces", "d6", count)),))
    watcher = DiceWatcher(Named(), lambda: expectation, data_dir=tmp_path)
    watcher.read_now()
    record = watcher._look(frame, 0.0, Taken(roll), expectation)
    assert record.key == "camera.unsure"
    return watcher, roll


def test_the_answer_to_an_asked_roll_is_kept_and_read_right_next_time(frame, tmp_path):
    watcher, roll = asked(frame, tmp_path)
    doubted = roll.dice[0]
    face = next(f for f in "123456" if f != doubted.face)
    answer = [face, *(d.face for d in roll.dice[1:])][::-1]  # the phone's order is not the tray's
    watcher.answered(Event("dice", {"faces": answer}, "web"))
    kept = table_examples("d6", tmp_path)
    assert sorted(e.face for e in kept) == sorted(answer)
    mine = next(e for e in kept if e.box == tuple(doubted.box))
    assert (mine.face, mine.read, mine.camera) == (face, doubted.face, "tray camera")
    again = vision.read(frame, "d6", data_dir=tmp_path)
    same = next(d for d in again.dice if d.box == doubted.box)
    assert (same.face, same.uncertain) == (face, False)
    watcher.answered(Event("dice", {"faces": answer}, "web"))  # answered once
    assert len(table_examples("d6", tmp_path)) == len(kept)


@pytest.mark.parametrize("case", ["two in doubt", "another count", "not the host", "other event"])
def test_an_answer_that_does_not_pair_keeps_nothing(frame, tmp_path, case):
    watcher, roll = asked(frame, tmp_path, doubtful=2 if case == "two in doubt" else 1)
    faces = [d.face for d in roll.dice]
    event = {"two in doubt": Event("dice", {"faces": faces}, "web"),
             "another count": Event("dice", {"faces": faces[:-1]}, "web"),
             "not the host": Event("dice", {"faces": faces}, "camera"),
             "other event": Event("undo", {}, "web")}[case]
    watcher.answered(event)
    assert table_examples("d6", tmp_path) == []


class Ended:
    """A camera whose stream has ended: the watcher's loop stops at once."""

    name = "ended"

    def open(self) -> None:
        pass

    def read(self):
        from hardware.cameras import EndOfStream

        raise EndOfStream

    def close(self) -> None:
        pass


def test_the_watcher_listens_to_the_session_while_it_runs(frame, tmp_path):
    """``companion run`` hands the session's ``subscribe``: the host's answers reach the watcher
    from its start to its stop."""
    listeners = []

    def subscribe(listener):
        listeners.append(listener)
        return lambda: listeners.remove(listener)

    watcher = DiceWatcher(Ended(), lambda: Expectation("nothing", ()), data_dir=tmp_path,
                          subscribe=subscribe)
    heard = []
    watcher.answered = heard.append
    watcher.start(lambda record: None)
    watcher.join(10)
    assert len(listeners) == 1
    event = Event("dice", {"faces": ["1"]}, "web")
    listeners[0](type("Update", (), {"event": event})())
    assert heard == [event]
    watcher.stop()
    assert listeners == []
