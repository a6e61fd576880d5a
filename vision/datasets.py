"""Where the labelled photographs live and how to walk them (used by tests and the benchmark)."""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

import numpy as np

from .evaluate import Truth, load_yolo_labels
from .imageio import load_image

REPO_ROOT = Path(__file__).resolve().parent.parent
RELATIVE = Path("data") / "dice" / "byler-d6-train"


def _byler_folder() -> Path:
    """``$COMPANION_SHARED/data/dice/byler-d6-train`` if set, else ``../shared`` next to the
    repository, else the workplace's ``/work/shared`` (so a checkout elsewhere finds it)."""
    candidates = [Path(os.environ["COMPANION_SHARED"]) / RELATIVE] if os.environ.get(
        "COMPANION_SHARED") else []
    candidates += [REPO_ROOT.parent / "shared" / RELATIVE, Path("/work/shared") / RELATIVE]
    return next((c for c in candidates if (c / "images").is_dir()), candidates[0])


BYLER = _byler_folder()


class DatasetMissing(FileNotFoundError):
    """The labelled photographs are not where the repository expects them."""


def byler_frames(root: Path = BYLER) -> Iterator[tuple[str, np.ndarray, tuple[Truth, ...]]]:
    """Yield ``(name, image, labelled dice)`` for each photo of the byler-d6-train set.

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
        yield path.stem, image, load_yolo_labels(root / "labels" / f"{path.stem}.txt", w, h)
