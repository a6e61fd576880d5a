"""Taught dice that read like pips: a learned profile taught from a few real pip photos per face
(pips treated as symbols it was never told about) reads the held-out tray photos nearly as well
as the pip reader. The same measure as the benchmark's teach-from-photos rows
(``benchmarks/vision.py --teach``), with floors a little under its figures (docs/vision-lab.md)."""

from __future__ import annotations

import importlib.util
import json
from pathlib import Path

import pytest
from dice_fixtures import byler

from vision.datasets import set_frames
from vision.evaluate import Score
from vision.net import read_model_file

BENCHMARK = Path(__file__).resolve().parents[2] / "benchmarks" / "vision.py"
# 10 real dice per face taught, fold 0 of the tray photos read with the shipped all-sets model,
# the embedder shown the wider cut-outs too: measured face accuracy .953 (.950 over 20 draws of
# taught dice; the detector misses 2 of the 340 dice), .959 of the dice found, precision .991,
# 14.7 % asked (the goal: >= .95 and at most 15 % asked).
FLOORS = {"face": 0.93, "found": 0.94, "precision": 0.98}
ASKED_AT_MOST = 0.15


@pytest.fixture(scope="module")
def benchmark():
    """The benchmark module, loaded from its file (its name would shadow the package)."""
    spec = importlib.util.spec_from_file_location("vision_benchmark", BENCHMARK)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.fixture(scope="module")
def taught_score(benchmark) -> Score:
    """Fold 0 of the tray photos read by a profile taught 10 dice per face from folds 1-4 (the
    benchmark's own function)."""
    return benchmark.taught_from_photos("byler", 10, byler())


def test_pips_taught_from_ten_photos_per_face_read_like_pips(taught_score):
    assert taught_score.labelled >= 300  # fold 0 of the tray photos
    assert taught_score.face_accuracy >= FLOORS["face"]
    assert taught_score.correct / taught_score.matched >= FLOORS["found"]  # the teaching's part
    assert taught_score.precision >= FLOORS["precision"]
    assert taught_score.uncertain_share <= ASKED_AT_MOST


def test_a_webcam_die_framed_off_its_top_face_is_described_whole(benchmark):
    """The webcam's dice at a slant are often framed partly off their top face (docs/vision-lab.md,
    "The wider second look"), so a cut-out around the box misses some of the marks. The embedder
    also sees a wider cut-out: taught 10 webcam dice per face, fold 0 reads .936 with 19.0 %
    asked (.906 and 21.8 % when it saw the box's cut-out alone)."""
    score = benchmark.taught_from_photos("webcam", 10, list(set_frames("webcam")))
    assert score.labelled >= 250  # fold 0 of the webcam photos
    assert score.face_accuracy >= 0.925
    assert score.uncertain_share <= 0.205


def test_a_candidate_model_reads_the_taught_rows_itself(benchmark, tmp_path):
    """``benchmarks/vision.py --model FILE`` measures the teach-from-photos rows with that file
    too, never silently with the shipped model: a candidate that saw the tray's fold 0 has no
    photo there it may read, and one held out from it reads all of them."""
    shipped = read_model_file("dice.json")
    saw_fold_0 = tmp_path / "saw.json"
    saw_fold_0.write_text(json.dumps(shipped | {"sets": ["byler"], "held_out": 2}))
    held_out = tmp_path / "held-out.json"
    held_out.write_text(json.dumps(shipped | {"sets": ["byler"], "held_out": 0}))
    frames = byler()

    assert benchmark.taught_from_photos("byler", 5, frames, model=saw_fold_0).labelled == 0
    assert benchmark.taught_from_photos("byler", 5, frames, model=held_out).labelled >= 300
