"""The box's side of teaching the dice from the host page (hardware/teaching.py), on a real
labelled photo: photos are kept a bounded time and number, a few cut-outs per face are kept on
disk (the newest), and no face id, however odd, writes outside the data directory's examples."""

from __future__ import annotations

import cv2
import hwtools  # noqa: F401 - first: the real packages before tests/ folders of the same name

from hardware.teaching import EXAMPLES, PHOTO_SECONDS, PHOTOS, DiceTeacher
from vision import read
from vision.cli import main
from vision.datasets import shared_dice
from vision.profile import taught_faces
from vision.teach import photo_dice

PHOTO = shared_dice() / "byler-d6-train" / "images" / "IMG_20191209_100602.jpg"
COMBAT = "last-bastion/combat"


class Clock:
    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


def test_photos_are_kept_ten_minutes_and_a_few_at_a_time(tmp_path):
    clock = Clock()
    teacher = DiceTeacher(tmp_path, clock)
    frame = cv2.imread(str(PHOTO))
    taken = []
    for _ in range(PHOTOS + 1):
        clock.now += 1
        taken.append(teacher.take(frame, COMBAT)["photo"])
    assert teacher.photo(taken[0]) is None  # the oldest made room
    assert all(teacher.photo(p) is not None for p in taken[1:])
    clock.now += PHOTO_SECONDS + 1
    assert all(teacher.photo(p) is None for p in taken)
    assert teacher.teach(taken[-1], {0: "red"}) is None
    assert taught_faces(COMBAT, tmp_path) == {}


def test_the_newest_cut_outs_of_a_face_are_kept(tmp_path):
    teacher = DiceTeacher(tmp_path)
    frame = cv2.imread(str(PHOTO))
    first = teacher.take(frame, COMBAT)
    count = len(first["dice"])
    assert count == 5  # three dice and two screw holes: more than EXAMPLES
    assert teacher.teach(first["photo"], dict.fromkeys(range(count), "red")) == {"red": count}
    kept = [teacher.example(COMBAT, "red", i) for i in range(EXAMPLES)]
    assert None not in kept and teacher.example(COMBAT, "red", EXAMPLES) is None
    second = teacher.take(frame, COMBAT)
    teacher.teach(second["photo"], {0: "red"})
    now = [teacher.example(COMBAT, "red", i) for i in range(EXAMPLES + 1)]
    assert now[1:] == kept[:-1] + [None]  # the newest first, the oldest dropped
    assert now[0] == kept[-1]  # the same die of the same frame, cut out again
    combat = next(p for p in teacher.profiles() if p["profile"] == COMBAT)
    assert combat["taught"] == {"red": count + 1} and combat["examples"] == {"red": EXAMPLES}


def test_an_odd_face_id_stays_inside_the_examples_folder(tmp_path):
    data = tmp_path / "data"
    teacher = DiceTeacher(data)
    photo = teacher.take(cv2.imread(str(PHOTO)), "last-bastion/corruption")  # faces it names
    odd = "../../escaped"
    assert teacher.teach(photo["photo"], {0: odd}) == {odd: 1}
    assert not (tmp_path / "escaped").exists() and not (data / "escaped").exists()
    assert [p.parent.parent.parent.name for p in (data / "vision").rglob("*.jpg")] == [
        "examples"]
    assert teacher.forget("last-bastion/corruption", odd) == 1
    assert not list((data / "vision").rglob("*.jpg"))


def test_forgetting_a_face_on_the_command_line_forgets_its_pictures(tmp_path):
    """A face removed with `companion dice faces remove`, then taught again, shows only the new
    dice on the host page, never the pictures of the examples it forgot."""
    teacher = DiceTeacher(tmp_path)
    frame = cv2.imread(str(PHOTO))
    photo = teacher.take(frame, COMBAT)
    teacher.teach(photo["photo"], {0: "red", 1: "red", 2: "blue"})
    assert main(["dice", "faces", "remove", "--profile", COMBAT, "--face", "red",
                 "--data-dir", str(tmp_path)]) == 0
    combat = next(p for p in teacher.profiles() if p["profile"] == COMBAT)
    assert combat["taught"] == {"blue": 1} and teacher.example(COMBAT, "red", 0) is None
    again = teacher.take(frame, COMBAT)
    teacher.teach(again["photo"], {2: "red"})
    assert teacher.example(COMBAT, "red", 0) is not None
    assert teacher.example(COMBAT, "red", 1) is None  # not the two forgotten ones
    assert main(["dice", "faces", "reset", "--profile", COMBAT,
                 "--data-dir", str(tmp_path)]) == 0
    assert not list((tmp_path / "vision").rglob("*.jpg"))


def test_each_die_of_a_photo_shows_what_the_reader_reads_there(tmp_path):
    """The reading beside each cut-out is the reader's for that die (the photo is read once:
    the page must not show one face and the game then read another)."""
    teacher = DiceTeacher(tmp_path)
    frame = cv2.imread(str(PHOTO))
    first = teacher.take(frame, COMBAT)
    teacher.teach(first["photo"], {0: "red", 1: "blue", 2: "green"})
    photo = teacher.take(frame, COMBAT)
    shown = [d["reading"] for d in photo["dice"]]
    roll = read(frame, COMBAT, data_dir=tmp_path)
    boxes = [box for box, vector in photo_dice(frame) if vector is not None]
    compared = 0
    for box, reading in zip(boxes, shown, strict=True):
        read_there = [d for d in roll.dice if d.box == box]
        if read_there and not read_there[0].uncertain:
            assert reading == read_there[0].face
            compared += 1
        else:  # the reader asks, or took it for no die: the page names nothing sure either
            assert reading is None or not read_there
    assert compared >= 3
    assert shown[:3] == ["red", "blue", "green"]  # the dice just taught, read back
