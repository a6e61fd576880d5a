"""Accuracy floors: real pip photos and synthetic coloured / symbol dice.

The floors sit a little under the figures of ``benchmarks/vision.py`` so that a regression fails
while run-to-run noise does not; the issue's targets are recorded in docs/vision.md.
"""

from __future__ import annotations

import pytest
from dice_fixtures import byler

from vision import load_profile, read
from vision.evaluate import Score
from vision.synth import SYNTH_PROFILES, render_set


def test_real_pip_photos_meet_floors():
    profile = load_profile("d6")
    score = Score()
    for _, image, truths in byler():
        score.add(read(image, profile), truths)
    assert score.labelled == 1487
    assert score.precision >= REAL_FLOORS["precision"]
    assert score.recall >= REAL_FLOORS["recall"]
    assert score.face_accuracy >= REAL_FLOORS["face"]


REAL_FLOORS = {"precision": 0.975, "recall": 0.86, "face": 0.52}
SYNTH_FLOORS = {
    "last-bastion/combat": 0.86,
    "last-bastion/corruption": 0.64,
    "runemasters/rune": 0.88,
    "aot/hero": 0.70,
}


@pytest.mark.parametrize("name", SYNTH_PROFILES)
def test_synthetic_profiles_meet_floors(name):
    profile = load_profile(name)
    score = Score()
    for _, image, truths in render_set(name, 40, seed=77):
        score.add(read(image, profile), truths)
    assert score.face_accuracy >= SYNTH_FLOORS[name]
    assert score.precision >= 0.9


def test_wrong_faces_are_mostly_flagged_uncertain():
    profile = load_profile("d6")
    score = Score()
    for _, image, truths in byler()[::4]:
        score.add(read(image, profile), truths)
    wrong = score.matched - score.correct
    assert score.certain_wrong <= 0.6 * max(1, wrong)
