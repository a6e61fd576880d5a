"""``benchmarks/vision.py --folds``: each fold's figures, so that a recipe is judged fold by fold
(one training moves one fold by about 1.5 points) and not on a sum a single fold can carry."""

from __future__ import annotations

from pathlib import Path

import dice_fixtures  # noqa: F401  (first: puts the repository before tests/ on sys.path)
import pytest

from benchmarks.vision import fold_scores, row, score_set, unseen_frames
from vision.datasets import photo_fold

SHIPPED_RECIPE = Path(__file__).resolve().parents[2] / "benchmarks" / "models" / "shipped.json"


@pytest.fixture(scope="module")
def byler_read():
    """15 tray photos of several folds, each read once by the fold model that never saw it."""
    frames = unseen_frames("byler", limit=15, model=SHIPPED_RECIPE)
    return frames, fold_scores("byler", frames, "none"), score_set("byler", frames, "none")


def test_each_fold_counts_its_own_photos_and_the_folds_add_up_to_the_set(byler_read):
    frames, folds, total = byler_read
    photos = {}
    for (stem, _, truths), _ in frames:
        count = photos.setdefault(photo_fold(stem), [0, 0])
        count[0] += 1
        count[1] += len(truths)

    assert list(folds) == sorted(photos) and len(folds) >= 3  # photos of several folds
    assert {k: [s.frames, s.labelled] for k, s in folds.items()} == photos
    for field in ("frames", "labelled", "found", "matched", "correct", "uncertain"):
        assert getattr(total, field) == sum(getattr(s, field) for s in folds.values())


def test_a_row_with_folds_shows_each_folds_accuracy_and_share_asked(byler_read):
    _, folds, total = byler_read
    line = row("byler | none", total, folds)

    assert line.startswith("| byler | none | 15 / ")
    for k, score in folds.items():
        assert f"{k}: {score.face_accuracy:.3f} / {score.uncertain_share:.1%}" in line
    assert line.count("|") == row("byler | none", total).count("|") + 1
