"""Where the labelled photographs live and how to walk them (used by tests and the benchmark)."""

from __future__ import annotations

import os
from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path

import numpy as np

from .evaluate import Truth, load_yolo_labels
from .imageio import load_image

REPO_ROOT = Path(__file__).resolve().parent.parent
RELATIVE = Path("data") / "dice" / "byler-d6-train"


def _byler_folder() -> Path:
    """``$COMPANION_SHARED/data/dice/byler-d6-train`` if set, else ``../shared`` next to the
    repository (never a fixed absolute path: a checkout elsewhere sets the variable)."""
    shared = os.environ.get("COMPANION_SHARED")
    return (Path(shared) if shared else REPO_ROOT.parent / "shared") / RELATIVE


BYLER = _byler_folder()

# Labels of byler-d6-train checked by eye and found wrong: (image stem, label line) -> the face
# on top. Each was read with certainty by a model that never saw the photo; the zoomed photo
# shows the read face (3, 4, 3 and 5 pips) and the label names a side face or a neighbour. The
# benchmark also prints its figures against the raw labels.
LABEL_FIXES = {
    ("IMG_20191208_112342", 16): "3",
    ("IMG_20191209_095439", 9): "4",
    ("IMG_20191209_095954", 2): "3",
    ("IMG_20191209_100722", 4): "5",
}


class DatasetMissing(FileNotFoundError):
    """The labelled photographs are not where the repository expects them."""


def byler_frames(
    root: Path = BYLER, fixed: bool = True
) -> Iterator[tuple[str, np.ndarray, tuple[Truth, ...]]]:
    """Yield ``(name, image, labelled dice)`` for each photo of the byler-d6-train set, with the
    checked :data:`LABEL_FIXES` applied unless ``fixed`` is false.

    Raises :class:`DatasetMissing` with the expected path when the folder is absent.
    """
    images = sorted((root / "images").glob("*.jpg"))
    if not images:
        raise DatasetMissing(
            f"labelled pip photos not found in {root} (expected images/*.jpg and labels/*.txt "
            "from ../shared/data/dice/byler-d6-train next to the repository)"
        )
    for path in images:
        image = load_image(path)
        h, w = image.shape[:2]
        truths = load_yolo_labels(root / "labels" / f"{path.stem}.txt", w, h)
        if fixed:
            truths = tuple(
                replace(t, face=LABEL_FIXES.get((path.stem, i), t.face))
                for i, t in enumerate(truths)
            )
        yield path.stem, image, truths
