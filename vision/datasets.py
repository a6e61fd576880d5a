"""Where the labelled photographs live and how to walk them (used by tests, benchmark, training).

Four real sets of pip dice, each in its own folder of ``../shared/data/dice/`` (or
``$COMPANION_SHARED/data/dice/``), read in place and never copied: see that folder's README for
where the photos come from and their licences. ``roboflow`` is CC BY 4.0: :data:`CREDITS` is
printed wherever data or a model trained on it is shipped or reported.
"""

from __future__ import annotations

import json
import os
from collections.abc import Iterator
from dataclasses import dataclass, replace
from functools import cache
from pathlib import Path

import numpy as np

from .evaluate import UNCLEAR, Truth, load_yolo_labels
from .imageio import load_image
from .models import fold_of
from .net import DiceNets, read_model_file

REPO_ROOT = Path(__file__).resolve().parent.parent
DICE = Path("data") / "dice"


@dataclass(frozen=True)
class PhotoSet:
    """One labelled folder: its short name, folder, and how its labels name faces."""

    name: str
    folder: str
    classes: int = 6  # label classes that are faces 1..classes; the next one is "unclear"
    top_face_boxes: bool = False  # boxes drawn around the top face only, not the whole die


SETS = {
    s.name: s
    for s in (
        PhotoSet("byler", "byler-d6-train"),
        PhotoSet("aws", "aws-reinvent2019-d6"),
        PhotoSet("roboflow", "roboflow-dice-d6"),
        PhotoSet("webcam", "matteop65-webcam-d6", top_face_boxes=True),
    )
}


def top_faces(name: str) -> bool:
    """Whether the labels of the photo set ``name`` frame the top face only, not the whole die
    (``False`` for a render profile's name): matching a find to its label then allows more
    (``vision.evaluate.match``)."""
    return name in SETS and SETS[name].top_face_boxes


CREDITS = (
    'roboflow set: "Dice" dataset, Roboflow export "Dice - v3 better_augmentation", from '
    "github.com/Epanemu/GameDiceRecognition and Roboflow's public \"6 Sided Dice\" dataset "
    "(public.roboflow.com/object-detection/dice), CC BY 4.0"
)


def shared_dice() -> Path:
    """``$COMPANION_SHARED/data/dice`` if set, else ``../shared/data/dice`` next to the
    repository (never a fixed absolute path: a checkout elsewhere sets the variable)."""
    shared = os.environ.get("COMPANION_SHARED")
    return (Path(shared) if shared else REPO_ROOT.parent / "shared") / DICE


def group_of(stem: str) -> str:
    """The source photo of a file: augmented copies (``name.rf.<hash>``) share one group, so a
    photo and its copies always fall in the same fold."""
    return stem.split(".rf.")[0]


def photo_fold(stem: str) -> int:
    """The fold of a photo, by its group (see :func:`vision.models.fold_of`)."""
    return fold_of(group_of(stem))


BYLER = shared_dice() / SETS["byler"].folder


# Labels checked by eye and found wrong, per set: (image stem, label line) -> the face on top.
# Each die was read with certainty by a model that never saw the photo (the costly mistakes of
# ``benchmarks/vision.py --mistakes``); the zoomed photo shows the read face and the label names
# a side face or a neighbour. Kept only where the top face's pips are plain to count.
LABEL_FIXES = {
    # Two more pink tray dice labelled 2 may show 3 (IMG_20191208_111919 line 6,
    # IMG_20191209_095421 line 3), but their white swirls could pass for a pip: left as labelled.
    "byler": {
        ("IMG_20191208_111246", 0): "3",
        ("IMG_20191208_112342", 16): "3",
        ("IMG_20191209_095439", 9): "4",
        ("IMG_20191209_095954", 2): "3",
        ("IMG_20191209_100722", 4): "5",
    },
    # Phone photos at a slant: these labels name the die's front face, or a face it does not
    # show. Of the 13 aws dice read wrong with certainty over five folds, the other five are
    # the reader's mistakes (a top face of 1 or 6 read by its front face) or too blurred or
    # too low to see the top face: left as labelled.
    "aws": {
        ("IMG_20191112_101823", 8): "3",  # labelled 2: three pips in a diagonal, a 6 in front
        ("IMG_20191112_101837", 14): "3",  # labelled 4
        ("IMG_20191112_111002", 1): "4",  # labelled 3: four pips on top, one in front
        ("IMG_20191112_111439", 12): "3",  # labelled 6: the 6 is its front face
        ("IMG_20191112_111519", 3): "5",  # labelled 6
        ("IMG_20191112_111903", 14): "1",  # labelled 2: one pip in the middle, from above
        ("IMG_20191112_111903", 25): "5",  # labelled 2
        ("Image_79", 2): "5",  # labelled 4
    },
}


# Photos whose label file is empty though they plainly show dice, checked by eye: the export
# labelled none of them. Every die the reader found there counted as a false find (44 of
# roboflow's 119 over five folds, 10 of them read surely) and training learned those dice as
# no die. Left out of every figure and of training, by source photo (their augmented copies
# too). The empty label files of aws are photos of no die (a ceiling, a blurred frame, bare
# terrazzo): they stay, and teach what is not a die.
UNLABELLED = {
    "roboflow": frozenset({
        "dice_59_jpg",  # about 30 dice, white, red, green and purple, on a white table
        "dice_193_jpg",  # a red and a yellow die, far away on a white table
        "dice_417_jpg",  # 14 dice, cream, amber and black, on a purple mat
    }),
}


# The shipped recipe's models trained without one fold of the real photos, used only to measure on
# the photos they never saw: they live beside the benchmark, not in the package (they are not read
# at run time). A recipe being tried keeps its own beside its model file (``fold_folders``).
FOLD_MODELS = REPO_ROOT / "benchmarks" / "models"


@cache
def _model_file(model: Path | None) -> dict:
    """The content of a model file: ``model``, or the shipped ``dice.json`` when ``None``."""
    return read_model_file("dice.json") if model is None else json.loads(model.read_text())


@cache
def candidate(model: Path) -> DiceNets:
    """A model file that is not (yet) shipped, ready to run (the benchmark's ``--model``)."""
    return DiceNets.from_dict(_model_file(model))


def _recipe(model: Path | None = None) -> tuple[frozenset[str], int | None, str | None]:
    """What a model file (default: the shipped one) says of its training: its real sets (byler
    when unsaid), the fold of each it never saw, and the name of its recipe (None when
    unnamed)."""
    data = _model_file(model)
    return frozenset(data.get("sets", ["byler"])), data.get("held_out"), data.get("recipe")


def trained_sets(model: Path | None = None) -> set[str]:
    """The real sets a model (default: the shipped one) was trained on (byler when its file
    does not say)."""
    return set(_recipe(model)[0])


def unseen_by(
    name: str, stem: str, model: Path | None = None
) -> tuple[bool, DiceNets | None]:
    """Whether a photo can be measured, and with which model (``None``: the shipped one): a set
    the model (default: the shipped one; else the file ``model``) never saw, or the fold of a
    trained set it was held out from, is read by that model; another fold by its own held-out
    model of the same recipe (same sets, same ``recipe`` name), if there is one beside the
    model file or in benchmarks/models (:func:`fold_folders`)."""
    itself = None if model is None else candidate(model)
    sets, fold_out, recipe = _recipe(model)
    if name not in sets:
        return True, itself
    fold = photo_fold(stem)
    if fold_out == fold:
        return True, itself
    for folder in fold_folders(model):
        path = folder / f"fold{fold}.json"
        if path.is_file():
            fold_sets, _, fold_recipe = _recipe(path)
            if (fold_sets, fold_recipe) == (sets, recipe):
                return True, candidate(path)
    return False, None


def fold_folders(model: Path | None = None) -> list[Path]:
    """Where the held-out fold models ``fold<k>.json`` of a model's recipe are looked for: the
    folder of a candidate model file first (a recipe being tried keeps its folds beside it:
    ``train_vision.py --out DIR --folds-out DIR``), then benchmarks/models (the shipped
    recipe's)."""
    beside = [model.resolve().parent] if model is not None else []
    return beside + [f for f in [FOLD_MODELS] if f not in beside]


def seen_by(name: str, stem: str, model: Path | None = None) -> bool:
    """Whether the model (default: the shipped one; else the file ``model``) was trained on
    this photo: a set it learned, outside the fold it was held out from. Reading those photos
    tells how well the model fits what it learned from, apart from how far that carries to
    photos it never saw (docs/vision-lab.md, "Where the rest is lost")."""
    sets, fold_out, _ = _recipe(model)
    return name in sets and photo_fold(stem) != fold_out


class DatasetMissing(FileNotFoundError):
    """The labelled photographs are not where the repository expects them."""


def byler_frames(
    root: Path = BYLER, fixed: bool = True
) -> Iterator[tuple[str, np.ndarray, tuple[Truth, ...]]]:
    """Yield ``(name, image, labelled dice)`` for each photo of the byler-d6-train set, with the
    checked :data:`LABEL_FIXES` applied unless ``fixed`` is false.

    Raises :class:`DatasetMissing` with the expected path when the folder is absent.
    """
    for path in set_images(root):
        image = load_image(path)
        h, w = image.shape[:2]
        truths = load_yolo_labels(label_file(root, path), w, h)
        yield path.stem, image, fixed_labels("byler", path.stem, truths) if fixed else truths


def set_frames(
    name: str, copies: bool = False
) -> Iterator[tuple[str, np.ndarray, tuple[Truth, ...]]]:
    """Yield ``(stem, image, labelled dice)`` for every photo of set ``name`` (``SETS``).

    Faces are ``"1"``..``"6"``; a die its labeller marked unclear has face :data:`UNCLEAR`.
    Augmented copies of one photo (roboflow's ``.rf.`` files) are left out unless ``copies``:
    the figures count each photo once. Photos of dice left unlabelled (:data:`UNLABELLED`) are
    left out; the labels checked and found wrong (:data:`LABEL_FIXES`) are corrected.
    """
    if name == "byler":
        yield from byler_frames()
        return
    info = SETS[name]
    root = shared_dice() / info.folder
    left_out = UNLABELLED.get(name, frozenset())
    seen: set[str] = set()
    for path in set_images(root):
        group = group_of(path.stem)
        if group in left_out or (not copies and group in seen):
            continue
        seen.add(group)
        image = load_image(path)
        h, w = image.shape[:2]
        truths = tuple(
            t if int(t.face) <= info.classes else replace(t, face=UNCLEAR)
            for t in load_yolo_labels(label_file(root, path), w, h)
        )
        yield path.stem, image, fixed_labels(name, path.stem, truths)


def fixed_labels(name: str, stem: str, truths: tuple[Truth, ...]) -> tuple[Truth, ...]:
    """The labelled dice of photo ``stem`` of set ``name`` with the faces :data:`LABEL_FIXES`
    corrects."""
    fixes = LABEL_FIXES.get(name, {})
    return tuple(replace(t, face=fixes.get((stem, i), t.face)) for i, t in enumerate(truths))


def label_file(root: Path, image: Path) -> Path:
    """The YOLO label file of the photo ``image`` of the set folder ``root``: the same path
    under ``labels/`` as the photo under ``images/``, ending ``.txt``."""
    return root / "labels" / image.relative_to(root / "images").with_suffix(".txt")


def set_images(root: Path) -> list[Path]:
    """The photos of a set folder (sub-folders included), sorted; fails when there are none."""
    images = sorted(p for p in (root / "images").rglob("*") if p.suffix.lower() in (
        ".jpg", ".jpeg", ".png"))
    if not images:
        raise DatasetMissing(
            f"labelled dice photos not found in {root} (expected images/ and labels/ from "
            "../shared/data/dice next to the repository, or set COMPANION_SHARED)"
        )
    return images
