"""Accuracy floors: real pip photos and synthetic coloured / symbol dice.

The floors sit a little under the figures of ``benchmarks/vision.py`` so that a regression fails
while run-to-run noise does not; the issue's targets are recorded in docs/vision.md. The real
photos are read with the held-out models (trained without them), never with the shipped model,
which saw them all.
"""

from __future__ import annotations

import pytest
from dice_fixtures import byler

from vision import load_profile, read
from vision.datasets import unseen_by
from vision.evaluate import Score
from vision.synth import SYNTH_PROFILES, render_set

REAL_FLOORS = {"precision": 0.995, "recall": 0.99, "face": 0.97}
# Over the 1,487 real dice, one wrong face is read with certainty: a die whose photo is ambiguous
# (IMG_20191208_111246: a row of three pips on a marbled die labelled 2; the label may be wrong).
REAL_CERTAIN_WRONG_AT_MOST = 1
SYNTH_FLOORS = {
    "last-bastion/combat": 0.99,
    "last-bastion/corruption": 0.99,
    "runemasters/rune": 0.995,
    # The hero dice are drawn as the real ones look since issue 16: thin white icons on red,
    # yellow, green or blue bodies (the body says nothing of the face). Measured face accuracy
    # .994, precision .968, 9 % asked (40 renders, seed 77; nearest taught mean since issue 16
    # item 4, .972 and 31 % asked by nearest example before); the ivory renders: 1.000.
    "aot/hero": 0.98,
}
SYNTH_PRECISION = {"aot/hero": 0.96}  # else 0.97
# Share of found dice the host may be asked about.
UNCERTAIN_AT_MOST = {"real": 0.15, "synthetic": 0.1, "aot/hero": 0.15}


@pytest.fixture(scope="module")
def real_score() -> Score:
    """Held-out score over the tray photos no model read here was trained on (the shipped
    model's held-out fold, and the folds of held-out models of the same recipe)."""
    profile, score = load_profile("d6"), Score()
    for name, image, truths in byler():
        usable, nets = unseen_by("byler", name)
        if usable:
            score.add(read(image, profile, nets=nets), truths)
    return score


def test_real_pip_photos_meet_floors(real_score):
    assert real_score.labelled >= 250  # at least one fold of the tray photos
    assert real_score.precision >= REAL_FLOORS["precision"]
    assert real_score.recall >= REAL_FLOORS["recall"]
    assert real_score.face_accuracy >= REAL_FLOORS["face"]


def test_real_wrong_faces_are_never_certain(real_score):
    assert real_score.certain_wrong <= REAL_CERTAIN_WRONG_AT_MOST
    assert real_score.uncertain_share <= UNCERTAIN_AT_MOST["real"]


@pytest.mark.parametrize("name", SYNTH_PROFILES)
def test_synthetic_profiles_meet_floors(name):
    profile = load_profile(name)
    score = Score()
    for _, image, truths in render_set(name, 40, seed=77):
        score.add(read(image, profile), truths)
    assert score.face_accuracy >= SYNTH_FLOORS[name]
    assert score.precision >= SYNTH_PRECISION.get(name, 0.97)
    assert score.certain_wrong == 0
    assert score.uncertain_share <= UNCERTAIN_AT_MOST.get(name, UNCERTAIN_AT_MOST["synthetic"])


def test_a_die_read_through_a_neighbours_box_is_doubted():
    """Two boxes over one spot (a second look at a die, or a box spanning two touching dice):
    the cut-out holds a neighbour's pips, so however sure the classifier is, the host is asked;
    a die standing apart keeps its certainty."""
    from vision.reader import _doubt_crowded
    from vision.roll import Die

    apart, first, second = (Die("4", 0.999, (0, 0, 40, 40), False),
                            Die("2", 0.99, (100, 100, 144, 143), False),
                            Die("1", 0.999, (104, 110, 133, 140), False))
    doubted = _doubt_crowded([apart, first, second])
    assert [d.uncertain for d in doubted] == [False, True, True]
    assert [(d.face, d.confidence) for d in doubted] == [("4", 0.999), ("2", 0.99), ("1", 0.999)]
