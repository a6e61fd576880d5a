"""Which model may read which labelled photo: a photo is only ever measured by a model that never
saw it, for the shipped model and for a candidate model file given to the benchmark."""

from __future__ import annotations

import json

from dice_fixtures import byler

from vision.datasets import candidate, photo_fold, unseen_by
from vision.net import read_model_file


def test_a_candidate_model_reads_only_what_it_never_saw(tmp_path):
    model = read_model_file("dice.json") | {"sets": ["aws", "byler"], "held_out": 2}
    path = tmp_path / "candidate.json"
    path.write_text(json.dumps(model))
    stems = {photo_fold(name): name for name, _, _ in byler()}

    # A set it was never trained on is read whole, by the candidate itself.
    assert unseen_by("webcam", "any-photo", path) == (True, candidate(path))
    # Of a set it was trained on, only the fold it was held out from.
    assert unseen_by("byler", stems[2], path) == (True, candidate(path))
    # Another fold would need a held-out model of the same recipe; the fold models in
    # benchmarks/models are trained on other sets, so that photo is not measured at all.
    assert unseen_by("byler", stems[1], path) == (False, None)
