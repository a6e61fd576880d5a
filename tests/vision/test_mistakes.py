"""``benchmarks/vision.py --mistakes``: the dice a model got wrong, listed as the benchmark
counts them and laid out on a contact sheet, the costly ones first, each traceable to its
photo. Every lead of docs/vision-lab.md began with such a sheet, made by a throwaway script."""

from __future__ import annotations

from pathlib import Path

import cv2
import dice_fixtures  # noqa: F401  (first: puts the repository before tests/ on sys.path)
import numpy as np
import pytest

from benchmarks.mistakes import COLOURS, COLUMNS, TILE, Seen, seen_in, write_sheet
from benchmarks.vision import fold_scores, pooled, unseen_frames
from vision.evaluate import FALSE, MISSED, UNCLEAR, WRONG, Mistake, Truth, mistakes
from vision.roll import Die, Roll

SHIPPED_RECIPE = Path(__file__).resolve().parents[2] / "benchmarks" / "models" / "shipped.json"


def die(face: str, box, confidence: float = 0.99, uncertain: bool = False) -> Die:
    return Die(face, confidence, box, uncertain)


def test_each_kind_of_mistake_is_listed_and_unclear_dice_count_neither_way():
    truths = [
        Truth("3", (10, 10, 40, 40)),  # read right
        Truth("5", (60, 10, 90, 40)),  # read 6 without asking: costly
        Truth("2", (110, 10, 140, 40)),  # not found
        Truth(UNCLEAR, (160, 10, 190, 40)),  # its find counts neither way
    ]
    roll = Roll("d6", (
        die("3", (11, 11, 41, 41)),
        die("6", (61, 9, 89, 41), 0.97),
        die("4", (161, 11, 189, 39), 0.5, True),
        die("1", (300, 300, 330, 330), 0.6, True),  # nothing there
    ))

    found = mistakes(roll, truths)

    assert found == [
        Mistake(WRONG, (60, 10, 90, 40), "5", "6", 0.97, False),
        Mistake(MISSED, (110, 10, 140, 40), "2", "", 0.0, False),
        Mistake(FALSE, (300, 300, 330, 330), "", "1", 0.6, True),
    ]
    assert [m.costly for m in found] == [True, False, False]


@pytest.fixture(scope="module")
def tray_mistakes():
    """15 tray photos of several folds read by the fold models that never saw them."""
    frames = unseen_frames("byler", limit=15, model=SHIPPED_RECIPE)
    wrong: list[Seen] = []
    score = pooled(list(fold_scores("byler", frames, "none", wrong).values()))
    return score, wrong


def test_the_mistakes_are_those_the_figures_count(tray_mistakes):
    score, wrong = tray_mistakes
    kinds = [s.mistake.kind for s in wrong]

    assert kinds.count(WRONG) + kinds.count(MISSED) == score.labelled - score.correct
    assert kinds.count(MISSED) == score.labelled - score.matched
    assert kinds.count(FALSE) == score.found - score.matched
    assert sum(s.mistake.costly for s in wrong if s.mistake.kind == WRONG) == score.certain_wrong
    assert score.labelled - score.correct > 0  # the tray's figure is .962: there is something


def test_the_sheet_shows_the_costly_mistakes_first_and_lists_their_photos(tmp_path: Path):
    image = np.full((200, 300, 3), 128, np.uint8)
    asked = seen_in("photo_a", 2, image, Mistake(WRONG, (20, 20, 60, 60), "4", "6", 0.6, True))
    missed = seen_in("photo_a", 2, image, Mistake(MISSED, (100, 20, 140, 60), "2", "", 0.0, False))
    costly = seen_in("photo_b", 3, image,
                     Mistake(WRONG, (200, 100, 240, 140), "5", "3", 0.97, False))
    wrong = [missed, asked] + [costly] * (COLUMNS + 1)

    path = write_sheet(tmp_path, "byler-none", wrong)

    sheet = cv2.imread(str(path))
    assert sheet.shape == (2 * TILE, COLUMNS * TILE, 3)  # 15 tiles: a row full, one begun
    listed = path.with_suffix(".txt").read_text().splitlines()
    assert listed[0] == "# byler-none: 15 mistakes, the first 15 on byler-none.png"
    assert [line.split()[2:6] for line in listed[2:]] == (
        [["photo_b", "3", "wrong", "5"]] * (COLUMNS + 1)
        + [["photo_a", "2", "wrong", "4"], ["photo_a", "2", "missed", "2"]])
    assert listed[2].endswith("0.970 no 200 100 240 140")
    first = sheet[:TILE, :TILE]
    assert (first == COLOURS[WRONG]).all(axis=2).sum() > 40  # its box framed in red
    blank = sheet[TILE:, 3 * TILE:]
    assert not blank.any()  # the last row is filled out with black
