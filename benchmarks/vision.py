"""Accuracy and speed of the dice reader.

    .venv/bin/python benchmarks/vision.py [--real-only | --synthetic-only] [--renders N]

Real pip photos come from ../shared/data/dice/byler-d6-train. The shipped model was trained on
them, so only the photos of the folds whose held-out model is shipped (``vision/models/
fold<k>.json``, trained without them; all five are) are measured, each with that model: the real
figures are held-out, by image. They count the labels checked by eye (``vision.datasets.
LABEL_FIXES``); the face accuracy and wrong-but-certain count against the raw labels follow.
Coloured and symbol dice are synthetic renders (vision.synth, seeds 1000+, never used for
training). Found dice are matched one to one with labelled ones (IoU >= 0.5 or found centre
inside the labelled box). Printed per set: detection precision and recall, face accuracy over all
labelled dice (a missed die counts as wrong), exact-roll accuracy per frame, wrong faces reported
as certain, the share of found dice marked uncertain, the confusion table, and median and p95
milliseconds per 640x640 frame on one core (timed with the shipped model).
"""

from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Iterable
from pathlib import Path

import cv2
import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from vision import load_profile, read  # noqa: E402
from vision.datasets import BYLER, byler_frames  # noqa: E402
from vision.evaluate import Score, Truth, load_yolo_labels  # noqa: E402
from vision.models import fold_of  # noqa: E402
from vision.net import held_out, shipped, trained_folds  # noqa: E402
from vision.synth import SYNTH_PROFILES, render_set  # noqa: E402


def evaluate(
    title: str,
    profile_name: str,
    frames: Iterable[tuple[str, np.ndarray, tuple[Truth, ...]]],
    held: bool = False,
    raw: dict[str, tuple[Truth, ...]] | None = None,
) -> Score:
    """Read every frame, score it and print the figures (``held``: use the fold models;
    ``raw``: the unchecked labels of each frame, scored as well)."""
    profile = load_profile(profile_name)
    score, raw_score, times = Score(), Score(), []
    for name, image, truths in frames:
        frame = cv2.resize(image, (640, 640)) if image.shape[:2] != (640, 640) else image
        start = time.perf_counter()
        roll = read(frame, profile)
        times.append((time.perf_counter() - start) * 1000)
        if held:
            roll = read(frame, profile, nets=held_out(fold_of(name)))
        score.add(roll, truths)
        if raw is not None:
            raw_score.add(roll, raw[name])
    print(f"== {title} ({score.frames} frames, {score.labelled} dice, profile {profile_name})")
    print(f"detection precision {score.precision:.2%}  recall {score.recall:.2%}")
    print(f"face accuracy over all dice {score.face_accuracy:.2%}")
    print(f"exact-roll accuracy per frame {score.exact_roll_accuracy:.2%}")
    print(f"wrong faces reported as certain {score.certain_wrong}")
    print(f"found dice marked uncertain {score.uncertain_share:.2%}")
    if raw is not None:
        print(f"against the raw labels: face accuracy {raw_score.face_accuracy:.2%}, "
              f"wrong faces reported as certain {raw_score.certain_wrong}")
    median, p95 = np.median(times), np.percentile(times, 95)
    print(f"ms per 640x640 frame: median {median:.1f}  p95 {p95:.1f}")
    print(score.confusion_table(profile.faces))
    print()
    return score


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    group = parser.add_mutually_exclusive_group()
    group.add_argument("--real-only", action="store_true")
    group.add_argument("--synthetic-only", action="store_true")
    parser.add_argument("--renders", type=int, default=100, help="synthetic frames per profile")
    args = parser.parse_args(argv)
    cv2.setNumThreads(1)
    shipped()  # load before timing
    if not args.synthetic_only:
        folds = trained_folds()
        photos = [f for f in byler_frames() if fold_of(f[0]) in folds]
        raw = {name: load_yolo_labels(BYLER / "labels" / f"{name}.txt", *image.shape[1::-1])
               for name, image, _ in photos}
        title = f"real pip photos byler-d6-train, held-out folds {folds}"
        evaluate(title, "d6", photos, True, raw)
    if not args.real_only:
        for seed, name in enumerate(SYNTH_PROFILES):
            evaluate(f"synthetic {name}", name, render_set(name, args.renders, seed=1000 + seed))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
