"""Which model may read which labelled photo: a photo is only ever measured by a model that never
saw it, for the shipped model and for a candidate model file given to the benchmark."""

from __future__ import annotations

import json
from pathlib import Path

from dice_fixtures import byler

from vision.datasets import candidate, photo_fold, seen_by, unseen_by
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


def test_the_photos_a_model_was_trained_on_are_told_from_those_it_never_saw(tmp_path):
    """``benchmarks/vision.py --seen`` reads what a model learned from: every fold of its sets
    but the one it was held out from, and nothing of a set it never saw."""
    model = read_model_file("dice.json") | {"sets": ["aws", "byler"], "held_out": 2}
    path = tmp_path / "candidate.json"
    path.write_text(json.dumps(model))
    stems = {photo_fold(name): name for name, _, _ in byler()}

    assert [seen_by("byler", stems[k], path) for k in range(5)] == [True, True, False, True, True]
    assert not seen_by("webcam", stems[0], path)
    # The shipped model never saw fold 0 of any set, and saw the rest.
    assert not seen_by("byler", stems[0]) and seen_by("byler", stems[1])


def test_another_fold_is_read_by_the_fold_model_of_the_same_named_recipe(tmp_path, monkeypatch):
    """The five-fold figures: a candidate of a named recipe reads each other fold with that
    recipe's model of the fold, never with a fold model of another recipe (nor the shipped model,
    unnamed, with them)."""
    import vision.datasets as datasets

    shipped = read_model_file("dice.json")
    folds = tmp_path / "models"
    folds.mkdir()
    for k, recipe in ((1, "tray-weighted"), (3, "another")):
        (folds / f"fold{k}.json").write_text(json.dumps(
            shipped | {"sets": ["byler"], "held_out": k, "recipe": recipe}))
    monkeypatch.setattr(datasets, "FOLD_MODELS", folds)
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    path = elsewhere / "weighted.json"
    path.write_text(json.dumps(shipped | {"sets": ["byler"], "held_out": 0,
                                          "recipe": "tray-weighted"}))
    stems = {photo_fold(name): name for name, _, _ in byler()}

    assert unseen_by("byler", stems[1], path) == (True, candidate(folds / "fold1.json"))
    assert unseen_by("byler", stems[3], path) == (False, None)  # another recipe's
    assert unseen_by("byler", stems[0], path) == (True, candidate(path))
    assert unseen_by("byler", stems[1]) == (False, None)  # the shipped model: all sets


def test_a_recipe_being_tried_keeps_its_fold_models_beside_it(tmp_path, monkeypatch):
    """``train_vision.py --out DIR --folds-out DIR`` writes a new recipe's folds beside its
    ``dice.json``: the benchmark reads each fold with the model found there before any of
    benchmarks/models, and a fold missing there with the one in benchmarks/models only if it is
    of the same recipe."""
    import vision.datasets as datasets

    shipped = read_model_file("dice.json")
    folds, tried = tmp_path / "models", tmp_path / "tried"
    folds.mkdir()
    tried.mkdir()
    monkeypatch.setattr(datasets, "FOLD_MODELS", folds)

    def write(path: Path, fold: int, recipe: str) -> Path:
        path.write_text(json.dumps(shipped | {"sets": ["byler"], "held_out": fold,
                                              "recipe": recipe}))
        return path

    write(folds / "fold1.json", 1, "contrast")
    write(folds / "fold2.json", 2, "shipped-recipe")
    beside = write(tried / "fold1.json", 1, "contrast")
    model = write(tried / "dice.json", 0, "contrast")
    stems = {photo_fold(name): name for name, _, _ in byler()}

    assert unseen_by("byler", stems[1], model) == (True, candidate(beside))
    assert unseen_by("byler", stems[2], model) == (False, None)
    (tried / "fold1.json").unlink()
    assert unseen_by("byler", stems[1], model) == (True, candidate(folds / "fold1.json"))


def test_the_benchmarks_copy_of_the_shipped_model_is_the_shipped_model():
    """The five-fold figures of the shipped recipe read fold 0 with ``shipped.json``: it must be
    the shipped file itself, naming its recipe, and the fold models must be of that recipe and
    share its sets (retraining ``dice.json`` without them would measure another model)."""
    models = Path(__file__).resolve().parents[2] / "benchmarks" / "models"
    copy = json.loads((models / "shipped.json").read_text())
    ours = read_model_file("dice.json")
    recipe = copy.pop("recipe")
    assert recipe and copy == ours
    for k in range(1, 5):
        fold = json.loads((models / f"fold{k}.json").read_text())
        assert (fold["recipe"], fold["held_out"], fold["sets"]) == (recipe, k, ours["sets"])
