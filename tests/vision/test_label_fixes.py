"""Labels checked by eye and found wrong (``vision.datasets.LABEL_FIXES``): each names a label
line that exists and says another face, and the figures and training read the corrected face.
A fix that points at a line moved or removed would silently correct nothing, or another die."""

from __future__ import annotations

import dice_fixtures  # noqa: F401  (first: puts the repository before tests/ on sys.path)
import pytest

from vision.datasets import (
    LABEL_FIXES,
    SETS,
    label_file,
    set_frames,
    set_images,
    shared_dice,
)
from vision.evaluate import load_yolo_labels


@pytest.mark.parametrize("name", sorted(LABEL_FIXES))
def test_each_fix_names_a_label_line_that_says_another_face(name):
    root = shared_dice() / SETS[name].folder
    photos = {p.stem: p for p in set_images(root)}
    for (stem, line), face in LABEL_FIXES[name].items():
        labelled = load_yolo_labels(label_file(root, photos[stem]), 1, 1)[line].face
        assert labelled != face, f"{name} {stem} line {line} already says {face}"


@pytest.mark.parametrize("name", sorted(LABEL_FIXES))
def test_the_photos_are_read_with_the_corrected_faces(name):
    fixes = LABEL_FIXES[name]
    stems = {stem for stem, _ in fixes}
    read = {stem: truths for stem, _, truths in set_frames(name) if stem in stems}

    assert set(read) == stems  # no fixed photo is left out of the figures
    for (stem, line), face in fixes.items():
        assert read[stem][line].face == face
