"""Accuracy and speed of the dice reader, per labelled set and per transform.

    .venv/bin/python benchmarks/vision.py [--sets byler aws roboflow webcam] [--transforms ...]
        [--limit N] [--renders N] [--no-synthetic] [--no-speed] [--opencv] [--seen] [--folds]
        [--mistakes DIR] [--adapt N]

Real pip photos come from the four folders of ../shared/data/dice (``vision.datasets``; roboflow
is CC BY 4.0, credited below). A photo is read by a model that never saw it: for a set the
shipped model was trained on (``sets`` in vision/models/dice.json, byler only when absent), the
fold the model file names as ``held_out`` (read by the shipped model), and any other fold only
with a held-out model of the same recipe (``benchmarks/models/fold<k>.json`` trained on the same
sets); folds by source photo, augmented copies grouped. Sets the model never saw are read whole.
Each photo counts once (augmented copies left out). Byler counts the labels checked by eye
(``LABEL_FIXES``); aws dice labelled "unclear" count neither way; roboflow photos of dice left
unlabelled (``UNLABELLED``) are left out.

Transforms (each applied to every photo of every set, labels moved with it): ``rotate`` (30°,
canvas enlarged), ``half`` (½×), ``double`` (2×, the centre cut back to the photo's size: dice
twice as large), ``canvas`` (the photo in the middle of a canvas 4× its side, filled with its
border colour: dice a quarter of their size), ``far`` (the photo off centre in a 12 MP frame of
its border colour: a tray far away, seen by a 12 MP camera), ``jpeg40``, ``dark`` (−40 %
light), ``noise`` (σ 10), ``blur`` (Gaussian σ 1.5).

``--folds`` adds each fold's face accuracy and share asked to every real row: a candidate
recipe is better when it is better on each fold, not on their sum alone.

``--mistakes DIR`` writes a contact sheet of every row's mistakes (dice missed, read wrong,
seen where there is none) to ``DIR/<set>-<transform>.png``, with a list of their photos
(``benchmarks/mistakes.py``): what a recipe loses, to be looked at.

``--seen`` reads the photos the model was trained on instead (the shipped model: folds 1–4 of
every set; rows marked "seen in training"): how well it fits what it learned from, apart from
how far that carries to photos it never saw. A model that reads its own training photos under
a goal will not meet it on others.

Teach-from-photos rows (``--teach 5 10``): pips treated as unknown symbols, a learned profile with
open faces taught N real dice per face from the photos outside fold 0, reading fold 0 with a
detector that never saw it (the way an owner teaches a symbol die from a handful of photos).
Which N dice are drawn moves face accuracy by about a point; ``--draws K`` teaches K draws
(seeds 5 and up; default 1, seed 5) and prints their pooled row (the means) with the lowest and
highest draw.

Printed per row: detection precision and recall, face accuracy over all labelled dice (a missed
die counts as wrong), wrong faces reported as certain, the share of found dice marked uncertain
(the host is asked about them). Matching is one to one, IoU ≥ 0.5 or found centre inside the
labelled box. Speed (``--no-speed`` skips it): milliseconds of CPU on one thread
(``time.thread_time``: on this shared machine wall time mostly measures the other jobs; wall time
is printed too) per 640×640 byler photo and per 12 MP photo (aws photos scaled to 4032×3024),
and per 200 MP JPEG file (three aws photos at 16320×12240, decoding included), with the shipped
model, run by ONNX Runtime (``--opencv``: by OpenCV, as on a Pi without ONNX Runtime).
``--adapt N`` adds, per set, the curve of a table learned from its first N photos confirmed with
their labels (``benchmarks/adapt.py``), and times every speed photo twice in turn, with the
examples of the first N byler and aws photos in use and without (the same load on both).
Synthetic rows: coloured and symbol dice renders (vision.synth, seeds 1000+, never used for
training).
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
from collections.abc import Callable, Iterable, Iterator
from dataclasses import fields, replace
from pathlib import Path

import cv2
import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from benchmarks.adapt import HEADER, adapt  # noqa: E402
from benchmarks.mistakes import Seen, seen_in, write_sheet  # noqa: E402
from companion.dicehandoff import declare_dice  # noqa: E402
from vision import load_profile, read  # noqa: E402
from vision.datasets import (  # noqa: E402
    CREDITS,
    SETS,
    candidate,
    photo_fold,
    seen_by,
    set_frames,
    top_faces,
    trained_sets,
    unseen_by,
)
from vision.detect import die_pixels  # noqa: E402
from vision.evaluate import Score, Truth, mistakes  # noqa: E402
from vision.features import describe  # noqa: E402
from vision.net import DiceNets, shipped  # noqa: E402
from vision.profile import LEARNED, Profile  # noqa: E402
from vision.reader import read_photo  # noqa: E402
from vision.synth import render_set, synth_profiles  # noqa: E402
from vision.table import confirm  # noqa: E402

declare_dice()  # the games' dice, handed to vision as the app does
SYNTH_PROFILES = tuple(synth_profiles())

Frame = tuple[str, np.ndarray, tuple[Truth, ...]]
HELD_OUT = 0  # the fold the teach-from-photos rows read (taught from the other folds)
Transform = Callable[[np.ndarray, tuple[Truth, ...]], tuple[np.ndarray, tuple[Truth, ...]]]


def _scaled(truths: Iterable[Truth], m: np.ndarray) -> tuple[Truth, ...]:
    """Labels moved by the 2x3 affine ``m`` (box = the moved centre, side scaled)."""
    out = []
    scale = float(np.hypot(m[0, 0], m[0, 1]))
    for t in truths:
        cx, cy = (t.box[0] + t.box[2]) / 2, (t.box[1] + t.box[3]) / 2
        nx, ny = m @ np.array([cx, cy, 1.0])
        hw, hh = (t.box[2] - t.box[0]) * scale / 2, (t.box[3] - t.box[1]) * scale / 2
        out.append(replace(t, box=(round(nx - hw), round(ny - hh), round(nx + hw),
                                   round(ny + hh))))
    return tuple(out)


def rotate(image: np.ndarray, truths: tuple[Truth, ...]) -> tuple[np.ndarray, tuple[Truth, ...]]:
    """Turned by 30° about the centre, on a canvas large enough to keep every pixel."""
    h, w = image.shape[:2]
    m = cv2.getRotationMatrix2D((w / 2, h / 2), 30, 1.0)
    nw = int(w * abs(m[0, 0]) + h * abs(m[0, 1]))
    nh = int(h * abs(m[0, 0]) + w * abs(m[0, 1]))
    m[:, 2] += (nw - w) / 2, (nh - h) / 2
    turned = cv2.warpAffine(image, m, (nw, nh), borderMode=cv2.BORDER_REPLICATE)
    return turned, _scaled(truths, m)


def resize(factor: float) -> Transform:
    """Scaled by ``factor``; when larger, the centre is cut back to the original size."""
    def apply(image, truths):
        h, w = image.shape[:2]
        big = cv2.resize(image, None, fx=factor, fy=factor, interpolation=cv2.INTER_AREA
                         if factor < 1 else cv2.INTER_LINEAR)
        m = np.array([[factor, 0, 0], [0, factor, 0]], float)
        if factor <= 1:
            return big, _scaled(truths, m)
        x0, y0 = (big.shape[1] - w) // 2, (big.shape[0] - h) // 2
        m[:, 2] = -x0, -y0
        kept = tuple(t for t in _scaled(truths, m)
                     if 0 <= (t.box[0] + t.box[2]) / 2 < w and 0 <= (t.box[1] + t.box[3]) / 2 < h)
        return np.ascontiguousarray(big[y0:y0 + h, x0:x0 + w]), kept
    return apply


def _pasted(image: np.ndarray, truths: tuple[Truth, ...], size: tuple[int, int],
            at: tuple[int, int]) -> tuple[np.ndarray, tuple[Truth, ...]]:
    """The photo with its top left corner at ``at`` (x, y) in a frame of ``size`` (width,
    height) filled with its border colour."""
    h, w = image.shape[:2]
    border = np.concatenate([image[0], image[-1], image[:, 0], image[:, -1]])
    out = np.empty((size[1], size[0], 3), np.uint8)
    out[:] = np.median(border, axis=0)
    x0, y0 = at
    out[y0:y0 + h, x0:x0 + w] = image
    return out, _scaled(truths, np.array([[1, 0, x0], [0, 1, y0]], float))


def canvas(image: np.ndarray, truths: tuple[Truth, ...]) -> tuple[np.ndarray, tuple[Truth, ...]]:
    """The photo in the middle of a canvas four times its side, filled with its border colour."""
    h, w = image.shape[:2]
    return _pasted(image, truths, (4 * w, 4 * h), ((3 * w) // 2, (3 * h) // 2))


def far(image: np.ndarray, truths: tuple[Truth, ...]) -> tuple[np.ndarray, tuple[Truth, ...]]:
    """The photo two thirds of the way across and down a 12 MP frame (4032 × 3024) of its
    border colour: a tray far away, seen by a 12 MP camera."""
    h, w = image.shape[:2]
    return _pasted(image, truths, (4032, 3024), (2 * (4032 - w) // 3, 2 * (3024 - h) // 3))


def pixels(fn: Callable[[np.ndarray], np.ndarray]) -> Transform:
    """A transform that changes pixels only."""
    return lambda image, truths: (fn(image), truths)


def _jpeg(image: np.ndarray) -> np.ndarray:
    return cv2.imdecode(cv2.imencode(".jpg", image, [cv2.IMWRITE_JPEG_QUALITY, 40])[1], 1)


def _noise(image: np.ndarray) -> np.ndarray:
    rng = np.random.default_rng(int(image[::97, ::89].sum()))
    return np.clip(image + rng.normal(0, 10, image.shape), 0, 255).astype(np.uint8)


TRANSFORMS: dict[str, Transform] = {
    "none": pixels(lambda im: im),
    "rotate": rotate,
    "half": resize(0.5),
    "double": resize(2.0),
    "canvas": canvas,
    "far": far,
    "jpeg40": pixels(_jpeg),
    "dark": pixels(lambda im: (im * 0.6).astype(np.uint8)),
    "noise": pixels(_noise),
    "blur": pixels(lambda im: cv2.GaussianBlur(im, (0, 0), 1.5)),
}


def taught_from_photos(
    name: str, per_face: int, frames: list[Frame], seed: int = 5, model: Path | None = None
) -> Score:
    """Pips as symbols the reader has never been told about: a learned profile with open
    faces is taught ``per_face`` real dice of each face from the photos outside the held-out
    fold (their labelled boxes, as the owner would show them), then reads the held-out fold
    with a detector that never saw it, the ``model`` file's (a candidate, or its recipe's
    fold model) or else the shipped one (the face embedder never saw that fold either: its
    training leaves it out)."""
    rng = np.random.default_rng(seed)
    pool: dict[str, list[tuple[np.ndarray, Truth]]] = {}
    for stem, image, truths in frames:
        if photo_fold(stem) != HELD_OUT:
            for t in truths:
                pool.setdefault(t.face, []).append((image, t))
    examples = {}
    for face in sorted(f for f in pool if f in "123456"):
        chosen = rng.choice(len(pool[face]), per_face, replace=False)
        picked = [pool[face][int(i)] for i in chosen]
        blobs = [(im, b) for im, t in picked if (b := die_pixels(im, t.box)) is not None]
        vectors = [describe(im, [b])[0] for im, b in blobs]
        examples[face] = [v.tolist() for v in vectors if v is not None]
    profile = Profile("pips-as-symbols", LEARNED, tuple(examples), threshold=0.5,
                      open_faces=True, examples=examples)
    score = Score(top_faces(name))
    for stem, image, truths in frames:
        if photo_fold(stem) != HELD_OUT:
            continue  # asked first: a candidate's other fold models need not be loaded
        usable, nets = unseen_by(name, stem, model)
        if usable:
            score.add(read(image, profile, nets=nets), truths)
    return score


def pooled(scores: list[Score], top_faces: bool = False) -> Score:
    """Several scores as one: the scores of several draws of the same photos (its ratios are
    the draws' means), or of the folds of a set."""
    total = Score(scores[0].top_faces if scores else top_faces)
    for score in scores:
        for f in fields(Score):
            if f.name != "top_faces":
                setattr(total, f.name, getattr(total, f.name) + getattr(score, f.name))
    return total


def unseen_frames(
    name: str, limit: int = 0, model: Path | None = None
) -> list[tuple[Frame, DiceNets | None]]:
    """The photos of a set that some model never saw, each with that model (``None``: the
    shipped one), ``limit`` of them spread over the set (0: all). The limit applies after the
    photos the models saw are left out, so a model trained on one fold's complement is still
    measured on ``limit`` photos. ``model``: a model file measured instead of the shipped one."""
    return _spread([((stem, image, truths), nets) for stem, image, truths in set_frames(name)
                    for ok, nets in [unseen_by(name, stem, model)] if ok], limit)


def seen_frames(
    name: str, limit: int = 0, model: Path | None = None
) -> list[tuple[Frame, DiceNets | None]]:
    """The photos of a set that the model (``model``, or the shipped one) was trained on, each
    with that model, ``limit`` of them spread over the set (0: all): how well it fits them."""
    nets = candidate(model) if model else None
    return _spread([(frame, nets) for frame in set_frames(name)
                    if seen_by(name, frame[0], model)], limit)


def _spread(frames: list, limit: int) -> list:
    """``limit`` of ``frames`` spread over them (0: all of them)."""
    return frames[:: max(1, len(frames) // limit)][:limit] if limit else frames


def score_set(name: str, frames: list[tuple[Frame, DiceNets | None]], transform: str) -> Score:
    """Read every photo of set ``name`` after ``transform``, each with the model given beside
    it (one that never saw it, or, for ``--seen``, the one that learned from it)."""
    return pooled(list(fold_scores(name, frames, transform).values()), top_faces(name))


def fold_scores(
    name: str, frames: list[tuple[Frame, DiceNets | None]], transform: str,
    wrong: list[Seen] | None = None,
) -> dict[int, Score]:
    """:func:`score_set` fold by fold (``vision.datasets.photo_fold``), in fold order: a
    recipe's gain is real when it holds on each fold, since one training moves one fold's
    figures by about 1.5 points. Each mistake is added to ``wrong`` when given (``--mistakes``).
    """
    profile, scores = load_profile("d6"), {}
    for (stem, image, truths), nets in frames:
        seen, labels = TRANSFORMS[transform](image, truths)
        fold = photo_fold(stem)
        score = scores.setdefault(fold, Score(top_faces(name)))
        roll = read(seen, profile, nets=nets)
        score.add(roll, labels)
        if wrong is not None:
            wrong += [seen_in(stem, fold, seen, m)
                      for m in mistakes(roll, labels, top_faces(name))]
    return dict(sorted(scores.items()))


def row(title: str, score: Score, folds: dict[int, Score] | None = None) -> str:
    """One line of the results table; with ``folds``, a last column of each fold's face
    accuracy and share asked."""
    line = (f"| {title} | {score.frames} / {score.labelled} | {score.precision:.3f} | "
            f"{score.recall:.3f} | {score.face_accuracy:.3f} | "
            f"{score.certain_wrong / max(1, score.labelled):.1%} ({score.certain_wrong}) | "
            f"{score.uncertain_share:.1%} |")
    if folds is None:
        return line
    return line + " " + " · ".join(f"{k}: {s.face_accuracy:.3f} / {s.uncertain_share:.1%}"
                                   for k, s in folds.items()) + " |"


def timed(
    frames: Iterator[np.ndarray], nets: DiceNets | None = None, profile: str = "d6",
    tables: tuple[Path | None, ...] = (None,),
) -> list[tuple[list[float], list[float]]]:
    """CPU (one thread) and wall milliseconds of ``read`` per frame, for each of ``tables`` (a
    data directory whose table's examples are used; ``None``: none), in that order (``nets``:
    the shipped model when ``None``). Each frame is read with each table in turn, so that a
    machine busy with other work weighs on every table alike."""
    times: list[tuple[list[float], list[float]]] = [([], []) for _ in tables]
    p = load_profile(profile)
    for frame in frames:
        for data_dir, (cpu, wall) in zip(tables, times, strict=True):
            c, w = time.thread_time(), time.perf_counter()
            read(frame, p, nets=nets, data_dir=data_dir)
            cpu.append((time.thread_time() - c) * 1000)
            wall.append((time.perf_counter() - w) * 1000)
    return times


def photo_files(photos: list[np.ndarray], nets: DiceNets | None, size: tuple[int, int],
                tables: tuple[Path | None, ...] = (None,)) -> list[list[float]]:
    """CPU milliseconds (one thread) to load and read each photo saved as a JPEG of ``size``
    (a 12 MP camera's, or a phone's largest, 200 MP, that ``load_photo`` decodes shrunk), for
    each of ``tables`` in turn (see :func:`timed`), as ``dice read`` reads a file
    (``vision.reader.read_photo``: decoded no larger than the table's dice need)."""
    p, times = load_profile("d6"), [[] for _ in tables]
    with tempfile.TemporaryDirectory() as folder:
        for i, photo in enumerate(photos):
            path = Path(folder) / f"{i}.jpg"
            cv2.imwrite(str(path), cv2.resize(photo, size))
            for data_dir, cpu in zip(tables, times, strict=True):
                start = time.thread_time()
                read_photo(path, p, nets=nets, data_dir=data_dir)
                cpu.append((time.thread_time() - start) * 1000)
    return times


def _ms(values: list[float]) -> str:
    return f"median {np.median(values):.1f} / p95 {np.percentile(values, 95):.1f} ms"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--sets", nargs="+", choices=list(SETS), default=list(SETS))
    parser.add_argument("--transforms", nargs="*", choices=list(TRANSFORMS),
                        default=list(TRANSFORMS))
    parser.add_argument("--limit", type=int, default=0, help="photos per set (0: all)")
    parser.add_argument("--renders", type=int, default=100, help="synthetic frames per profile")
    parser.add_argument("--no-synthetic", action="store_true")
    parser.add_argument("--no-speed", action="store_true")
    parser.add_argument("--model", type=Path,
                        help="measure this model file (e.g. a new training run) instead of the "
                             "shipped vision/models/dice.json")
    parser.add_argument("--teach", nargs="*", type=int, default=[5, 10], metavar="N",
                        help="teach-from-photos rows: N examples per face (none: skip)")
    parser.add_argument("--draws", type=int, default=1, metavar="K",
                        help="teach-from-photos: draws of examples pooled per row")
    parser.add_argument("--seen", action="store_true",
                        help="read the photos the model was trained on instead: how well it "
                             "fits what it learned from")
    parser.add_argument("--folds", action="store_true",
                        help="add each fold's face accuracy and share asked to every real row")
    parser.add_argument("--mistakes", type=Path, metavar="DIR",
                        help="write a contact sheet of each row's mistakes to DIR "
                             "(benchmarks/mistakes.py)")
    parser.add_argument("--adapt", type=int, default=None, metavar="N",
                        help="per set: confirm its first N unseen photos as the host would, "
                             "then read the rest with that table's examples")
    parser.add_argument("--opencv", action="store_true",
                        help="run the networks with OpenCV, as where ONNX Runtime has no wheel")
    args = parser.parse_args(argv)
    if args.opencv:
        sys.modules["onnxruntime"] = None  # vision.runtime.load_onnx then falls back to OpenCV
    cv2.setNumThreads(1)
    nets = candidate(args.model) if args.model else shipped()  # loaded before timing
    which = args.model or "shipped model"
    print(f"{which} trained on: {', '.join(sorted(trained_sets(args.model)))}; {CREDITS}")
    by_fold = " by fold |" if args.folds else ""
    print("| set | transform | photos / dice | precision | recall | face acc. | wrong, not asked "
          f"| asked |{by_fold}")
    print("|---|---|---|---|---|---|---|---|" + ("---|" if args.folds else ""))
    for name in args.sets:
        frames = (seen_frames if args.seen else unseen_frames)(name, args.limit, args.model)
        seen = ", seen in training" if args.seen else ""
        for transform in args.transforms:
            wrong = [] if args.mistakes else None
            folds = fold_scores(name, frames, transform, wrong)
            total = pooled(list(folds.values()), top_faces(name))
            print(row(f"{name} | {transform}{seen}", total, folds if args.folds else None),
                  flush=True)
            if wrong is not None:
                write_sheet(args.mistakes, f"{name}-{transform}{'-seen' if args.seen else ''}",
                            wrong)
    if args.adapt is not None:
        print(HEADER)
        for name in args.sets:
            frames = unseen_frames(name, args.limit, args.model)
            print("\n".join(adapt(name, frames, args.adapt, top_faces(name))), flush=True)
    for per_face in args.teach:
        for name in args.sets:
            frames = list(set_frames(name))
            draws = [taught_from_photos(name, per_face, frames, seed, args.model)
                     for seed in range(5, 5 + max(1, args.draws))]
            label = f"{name} | pips taught as symbols, {per_face} per face"
            if len(draws) > 1:
                accuracy = sorted(d.face_accuracy for d in draws)
                label += (f" ({len(draws)} draws, face acc. {accuracy[0]:.3f} to "
                          f"{accuracy[-1]:.3f})")
            print(row(label, pooled(draws)), flush=True)
    if not args.no_synthetic:
        for seed, name in enumerate(SYNTH_PROFILES):
            score = Score()
            profile = load_profile(name)
            for _, image, truths in render_set(name, args.renders, seed=1000 + seed):
                score.add(read(image, profile, nets=nets), truths)
            print(row(f"synthetic {name} | none", score), flush=True)
    if not args.no_speed:
        with tempfile.TemporaryDirectory() as folder:
            speed(nets, args.adapt, Path(folder))
    return 0


def speed(nets: DiceNets, confirmed: int | None, data_dir: Path) -> None:
    """Print the speed rows; with ``confirmed``, each set's first photos confirmed into the
    table of ``data_dir`` first, and every photo read both with the table's examples in use
    and without, in turn (rows ``table`` and ``no table``)."""
    byler = list(set_frames("byler"))
    aws = list(set_frames("aws"))[::10]
    tables: tuple[Path | None, ...] = (None,)
    names = [""]
    if confirmed:
        profile = load_profile("d6")
        for _, image, truths in byler[:confirmed] + aws[:confirmed]:
            confirm(image, profile, [(t.box, t.face) for t in truths if t.face in profile.faces],
                    data_dir)
        tables = (None, data_dir)
        names = [", no table", f", {confirmed} photos of each set confirmed"]
    for name, (cpu, wall) in zip(names, timed((im for _, im, _ in byler), nets, tables=tables),
                                 strict=True):
        print(f"640x640 byler photos ({len(byler)}{name}): CPU {_ms(cpu)}; wall {_ms(wall)}")
    for name, (cpu, wall) in zip(names, timed((cv2.resize(im, (4032, 3024)) for _, im, _ in aws),
                                              nets, tables=tables), strict=True):
        print(f"12 MP frames ({len(aws)} aws photos at 4032x3024, decoded{name}): "
              f"CPU {_ms(cpu)}; wall {_ms(wall)}")
    for name, cpu in zip(names, photo_files([im for _, im, _ in aws], nets, (4032, 3024), tables),
                         strict=True):
        print(f"12 MP photo files ({len(cpu)} aws photos at 4032x3024, JPEG, decoding "
              f"included{name}): CPU {_ms(cpu)}")
    for name, cpu in zip(names, photo_files([im for _, im, _ in aws[:3]], nets, (16320, 12240),
                                            tables), strict=True):
        print(f"200 MP photo files ({len(cpu)} aws photos at 16320x12240, JPEG, decoding "
              f"included{name}): CPU {_ms(cpu)}")


if __name__ == "__main__":
    raise SystemExit(main())
