"""How the benchmark pairs the dice it found with the labelled ones: the webcam set frames the top
face only, so a die found whole must still count as that die (it was counted as a false find and
a missed die: webcam fold 0 precision .947 and face accuracy .910, where .992 and .944 were
read)."""

from __future__ import annotations

import dice_fixtures  # noqa: F401  (first: puts the repository before tests/ on sys.path)

from vision import read
from vision.datasets import SETS, photo_fold, set_frames, top_faces
from vision.evaluate import Score, match

WHOLE_DIE = (100, 100, 160, 170)  # seen at a slant: its top face is the upper part of the box
TOP_FACE = (110, 100, 150, 125)  # its centre lies in the whole die's box; not the other way


def test_a_die_found_whole_pairs_with_its_top_face_label():
    assert match([WHOLE_DIE], [TOP_FACE], top_faces=True) == [(0, 0)]


def test_whole_die_labels_keep_the_strict_rule():
    """On sets whose boxes frame the whole die, a find must overlap its label by half or have
    its centre in it: a large find over a die's corner is no match."""
    assert match([WHOLE_DIE], [TOP_FACE]) == []


def test_one_find_between_two_top_faces_pairs_with_one():
    other = (125, 130, 165, 160)  # a second labelled face, also inside the whole die's box
    assert len(match([WHOLE_DIE], [TOP_FACE, other], top_faces=True)) == 1


def test_only_the_webcam_set_frames_top_faces():
    assert [name for name in SETS if top_faces(name)] == ["webcam"]
    assert not top_faces("d6")  # a render profile's name


def test_a_webcam_photo_read_whole_counts_every_die():
    """valid_10 (fold 0, never seen by the shipped model): two dice showing 2, one framed by its
    top face and one found whole, both read right; its labels frame the two top faces. The one
    found whole was counted as a false find and as missed. (dice_25 held this case until the
    detector trained for 8,000 steps framed its three dice by their top faces.)"""
    stem, image, truths = next(f for f in set_frames("webcam") if f[0] == "valid_10")
    assert photo_fold(stem) == 0
    roll = read(image, "d6")
    strict, by_top_face = Score(), Score(top_faces("webcam"))
    strict.add(roll, truths)
    by_top_face.add(roll, truths)
    assert strict.matched == 1
    assert (by_top_face.matched, by_top_face.correct, by_top_face.labelled) == (2, 2, 2)
