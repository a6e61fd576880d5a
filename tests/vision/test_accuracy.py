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
from vision.evaluate import Score
from vision.models import fold_of
from vision.net import held_out, trained_folds
from vision.synth import SYNTH_PROFILES, render_set

REAL_FLOORS = {"precision": 0.995, "recall": 0.99, "face": 0.97}
# Over the 1,487 real dice, two wrong faces are read with certainty: a box the detector put over
# two dice, and a die whose photo is ambiguous (its label may be wrong; see LABEL_FIXES).
REAL_CERTAIN_WRONG_AT_MOST = 2
SYNTH_FLOORS = {
    "last-bastion/combat": 0.99,
    "last-bastion/corruption": 0.99,
    "runemasters/rune": 0.995,
    "aot/hero": 0.995,
}
# Share of found dice the host may be asked about.
UNCERTAIN_AT_MOST = {"real": 0.15, "synthetic": 0.1}


@pytest.fixture(scope="module")
def real_score() -> Score:
    """Held-out score over the real photos of every fold with a shipped held-out model."""
    profile, score, folds = load_profile("d6"), Score(), trained_folds()
    assert folds, "no held-out model in vision/models"
    for name, image, truths in byler():
        if fold_of(name) in folds:
            score.add(read(image, profile, nets=held_out(fold_of(name))), truths)
    return score


def test_real_pip_photos_meet_floors(real_score):
    assert real_score.labelled >= 1400  # all five folds
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
    assert score.precision >= 0.97
    assert score.certain_wrong == 0
    assert score.uncertain_share <= UNCERTAIN_AT_MOST["synthetic"]
