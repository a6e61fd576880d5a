"""Learning the table (issue 41, item 1): the dice the host confirms or corrects are kept as this
table's examples (``dice confirm``, ``dice table``) and the reader uses them at the next roll."""

from __future__ import annotations

import argparse
import json

import cv2
import numpy as np
import pytest
from dice_fixtures import byler

from vision import read, table
from vision.cli import add_dice_parser
from vision.evaluate import iou
from vision.imageio import load_photo
from vision.table import cut_outs_folder, load_table, table_path

# A tray photo whose die labelled 5 the shipped reader reads as 4, unsure (0.50): the host is
# asked, and corrects it. It also reads two touching dice (a 1 and a 5) as one die showing 1:
# the host adds the 5, a die the reader missed.
PHOTO = "IMG_20191208_112458"
MISREAD = (289, 264, 323, 298)
FOURS = "IMG_20191208_111246"  # another photo of the tray, with seven dice read surely as 4


def run(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="companion")
    add_dice_parser(parser.add_subparsers(dest="command", required=True), lambda: "en",
                    lambda given: given)
    args = parser.parse_args(argv)
    return args.func(args)


@pytest.fixture(scope="module")
def tray():
    """The photo, its labelled dice, and the same dice photographed again: moved a few pixels,
    a little brighter, saved as JPEG (the next photo of the same die)."""
    stem, image, truths = next(p for p in byler() if p[0] == PHOTO)
    moved = cv2.warpAffine(image, np.float32([[1, 0, 6], [0, 1, -4]]),
                           (image.shape[1], image.shape[0]), borderMode=cv2.BORDER_REPLICATE)
    moved = cv2.convertScaleAbs(moved, alpha=1.05, beta=6)
    again = cv2.imdecode(cv2.imencode(".jpg", moved, [cv2.IMWRITE_JPEG_QUALITY, 85])[1],
                         cv2.IMREAD_COLOR)
    return image, truths, again


def die_args(truths) -> list[str]:
    return [a for t in truths for a in ("--die", ",".join(map(str, t.box)) + f"={t.face}")]


def confirm(tmp_path, image, truths, data_dir) -> int:
    path = tmp_path / "roll.png"
    cv2.imwrite(str(path), image)
    return run(["dice", "confirm", str(path), "--profile", "d6", "--data-dir", str(data_dir),
                *die_args(truths)])


def die_at(roll, box):
    return max(roll.dice, key=lambda d: iou(d.box, box))


def test_the_reader_asks_about_the_die_before_it_is_taught(tray):
    image, _, again = tray
    assert (die_at(read(image, "d6"), MISREAD).face, die_at(read(image, "d6"), MISREAD)
            .uncertain) == ("4", True)
    assert die_at(read(again, "d6"), MISREAD).uncertain


def test_a_corrected_die_is_read_right_on_the_next_photo(tray, tmp_path, capsys):
    image, truths, again = tray
    assert confirm(tmp_path, image, truths, tmp_path / "table") == 0
    out = capsys.readouterr().out
    assert f"{len(truths)} dice kept" in out and "(1 read otherwise, 1 missed)" in out
    moved = (MISREAD[0] + 6, MISREAD[1] - 4, MISREAD[2] + 6, MISREAD[3] - 4)
    die = die_at(read(again, "d6", data_dir=tmp_path / "table"), moved)
    assert (die.face, die.uncertain) == ("5", False)
    # every other die of the photo is still read as labelled
    roll = read(again, "d6", data_dir=tmp_path / "table")
    for t in truths:
        box = (t.box[0] + 6, t.box[1] - 4, t.box[2] + 6, t.box[3] - 4)
        assert die_at(roll, box).face == t.face


def test_dice_read_uses_the_table_of_its_data_dir_only(tray, tmp_path, capsys):
    image, truths, again = tray
    assert confirm(tmp_path, image, truths, tmp_path / "one") == 0
    path = tmp_path / "again.png"
    cv2.imwrite(str(path), again)
    faces = {}
    for name in ("one", "two"):
        capsys.readouterr()
        assert run(["dice", "read", str(path), "--profile", "d6", "--json",
                    "--data-dir", str(tmp_path / name)]) == 0
        dice = json.loads(capsys.readouterr().out)["dice"]
        near = max(dice, key=lambda d: iou(tuple(d["box"]), (MISREAD[0] + 6, MISREAD[1] - 4,
                                                              MISREAD[2] + 6, MISREAD[3] - 4)))
        faces[name] = (near["face"], near["uncertain"])
    assert faces == {"one": ("5", False), "two": (faces["two"][0], True)}
    assert not table_path("d6", tmp_path / "two").exists()


def test_table_list_forget_and_reset(tray, tmp_path, capsys):
    image, truths, _ = tray
    data_dir = tmp_path / "table"
    assert run(["dice", "table", "list", "--profile", "d6", "--data-dir", str(data_dir)]) == 0
    assert "no example of this table" in capsys.readouterr().out
    assert confirm(tmp_path, image, truths, data_dir) == 0
    capsys.readouterr()
    assert run(["dice", "table", "list", "--profile", "d6", "--data-dir", str(data_dir)]) == 0
    lines = capsys.readouterr().out.strip().split("\n")
    assert lines[0] == f"d6: {len(truths)} examples (1 corrected, 1 missed by the reader)"
    corrected = next(line for line in lines[1:] if " 5 " in line and "read 4" in line)
    example_id = corrected.split()[0]
    assert (cut_outs_folder("d6", data_dir) / f"{example_id}.jpg").exists()
    assert run(["dice", "table", "forget", "--id", example_id, "--profile", "d6",
                "--data-dir", str(data_dir)]) == 0
    assert "forgot 1 example" in capsys.readouterr().out
    assert len(load_table("d6", data_dir).examples) == len(truths) - 1
    assert not (cut_outs_folder("d6", data_dir) / f"{example_id}.jpg").exists()
    assert run(["dice", "table", "forget", "--id", example_id, "--profile", "d6",
                "--data-dir", str(data_dir)]) == 2
    assert f"no example '{example_id}'" in capsys.readouterr().err
    assert run(["dice", "table", "reset", "--profile", "d6", "--data-dir", str(data_dir)]) == 0
    assert f"forgot {len(truths) - 1} examples" in capsys.readouterr().out
    assert not table_path("d6", data_dir).exists()
    assert not cut_outs_folder("d6", data_dir).exists()


@pytest.mark.parametrize("die, error", [
    ("10,10,40=5", "expected X0,Y0,X1,Y1=FACE"),
    ("10,10,40,40", "expected X0,Y0,X1,Y1=FACE"),
    ("10,10,40,40=7", "has no face '7'"),
    ("600,10,700,40=5", "is not inside the 640x640 photo"),
])
def test_confirm_refuses_a_bad_die_and_keeps_nothing(tray, tmp_path, capsys, die, error):
    image, truths, _ = tray
    path = tmp_path / "roll.png"
    cv2.imwrite(str(path), image)
    assert image.shape[:2] == (640, 640)
    assert run(["dice", "confirm", str(path), "--profile", "d6", "--data-dir", str(tmp_path),
                *die_args(truths[:1]), "--die", die]) == 2
    assert error in capsys.readouterr().err
    assert not table_path("d6", tmp_path).exists()


def test_a_die_the_reader_missed_lowers_the_detector_threshold(tray, tmp_path, capsys):
    image, truths, _ = tray
    blank = image.copy()
    blank[:] = np.median(image.reshape(-1, 3), axis=0)
    blank[100:140, 100:140] = 250  # a pale square the reader does not take for a die
    assert all(iou(d.box, (100, 100, 140, 140)) < 0.3 for d in read(blank, "d6").dice)
    assert confirm(tmp_path, blank, [type(truths[0])("3", (100, 100, 140, 140))],
                   tmp_path / "t") == 0
    assert "1 missed" in capsys.readouterr().out
    assert load_table("d6", tmp_path / "t").threshold(0.3) == pytest.approx(0.2)
    assert load_table("d6", tmp_path / "other").threshold(0.3) == 0.3


def test_the_adapt_benchmark_confirms_the_first_photos_and_reads_the_rest_by_window():
    from benchmarks.adapt import ORDER, adapt
    from benchmarks.vision import unseen_frames

    frames = unseen_frames("byler", limit=14)
    rows = adapt("byler", frames, 2, top_faces=False)
    assert [r.split(" | ")[1] for r in rows] == ["photos 3-12", "photos 13-14",
                                                 "rest, 2 confirmed**", "rest, no example"]
    rest = [r.split(" | ") for r in rows[2:]]
    order = np.random.default_rng(ORDER).permutation(len(frames))  # the fixed order
    dice = sum(len(frames[i][0][2]) for i in order[2:])
    assert rest[0][2] == rest[1][2] == f"12 / {dice}"


def test_a_large_die_is_described_at_the_size_of_a_tray_photos_dice(tray, tmp_path,
                                                                     monkeypatch):
    """The dice of a 12 MP frame (here the tray photo enlarged seven times: dice over 200
    pixels) are described in their neighbourhood shrunk to ``DESCRIBED`` pixels a die, never at
    their own size (about 40 ms a die), and a table taught on the tray photo still reads the
    next photo, enlarged so, right where it reads surely."""
    image, truths, again = tray
    assert confirm(tmp_path, image, truths, tmp_path / "tray") == 0
    sides = []
    described = table.die_pixels

    def spied(frame, box):
        sides.append(max(box[2] - box[0], box[3] - box[1]))
        return described(frame, box)

    monkeypatch.setattr(table, "die_pixels", spied)
    big = cv2.resize(image, None, fx=7, fy=7, interpolation=cv2.INTER_CUBIC)
    dice = [(tuple(7 * v for v in t.box), t.face) for t in truths]
    assert min(max(b[2] - b[0], b[3] - b[1]) for b, _ in dice) > table.LARGE
    table.confirm(big, "d6", dice, tmp_path / "large")
    assert len(sides) == len(truths) and max(sides) <= table.DESCRIBED + 1
    assert all(e.vector is not None for e in load_table("d6", tmp_path / "large").examples)
    roll = read(cv2.resize(again, None, fx=7, fy=7, interpolation=cv2.INTER_CUBIC), "d6",
                data_dir=tmp_path / "tray")
    for t in truths:
        die = die_at(roll, tuple(7 * v for v in (t.box[0] + 6, t.box[1] - 4, t.box[2] + 6,
                                                 t.box[3] - 4)))
        assert die.face == t.face or die.uncertain



def test_a_die_read_as_a_face_once_corrected_is_described_whole_only_when_it_may_be_the_misread_die(
        tray, tmp_path, monkeypatch):
    """Once a die read as 4 was corrected to 5, every die read as 4 may be that die again. Its
    hand-made description alone (half the cost) tells which of them lie far from every example
    misread as 4: those are not described whole (the cost grew with every correction), the
    misread die still is and is read right, and the dice read surely as 4 in another photo of
    the tray keep their faces."""
    image, truths, again = tray
    assert confirm(tmp_path, image, truths, tmp_path / "table") == 0
    assert load_table("d6", tmp_path / "table").corrected_from == {"4"}
    whole = []
    described = table.describe

    def spied(frame, blobs, *known):
        whole.extend(b.box for b in blobs)
        return described(frame, blobs, *known)

    monkeypatch.setattr(table, "describe", spied)
    moved = (MISREAD[0] + 6, MISREAD[1] - 4, MISREAD[2] + 6, MISREAD[3] - 4)
    die = die_at(read(again, "d6", data_dir=tmp_path / "table"), moved)
    assert (die.face, die.uncertain) == ("5", False)
    assert iou(max(whole, key=lambda box: iou(box, moved)), moved) > 0.5
    other = next(p[1] for p in byler() if p[0] == FOURS)
    fours = [d.box for d in read(other, "d6").dice if d.face == "4" and not d.uncertain]
    whole.clear()
    roll = read(other, "d6", data_dir=tmp_path / "table")
    assert len(whole) < len(fours) == 7
    assert all((die_at(roll, box).face, die_at(roll, box).uncertain) == ("4", False)
               for box in fours)


def test_a_large_jpeg_is_decoded_no_larger_than_the_tables_dice_need(tray, tmp_path, capsys):
    """Once the table knows its dice, a 15 MP JPEG of the tray (dice about 200 pixels across)
    is decoded at half its size (dice still over ``DIE_PIXELS``: decoding whole took longer than
    reading), read as the photo itself is, and its boxes are given in the file's own pixels;
    without the table it is decoded whole."""
    image, truths, again = tray
    assert confirm(tmp_path, image, truths, tmp_path / "table") == 0
    path = tmp_path / "large.jpg"
    cv2.imwrite(str(path), cv2.resize(again, None, fx=6, fy=6, interpolation=cv2.INTER_CUBIC),
                [cv2.IMWRITE_JPEG_QUALITY, 95])
    smallest = load_table("d6", tmp_path / "table").smallest()
    assert load_photo(path)[1] == 1.0 and load_photo(path, smallest)[1] == 0.5
    capsys.readouterr()
    assert run(["dice", "read", str(path), "--profile", "d6", "--json",
                "--data-dir", str(tmp_path / "table")]) == 0
    dice = json.loads(capsys.readouterr().out)["dice"]
    small = read(again, "d6", data_dir=tmp_path / "table")
    assert sorted(d["face"] for d in dice) == small.faces
    for die in small.dice:
        near = max(dice, key=lambda d: iou(tuple(d["box"]), tuple(6 * v for v in die.box)))
        assert iou(tuple(near["box"]), tuple(6 * v for v in die.box)) >= 0.5  # a match
