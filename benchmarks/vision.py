"""Accuracy and speed of the dice reader.

    .venv/bin/python benchmarks/vision.py [--real-only | --synthetic-only] [--renders N]

Real pip photos come from ../shared/data/dice/byler-d6-train; coloured and symbol dice are
synthetic renders (vision.synth, fixed seeds). Found dice are matched one to one with labelled
ones (IoU >= 0.5 or found centre inside the labelled box). Printed per set: detection precision
and recall, face accuracy over all labelled dice (a missed die counts as wrong), exact-roll
accuracy per frame, wrongly read dice not flagged uncertain, the confusion table, and median and
p95 milliseconds per 640x640 frame on one core.
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
from vision.datasets import byler_frames  # noqa: E402
from vision.evaluate import Score, Truth  # noqa: E402
from vision.synth import SYNTH_PROFILES, render_set  # noqa: E402


def evaluate(
    title: str, profile_name: str, frames: Iterable[tuple[str, np.ndarray, tuple[Truth, ...]]]
) -> Score:
    """Read every frame, score it and print the figures."""
    profile = load_profile(profile_name)
    score, times = Score(), []
    for _, image, truths in frames:
        frame = cv2.resize(image, (640, 640)) if image.shape[:2] != (640, 640) else image
        start = time.perf_counter()
        roll = read(frame, profile)
        times.append((time.perf_counter() - start) * 1000)
        score.add(roll, truths)
    print(f"== {title} ({score.frames} frames, {score.labelled} dice, profile {profile_name})")
    print(f"detection precision {score.precision:.2%}  recall {score.recall:.2%}")
    print(f"face accuracy over all dice {score.face_accuracy:.2%}")
    print(f"exact-roll accuracy per frame {score.exact_roll_accuracy:.2%}")
    print(f"wrong faces not flagged uncertain {score.certain_wrong}")
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
    if not args.synthetic_only:
        evaluate("real pip photos byler-d6-train", "d6", byler_frames())
    if not args.real_only:
        for seed, name in enumerate(SYNTH_PROFILES):
            evaluate(f"synthetic {name}", name, render_set(name, args.renders, seed=1000 + seed))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
