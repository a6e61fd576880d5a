"""The pip classifier's ask thresholds, calibrated per face (benchmarks/ask.py, issue 41 item 2)."""

from __future__ import annotations

from dataclasses import replace

import pytest

from benchmarks.ask import FLOOR, Reading, asked, sweep, thresholds
from vision.net import ASKED_AT, shipped


def _reading(face: str, probability: float, wrong: bool, forced: bool = False,
             fold: int = 0) -> Reading:
    return Reading("byler | none", fold, face, probability, forced, wrong)


def test_a_face_is_asked_about_from_just_above_its_surest_wrong_reading():
    found = [_reading("4", 0.731, True), _reading("4", 0.6, True), _reading("4", 0.8, False),
             _reading("5", 0.95, True),  # read wrong above 0.9: asked about at neither
             _reading("6", 0.85, True, forced=True),  # asked about anyway: a crowded die
             _reading("6", 0.7, False)]
    ask = thresholds(found)
    assert ask == {"4": 0.74, "5": FLOOR, "6": FLOOR}
    assert asked(found[0], ask) and not asked(found[2], ask)
    assert all(not (r.wrong and not asked(r, ask)) or r.probability >= ASKED_AT for r in found)


def test_the_calibrated_confidence_maps_a_face_threshold_to_the_profile_threshold():
    nets = replace(shipped(), ask={"4": 0.8})
    assert nets.confidence("4", 0.8) == pytest.approx(ASKED_AT)
    assert nets.confidence("4", 0.4) == pytest.approx(ASKED_AT / 2)
    assert nets.confidence("4", 1.0) == pytest.approx(1.0)
    probabilities = [i / 100 for i in range(101)]
    mapped = [nets.confidence("4", p) for p in probabilities]
    assert mapped == sorted(mapped)  # the order of the readings is kept
    assert nets.confidence("3", 0.85) == 0.85  # a face not calibrated: the probability
    assert replace(nets, ask={}).confidence("4", 0.85) == 0.85


def test_a_sweep_counts_the_dice_asked_and_those_read_wrong_unasked_at_each_threshold():
    found = [_reading("4", 0.97, True), _reading("4", 0.93, False), _reading("5", 0.85, True),
             _reading("6", 0.999, False, forced=True),  # asked about anyway: a crowded die
             Reading("byler | none", 0, "3", 0.99, False, False, labelled=False)]  # a false find
    table = sweep(found, [0.9, 0.95, 0.98])
    assert table.splitlines()[2] == "| byler | none | 40.0% / 1 | 60.0% / 1 | 80.0% / 0 |"
