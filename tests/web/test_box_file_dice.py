"""The table's dice examples travel in the box file (issue 41, item 1): every die the host
confirmed or corrected, with its cut-out, exported with the game's box and imported into another
data directory, where the reader uses them; importing again changes nothing; a bad example, a
die the game does not read or an example that says otherwise than the owner's is reported and
the whole file imports nothing (``replace`` takes the file's word)."""

from __future__ import annotations

import copy

import pytest
from test_dice_teach import COMBAT, labelled_dice

from companion.boxdice import table_file
from companion.boxfile import export_box, import_box
from companion.engine import DefinitionStore, find_game
from vision.table import confirm, cut_outs_folder, load_table, table_examples, table_path

GAME = "last-bastion"


@pytest.fixture
def mine(tmp_path):
    """A data directory whose table keeps the three dice of the labelled photo, one of them
    corrected, and a taught card."""
    frame, labels = labelled_dice()
    data = tmp_path / "mine"
    dice = [(tuple(round(v) for v in box), face)
            for box, face in zip(labels, ("black", "blue", "red"), strict=True)]
    confirm(frame, COMBAT, dice, data)
    DefinitionStore(data, GAME).save("card", "goule", {
        "name": "Goule", "type": "monster", "colour": "black", "resistance": 2})
    return data


def test_the_box_file_names_the_files_vision_keeps():
    assert table_file("/d", COMBAT) == table_path(COMBAT, "/d")


def test_export_then_import_carries_the_tables_examples_and_their_cut_outs(mine, tmp_path):
    box = export_box(mine, find_game(GAME))
    assert list(box["dice"]) == [COMBAT]
    theirs = tmp_path / "theirs"
    report = import_box(theirs, box)
    assert report.written, report.to_json()
    assert sorted(e.outcome for e in report.entries if e.kind == "dice") == ["added"] * 3
    assert table_examples(COMBAT, theirs) == table_examples(COMBAT, mine)
    for example in table_examples(COMBAT, mine):
        name = f"{example.id}.jpg"
        assert (cut_outs_folder(COMBAT, theirs) / name).read_bytes() == \
            (cut_outs_folder(COMBAT, mine) / name).read_bytes()
    assert len(load_table(COMBAT, theirs).examples) == 3  # the reader uses them
    again = import_box(theirs, box)
    assert again.written and {e.outcome for e in again.entries} == {"unchanged"}
    assert table_examples(COMBAT, theirs) == table_examples(COMBAT, mine)


def test_two_boxes_merge_their_examples(mine, tmp_path):
    box = export_box(mine, find_game(GAME))
    theirs = tmp_path / "theirs"
    frame, labels = labelled_dice()
    confirm(frame, COMBAT, [(tuple(round(v) for v in labels[0]), "white")], theirs)
    assert import_box(theirs, box).written
    assert len(table_examples(COMBAT, theirs)) == 4


def bad(box, change):
    box = copy.deepcopy(box)
    change(box["dice"][COMBAT]["examples"][0])
    return box


@pytest.mark.parametrize("change", [
    lambda e: e.update(face=""),
    lambda e: e.update(box=[0, 0, 1]),
    lambda e: e.update(frame=[0, 480]),
    lambda e: e.update(vector="fast"),
    lambda e: e.update(id="../../escape"),
    lambda e: e.update(cut_out="bm90IGEganBlZw=="),  # base64, not a JPEG
    lambda e: e.update(extra=1),
    lambda e: e.pop("face"),
], ids=["face", "box", "frame", "vector", "id", "cut_out", "unknown field", "missing field"])
def test_a_bad_example_is_refused_and_the_file_imports_nothing(mine, tmp_path, change):
    theirs = tmp_path / "theirs"
    report = import_box(theirs, bad(export_box(mine, find_game(GAME)), change))
    refused = [e for e in report.entries if e.outcome == "refused"]
    assert not report.written and [e.kind for e in refused] == ["dice"]
    assert refused[0].reason.key == "box.bad_dice"
    assert not table_file(theirs, COMBAT).exists() and not (theirs / "vision").exists()
    assert DefinitionStore(theirs, GAME).load() == {}  # nothing else either


def test_a_die_the_game_does_not_read_is_refused(mine, tmp_path):
    box = export_box(mine, find_game(GAME))
    box["dice"]["runemasters/rune"] = box["dice"].pop(COMBAT)
    report = import_box(tmp_path / "theirs", box)
    assert not report.written
    assert [(e.outcome, e.reason.key) for e in report.entries if e.kind == "dice"] == [
        ("refused", "box.unknown_dice")]


def test_an_example_that_says_otherwise_conflicts_unless_replaced(mine, tmp_path):
    box = bad(export_box(mine, find_game(GAME)), lambda e: e.update(face="white"))
    before = table_examples(COMBAT, mine)
    report = import_box(mine, box)
    conflicting = [e for e in report.entries if e.outcome == "conflicting"]
    assert not report.written and conflicting[0].reason.params == {"fields": ["face"]}
    assert table_examples(COMBAT, mine) == before
    report = import_box(mine, box, replace=True)
    assert report.written
    assert table_examples(COMBAT, mine)[0].face == "white"
    assert [e.face for e in table_examples(COMBAT, mine)[1:]] == [e.face for e in before[1:]]
