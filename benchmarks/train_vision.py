"""Train the dice detector, pip classifier and face embedder shipped in ``vision/models``
(training only).

    .venv/bin/pip install torch==2.13.0+cpu onnx   # for training only: never needed at run time
    .venv/bin/python benchmarks/train_vision.py [PART ...] [--steps N] [--classifier-steps N]
        [--embedder-steps N] [--threads N] [--keep-detector | --keep-classifier] [--out DIR]
        [--classifier-widths N N N N] [--detector-widths N N N] [--camera CHANCE]
        [--weight SET=W ...] [--faces-without PROFILE ...] [--seed N] [--recipe NAME]
        [--paste CHANCE] [--device cuda --workers N]

PART is ``fold0`` .. ``fold4``, ``final`` or ``faces`` (default: all). ``final`` is trained on
every photo of ``--sets`` except fold ``HELD_OUT`` (0) of each, which the benchmark then reads;
``fold<k>`` leaves out fold k instead (benchmarks/models/, to measure the other folds). The model
file records its ``sets`` and ``held_out`` fold. The shipped ``dice.json`` (issue 16) is the
detector of ``final --steps 8000 --weight byler=2`` with the classifier retrained over its finds
by ``final --keep-detector --classifier-steps 10000 --weight byler=2 --recipe faint`` (the
"part of a die" cut-outs included, the detector's finds mined with its looks joined and its
faint finds, the ``CLS_WIDTHS`` channels, cut-outs turned at most ``UPRIGHT`` and brought to
one contrast by ``contrasted``), held out from fold 0 of every set (docs/vision-lab.md, "What is
shipped"); its recipe's name is kept in ``benchmarks/models/shipped.json`` only. A run writes
its detector alone to ``DIR/dice.detector.json`` as soon as it is trained. Measure a run before
shipping it with ``benchmarks/vision.py --model DIR/dice.json`` (its fold models beside it).
``--device cuda --workers N`` trains the pip classifier on a GPU, its cut-outs drawn by N
processes: they, not the network, bound a step (docs/vision.md, "Training").

``faces`` trains the embedder of learned profiles on dice of every profile (renders, seeds 95000
and up, and the real pip photos of every set except fold ``HELD_OUT`` of each: the benchmark's
teach-from-photos rows read that fold, so the embedder never saw those dice), half of each
batch from the photos (``REAL_SHARE``), for ``--embedder-steps`` (27 minutes of one core);
``--faces-without`` leaves profiles out, to check that dice the embedder never saw are still read
once taught (then rebuild the profile defaults with ``python -m vision.defaults`` and run the
benchmark).

Data: the four labelled real sets of ``../shared/data/dice`` (``vision.datasets``; read in place,
never copied; the roboflow set is CC BY 4.0, see ``vision.datasets.CREDITS``) and synthetic
renders of every profile (``vision.synth``, seeds 90000 and up, which neither the benchmark
(1000+) nor the tests use). Each photo belongs to one fold by its source photo
(``vision.datasets.photo_fold``: augmented ``.rf.`` copies go with their original); a model never
sees the photos of the fold it leaves out, and the benchmark reads each photo only with a model
that did not see it (``vision.datasets.unseen_by``). ``benchmarks/models/fold<k>.json``, when
present, holds held-out fold models of a recipe named with ``--recipe`` (benchmark only, not
shipped): the shipped recipe's (``faint``: the detector of ``fold<k> --steps 8000 --weight
byler=2`` with the classifier of ``fold<k> --keep-detector --classifier-steps 10000 --weight
byler=2 --recipe faint`` trained over its finds), with ``shipped.json`` (the shipped file naming
the recipe) its fold 0. A recipe being tried writes its own beside its model file (``--out DIR
--folds-out DIR``), where the benchmark looks first.
"""

from __future__ import annotations

import argparse
import base64
import io
import json
import sys
import time
from collections.abc import Iterable, Iterator
from itertools import islice
from pathlib import Path

import cv2
import numpy as np
import torch
from torch import nn

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from companion.dicehandoff import declare_dice  # noqa: E402
from vision.datasets import SETS, photo_fold, set_frames, top_faces  # noqa: E402
from vision.evaluate import UNCLEAR, iou, match  # noqa: E402
from vision.models import FOLDS  # noqa: E402
from vision.net import (  # noqa: E402
    CROP,
    CROP_SCALE,
    DET_INPUT,
    EMBED,
    NOT_A_DIE,
    SIZE_UNIT,
    STRIDE,
    DiceNets,
    clip_box,
    crop,
    decode,
    detector_input,
    to_blob,
)
from vision.runtime import load_onnx  # noqa: E402
from vision.synth import render, synth_profiles  # noqa: E402

declare_dice()  # the games' dice, handed to vision as the app does
SYNTH_PROFILES = tuple(synth_profiles())

MODELS = Path(__file__).resolve().parent.parent / "vision" / "models"
FOLD_MODELS = Path(__file__).resolve().parent / "models"  # benchmark-only, not in the package
CLASSES = ("1", "2", "3", "4", "5", "6", NOT_A_DIE)
PATCH = 192  # detector training patch (input pixels)
DIE_RANGE = (5.0, 48.0)  # detector training: the frame's median die side in input pixels
SCALE_RANGE = (0.35, 2.5)  # detector training, frames without dice: scale from DET_INPUT
DET_WIDTHS = (8, 16, 48)  # detector channels (the previous round's model: 8, 16, 32)
# classifier channels at 40, 20, 10 and 5 pixels; (24, 48, 64, 64) before issue 16's wide round,
# whose classifier asks about fewer dice (3.2 points per row on fold 0) at the same speed
CLS_WIDTHS = (32, 64, 96, 96)
PART_SHARE = 0.08  # classifier cut-outs of part of a die's face (no die: see classifier_sample)
PART_SIZE = 0.35  # their side, as a share of the die's (a pip and its surroundings)
UPRIGHT = 25.0  # classifier cut-outs are turned at most this many degrees either way: a die
#                 seen at a slant shows its top face above its sides (docs/vision-lab.md)
DIM = (0.4, 0.9)  # exposure left in dim light
DEFOCUS = (0.5, 2.0)  # blur sigma, cut-out pixels
GRAIN = (3.0, 14.0)  # sensor noise sigma, grey levels
JPEG_QUALITY = (20, 80)  # a low-quality JPEG
PASTE_MOST = 6  # real dice pasted onto one detector training patch, at most
PASTE_SIDE = 64  # the pasted dice's cut-outs are kept at most this many pixels across
PASTE_EDGE = 0.15  # share of a pasted die's side over which it fades into the patch
HARD_FROM = 0.5  # share of the detector's steps after which frames it errs on weigh more
PER_SET = 600  # training entries per real set (see load_real)
BATCH = 64  # classifier cut-outs a training step
HELD_OUT = 0  # the fold of every real set the shipped model never sees (its figures)
DETECT_THRESHOLD = 0.3
COSINE_SCALE = 16.0  # sharpness of the embedder's training softmax over cosine similarities
COSINE_MARGIN = 0.2  # cosine taken off the right face's logit in training: tighter faces
FACE_RENDERS = 300  # synthetic frames per learned profile for the embedder
REAL_SHARE = 0.5  # share of each embedder batch drawn from the real photos' dice (see face_patches)
CONTRAST_FLOOR = 0.1  # added to twice a cut-out's spread (pixels in -1..1) before dividing
CONTRAST_CLIP = 2.5  # contrasted cut-outs are held to +-this (the tray around a black die)


def conv(cin: int, cout: int, stride: int = 1) -> nn.Sequential:
    """3x3 convolution, batch norm, ReLU."""
    return nn.Sequential(
        nn.Conv2d(cin, cout, 3, stride, 1, bias=False), nn.BatchNorm2d(cout), nn.ReLU()
    )


class Detector(nn.Module):
    """Centre-point detector: 1/4-resolution maps of centre chance, box size and cell offset.

    ``widths`` are the channels of the 1/2, 1/4 and 1/8 resolution stages."""

    def __init__(self, widths: tuple[int, int, int] = DET_WIDTHS) -> None:
        super().__init__()
        a, b, c = widths
        self.fine = nn.Sequential(conv(3, a, 2), conv(a, b, 2), conv(b, b))
        self.coarse = nn.Sequential(conv(b, c, 2), conv(c, c), conv(c, c))
        self.lift = nn.Conv2d(c, b, 1)
        self.up = nn.Upsample(scale_factor=2, mode="nearest")
        self.mix = conv(b, b)
        self.head = nn.Conv2d(b, 5, 1)
        nn.init.constant_(self.head.bias[:1], -2.2)  # start with few centres, as is usual

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        fine = self.fine(x)
        y = self.head(self.mix(fine + self.up(self.lift(self.coarse(fine)))))
        return torch.cat([torch.sigmoid(y[:, :1]), y[:, 1:3], torch.sigmoid(y[:, 3:])], 1)


class Classifier(nn.Module):
    """Pip face (or not a die) of a ``CROP``-pixel cut-out.

    The head sees the whole ``CROP / 8`` square map, not its average: the photos are taken a
    little from the side, so pips of the side faces show at the crop's edge, and only where the
    pips lie tells the top face from those.
    """

    def __init__(self, widths: tuple[int, int, int, int] = CLS_WIDTHS) -> None:
        super().__init__()
        a, b, c, d = widths
        self.body = nn.Sequential(
            conv(3, a), nn.MaxPool2d(2), conv(a, b), nn.MaxPool2d(2),
            conv(b, c), nn.MaxPool2d(2), conv(c, d), nn.Flatten(),
        )
        self.head = nn.Sequential(nn.Dropout(0.2), nn.Linear(d * (CROP // 8) ** 2, len(CLASSES)))

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return torch.softmax(self.head(self.body(contrasted(x))), 1)


def contrasted(x: torch.Tensor) -> torch.Tensor:
    """Cut-outs brought to one contrast by the mean and spread of their die's box (the central
    ``CROP / CROP_SCALE`` pixels, all three colours): a black die with red pips, a die in dim
    light and one in glare then differ only in what is drawn on them (five folds, -40 % light:
    tray asked 15.5 -> 10.7 %, docs/vision-lab.md "Cut-outs of one contrast"). Part of the exported
    network, so every reader of the model file does the same. The means are a pooling and a
    fixed 1x1 convolution: OpenCV's classic engine mixes the cut-outs of a batch in the ONNX
    ``ReduceMean`` and crashes on ``std``. Flat cut-outs are not blown up (``CONTRAST_FLOOR``)."""
    edge = round(CROP * (1 - 1 / CROP_SCALE) / 2)
    box = x[:, :, edge:CROP - edge, edge:CROP - edge]
    grey = torch.full((1, 3, 1, 1), 1 / 3, device=x.device)

    def box_mean(values: torch.Tensor) -> torch.Tensor:
        return nn.functional.conv2d(nn.functional.avg_pool2d(values, CROP - 2 * edge), grey)

    mean = box_mean(box)
    spread = (box_mean(box * box) - mean * mean).clamp(min=0).sqrt()
    return torch.clamp((x - mean) / (2 * spread + CONTRAST_FLOOR), -CONTRAST_CLIP, CONTRAST_CLIP)


class Embedder(nn.Module):
    """Face description of a ``CROP``-pixel cut-out for learned profiles: ``EMBED`` numbers,
    compared with taught examples (so new faces need no retraining).

    Trained as a classifier over the faces of every profile (cosine logits against one learned
    centre per face, with a margin); only ``body`` is shipped. Its head sees the whole 5x5
    feature map, as the pip classifier's does: where marks lie tells faces apart (4, 5 and 6
    pips), which an average over the map lost (pips taught as symbols, 10 per face, mean of 8
    draws: .92 instead of .89 of the dice read right). Cut-outs turned any way in training,
    and the four quarter turns averaged at run time (``vision.net.embed``), keep the
    description nearly independent of how the die lies.
    """

    def __init__(self, faces: int) -> None:
        super().__init__()
        self.body = nn.Sequential(
            conv(3, 24), nn.MaxPool2d(2), conv(24, 48), nn.MaxPool2d(2),
            conv(48, 64), nn.MaxPool2d(2), conv(64, 64), nn.Flatten(),
            nn.Linear(64 * (CROP // 8) ** 2, EMBED),
        )
        self.centres = nn.Parameter(torch.randn(faces, EMBED))

    def forward(self, x: torch.Tensor, y: torch.Tensor | None = None) -> torch.Tensor:
        """Logits over the faces; given the right faces ``y`` (training), each one's cosine is
        lowered by ``COSINE_MARGIN`` (a "CosFace" margin), so that a face's cut-outs must lie
        closer to their own centre than to any other: a face is then told from a few taught
        examples by its nearest mean."""
        cos = nn.functional.normalize(self.body(x), dim=1) @ nn.functional.normalize(
            self.centres, dim=1).T
        if y is not None:
            cos = cos - COSINE_MARGIN * nn.functional.one_hot(y, cos.shape[1])
        return COSINE_SCALE * cos


# ---- data ---------------------------------------------------------------------------------


def load_real(
    sets: tuple[str, ...] = tuple(SETS), fold: int | None = None,
    weights: dict[str, float] | None = None,
) -> list:
    """The real photos of ``sets`` (augmented copies included) not in ``fold``, as (set name,
    image, [(face, box)]); a die its labeller could not read has face ``unclear`` (a die for the
    detector, never a face for the classifier). Each set is repeated up to ``PER_SET`` entries
    (the same arrays, no copy) so that a small set weighs as much as a large one, times its
    weight in ``weights`` (1 when unsaid)."""
    out = []
    for name in sets:
        frames = [(name, im, [(t.face, t.box) for t in tr])
                  for n, im, tr in set_frames(name, copies=True) if photo_fold(n) != fold]
        share = PER_SET * (weights or {}).get(name, 1.0)
        out += frames * max(1, round(share / max(1, len(frames))))
        print(f"  {name}: {len(frames)} photos", flush=True)
    return out


def load_synthetic(frames: int, seed: int = 90000) -> list[tuple[str, np.ndarray, list]]:
    """Renders of every profile (d6 included) as (name, image, [(face, box)])."""
    rng = np.random.default_rng(seed)
    profiles = ("d6", *SYNTH_PROFILES)
    out = []
    for i in range(frames):
        name = profiles[i % len(profiles)]
        image, truths = render(name, rng)
        out.append((name, image, [(t.face, t.box) for t in truths]))
    return out


def real_face_frames(
    sets: tuple[str, ...] = tuple(SETS),
) -> Iterator[tuple[str, np.ndarray, list]]:
    """The real pip photos of ``sets`` outside fold ``HELD_OUT`` (each photo once) as ("d6",
    image, [(face, box)]), the dice their labellers could not read left out."""
    for name in sets:
        for stem, image, truths in set_frames(name):
            if photo_fold(stem) != HELD_OUT:
                yield "d6", image, [(t.face, t.box) for t in truths if t.face != UNCLEAR]


def face_patches(
    real: Iterable, per_profile: int, without: tuple[str, ...] = (), seed: int = 95000
) -> tuple[list, list, list[str]]:
    """The dice of the ``real`` frames and of ``per_profile`` renders of each profile (d6
    included, those in ``without`` left out), each as ``(face index, patch, die side)``, the
    patch twice the die's side around its centre (small enough to keep thousands in memory),
    and the face names (``profile:face``). Real and rendered dice are kept apart so that
    training can draw a fixed share of each batch from the real photos (``REAL_SHARE``)."""
    rng = np.random.default_rng(seed)
    photos = [die for name, image, labels in real for die in _patches(name, image, labels)]
    renders = []
    for name in (p for p in ("d6", *SYNTH_PROFILES) if p not in without):
        for _ in range(per_profile):
            image, truths = render(name, rng)
            renders += _patches(name, image, [(t.face, t.box) for t in truths])
    names = sorted({face for face, _, _ in photos + renders})
    return ([(names.index(face), patch, side) for face, patch, side in photos],
            [(names.index(face), patch, side) for face, patch, side in renders], names)


def _patches(name: str, image: np.ndarray, dice: list) -> list[tuple[str, np.ndarray, int]]:
    """``(profile:face, patch, side)`` of each die of one frame (cut at once: a patch holds
    twice the die's side, so the frame itself need not be kept)."""
    out = []
    for face, (x0, y0, x1, y1) in dice:
        side = max(x1 - x0, y1 - y0)
        patch = cv2.getRectSubPix(image, (2 * side, 2 * side), ((x0 + x1) / 2, (y0 + y1) / 2))
        out.append((f"{name}:{face}", patch, side))
    return out


def face_sample(patch, rng: np.random.Generator) -> np.ndarray:
    """A cut-out of a stored die patch, turned, shifted and scaled a little, with light and
    camera changes that keep the die's colour (colour names faces here)."""
    _, image, side = patch
    centre = np.array([side, side], np.float32) + rng.normal(0, 0.05 * side, 2)
    cut = crop(image, tuple(centre), side * CROP_SCALE * rng.uniform(0.9, 1.1),
               float(rng.uniform(0, 360))).astype(np.float32)
    cut = cut * rng.uniform(0.75, 1.25) * rng.uniform(0.93, 1.07, 3) + rng.normal(0, 4, 3)
    cut += rng.normal(0, rng.uniform(0, 4), cut.shape)
    if rng.random() < 0.3:
        cut = cv2.GaussianBlur(cut, (0, 0), rng.uniform(0.3, 1.0))
    return np.clip(cut, 0, 255).astype(np.uint8)


def train_embedder(photos: list, renders: list, faces: int, steps: int, seed: int) -> Embedder:
    """Fit the face embedder on cut-outs of the real ``photos``' dice and the ``renders``' dice,
    ``REAL_SHARE`` of each batch from the photos: the renders are soon told apart, while real
    pips under varied light and turn are what a few taught photos must be read against (a
    tenth of the dice were byler's when batches were drawn from all dice alike, and the
    embedder still confused 5 and 6 pips on photos it had trained on)."""
    rng, model = np.random.default_rng(seed), Embedder(faces)
    torch.manual_seed(seed)
    opt = torch.optim.AdamW(model.parameters(), 3e-3, weight_decay=1e-4)
    sched = torch.optim.lr_scheduler.OneCycleLR(opt, 3e-3, total_steps=steps)
    model.train()
    from_photos = round(64 * REAL_SHARE) if photos else 0
    for step in range(steps):
        chosen = [photos[int(i)] for i in rng.integers(len(photos), size=from_photos)]
        chosen += [renders[int(i)] for i in rng.integers(len(renders), size=64 - from_photos)]
        x = torch.from_numpy(to_blob(np.stack([face_sample(p, rng) for p in chosen])))
        y = torch.tensor([p[0] for p in chosen])
        loss = nn.functional.cross_entropy(model(x, y), y)
        opt.zero_grad()
        loss.backward()
        opt.step()
        sched.step()
        if step % 200 == 0:
            print(f"  embedder step {step}/{steps} loss {loss.item():.3f}", flush=True)
    return model.eval()


def colour_jitter(image: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """Random channel order, gain, contrast, noise and blur (dice come in every colour)."""
    out = image[:, :, rng.permutation(3)] if rng.random() < 0.5 else image
    out = out.astype(np.float32)
    mean = out.mean()
    out = (out - mean) * rng.uniform(0.7, 1.3) + mean * rng.uniform(0.7, 1.3)
    out += rng.normal(0, rng.uniform(0, 5), out.shape)
    if rng.random() < 0.3:
        out = cv2.GaussianBlur(out, (0, 0), rng.uniform(0.3, 1.0))
    return np.clip(out, 0, 255).astype(np.uint8)


def detector_sample(
    frame, rng: np.random.Generator, bank: list[np.ndarray] | None = None, paste: float = 0.0
) -> tuple[np.ndarray, np.ndarray]:
    """A random patch of a frame's detector input and its target maps (6 x H/4 x W/4:
    centre chance, width, height, x and y offsets, and where the box terms count); with chance
    ``paste``, real dice of ``bank`` are pasted onto it (:func:`paste_dice`)."""
    _, image, dice = frame
    # Dice of every size the reader's looks give the detector, whatever their size in the
    # photo: the frame is scaled so that its median die measures DIE_RANGE input pixels
    # (log-uniform; 5 px: a tray photo on a canvas four times its side), so that the detector
    # finds dice of any size and says their size right (vision.net DiceNets.detect relies on
    # it).
    base = DET_INPUT / max(image.shape[:2])
    sides = [max(b[2] - b[0], b[3] - b[1]) for _, b in dice]
    target = None
    if sides:
        target = _log_uniform(rng, DIE_RANGE)
        s = float(target / (np.median(sides) * base))
    else:
        s = _log_uniform(rng, SCALE_RANGE)
    small, scale = detector_input(image, base * s)
    k = int(rng.integers(4))
    boxes = np.array([b for _, b in dice], np.float32).reshape(-1, 4) * scale
    small, boxes = _rot90(small, boxes, k)
    if rng.random() < 0.5:
        small, boxes = small[:, ::-1], boxes[:, [2, 1, 0, 3]] * [-1, 1, -1, 1] + [
            small.shape[1], 0, small.shape[1], 0]
    h, w = small.shape[:2]
    pad = max(0, PATCH - min(h, w))
    if pad:
        small = cv2.copyMakeBorder(small, 0, pad, 0, pad, cv2.BORDER_REPLICATE)
        h, w = small.shape[:2]
    x0, y0 = int(rng.integers(0, w - PATCH + 1)), int(rng.integers(0, h - PATCH + 1))
    patch = np.ascontiguousarray(small[y0 : y0 + PATCH, x0 : x0 + PATCH])
    boxes = boxes - [x0, y0, x0, y0]
    if bank and paste and rng.random() < paste:
        patch, boxes = paste_dice(patch, boxes, bank, target or _log_uniform(rng, DIE_RANGE), rng)
    return colour_jitter(patch, rng), _targets(boxes, PATCH // STRIDE)


def _log_uniform(rng: np.random.Generator, bounds: tuple[float, float]) -> float:
    """A number between ``bounds``, each doubling as likely as the next (sizes and scales)."""
    return float(np.exp(rng.uniform(np.log(bounds[0]), np.log(bounds[1]))))


def die_bank(frames: list) -> list[np.ndarray]:
    """Cut-outs of the labelled dice of the real photos among ``frames`` (each photo once; not
    the sets whose boxes frame the top face only: pasted, those would be dice without sides),
    for :func:`paste_dice`."""
    seen, bank = set(), []
    for name, image, dice in frames:
        if name not in SETS or top_faces(name) or id(image) in seen:
            continue
        seen.add(id(image))
        for _, box in dice:
            clipped = clip_box([int(round(v)) for v in box], image.shape[1], image.shape[0])
            if clipped is None or min(clipped[2] - clipped[0], clipped[3] - clipped[1]) < 8:
                continue
            x0, y0, x1, y1 = clipped
            cut = image[y0:y1, x0:x1]
            shrink = PASTE_SIDE / max(cut.shape[:2])
            if shrink < 1:
                cut = cv2.resize(cut, None, fx=shrink, fy=shrink, interpolation=cv2.INTER_AREA)
            bank.append(np.ascontiguousarray(cut))
    print(f"  {len(bank)} dice to paste", flush=True)
    return bank


def paste_dice(
    patch: np.ndarray, boxes: np.ndarray, bank: list[np.ndarray], side: float,
    rng: np.random.Generator,
) -> tuple[np.ndarray, np.ndarray]:
    """``patch`` with up to ``PASTE_MOST`` dice of ``bank`` pasted where no die lies, each
    about ``side`` input pixels across and fading into the patch at its edge, and ``boxes``
    with theirs: dice of every table on every other table's ground (issue 16: the small dice
    of roboflow's busy boards are the ones the detector misses, even in the photos it
    learned)."""
    out = patch.astype(np.float32)
    placed = list(boxes)
    for _ in range(int(rng.integers(1, PASTE_MOST + 1))):
        cut = np.rot90(bank[int(rng.integers(len(bank)))], int(rng.integers(4)))
        size = side * rng.uniform(0.8, 1.25) / max(cut.shape[:2])
        w, h = max(3, round(cut.shape[1] * size)), max(3, round(cut.shape[0] * size))
        if max(w, h) >= PATCH:
            continue
        x, y = int(rng.integers(0, PATCH - w)), int(rng.integers(0, PATCH - h))
        box = np.array([x, y, x + w, y + h], np.float32)
        if any(iou(box, b) > 0 for b in placed):
            continue
        die = cv2.resize(np.ascontiguousarray(cut), (w, h), interpolation=cv2.INTER_AREA)
        fade = max(1.0, PASTE_EDGE * min(w, h))
        alpha = np.minimum.outer(_ramp(h, fade), _ramp(w, fade))[:, :, None]
        gain = rng.uniform(0.8, 1.2)
        out[y : y + h, x : x + w] = alpha * die * gain + (1 - alpha) * out[y : y + h, x : x + w]
        placed.append(box)
    return np.clip(out, 0, 255).astype(np.uint8), np.array(placed, np.float32).reshape(-1, 4)


def _ramp(n: int, fade: float) -> np.ndarray:
    """0 to 1 over ``fade`` pixels in from either end of ``n`` pixels."""
    i = np.arange(n, dtype=np.float32)
    return np.clip(np.minimum(i + 1, n - i) / fade, 0, 1)


def _rot90(image: np.ndarray, boxes: np.ndarray, k: int) -> tuple[np.ndarray, np.ndarray]:
    for _ in range(k):  # turn a quarter clockwise: (x, y) -> (h - y, x)
        h = image.shape[0]
        image = np.ascontiguousarray(np.rot90(image, -1))
        boxes = np.stack([h - boxes[:, 3], boxes[:, 0], h - boxes[:, 1], boxes[:, 2]], 1)
    return image, boxes


def _targets(boxes: np.ndarray, grid: int) -> np.ndarray:
    t = np.zeros((6, grid, grid), np.float32)
    ys, xs = np.mgrid[0:grid, 0:grid].astype(np.float32)
    for x0, y0, x1, y1 in boxes:
        cx, cy = (x0 + x1) / 2 / STRIDE, (y0 + y1) / 2 / STRIDE
        if not (0 <= cx < grid and 0 <= cy < grid):
            continue
        sigma = max(0.6, min(x1 - x0, y1 - y0) / STRIDE / 6)
        ix, iy = int(cx), int(cy)
        g = np.exp(-((xs - ix) ** 2 + (ys - iy) ** 2) / (2 * sigma**2))
        t[0] = np.maximum(t[0], g)
        t[0, iy, ix] = 1.0
        t[1:, iy, ix] = [(x1 - x0) / SIZE_UNIT, (y1 - y0) / SIZE_UNIT, cx - ix, cy - iy, 1.0]
    return t


def classifier_sample(
    frame, rng: np.random.Generator, faults: float = 0.0
) -> tuple[np.ndarray, int]:
    """A cut-out of one die (label its face; half of the time around the detector's box for it),
    of a place the detector took for a die but is not one, of a part of a die's face at the size
    of a pip (a pip of a large white die is no die of face 1), or of a random place with no die
    centre (all three ``none``), turned at most ``UPRIGHT`` degrees: turned any way, a cut-out
    of a die seen at a slant no longer shows which face is on top, and the classifier read the
    face towards the camera instead (aws, five folds: .883 against .897 upright). ``faults``: see
    :func:`camera`."""
    _, image, everything, mistakes, seen = frame
    dice = [(face, box) for face, box in everything if face != UNCLEAR]
    sides = [max(b[2] - b[0], b[3] - b[1]) for _, b in everything]
    typical = float(np.median(sides)) if sides else 40.0
    angle = float(rng.uniform(-UPRIGHT, UPRIGHT))
    if mistakes and rng.random() < 0.1:
        f = mistakes[int(rng.integers(len(mistakes)))]
        side = f.side * CROP_SCALE * rng.uniform(0.88, 1.12)
        return augment(crop(image, f.centre, side, angle), rng, faults), CLASSES.index(NOT_A_DIE)
    if dice and rng.random() < PART_SHARE:
        face, (x0, y0, x1, y1) = dice[int(rng.integers(len(dice)))]
        side = max(x1 - x0, y1 - y0)
        pips = pip_centres(image, (x0, y0, x1, y1), face)
        if pips:
            centre = np.array(pips[int(rng.integers(len(pips)))]) + rng.normal(0, 0.02 * side, 2)
        else:
            centre = np.array([(x0 + x1) / 2, (y0 + y1) / 2]) + rng.uniform(-0.3, 0.3, 2) * side
        cut = crop(image, tuple(centre), side * PART_SIZE * rng.uniform(0.8, 1.2) * CROP_SCALE,
                   angle)
        return augment(cut, rng, faults), CLASSES.index(NOT_A_DIE)
    if seen and rng.random() < 0.4:
        face, f = seen[int(rng.integers(len(seen)))]
        centre = np.array(f.centre) + rng.normal(0, 0.03 * f.side, 2)
        cut = crop(image, tuple(centre), f.side * CROP_SCALE * rng.uniform(0.92, 1.08), angle)
        return augment(cut, rng, faults), CLASSES.index(face)
    if dice and rng.random() < 0.67:
        face, (x0, y0, x1, y1) = dice[int(rng.integers(len(dice)))]
        side = max(x1 - x0, y1 - y0)
        centre = np.array([(x0 + x1) / 2, (y0 + y1) / 2]) + rng.normal(0, 0.05 * side, 2)
        cut = crop(image, tuple(centre), side * CROP_SCALE * rng.uniform(0.88, 1.12), angle)
        return augment(cut, rng, faults), CLASSES.index(face)
    centres = np.array([((b[0] + b[2]) / 2, (b[1] + b[3]) / 2)
                        for _, b in everything]).reshape(-1, 2)
    h, w = image.shape[:2]
    for _ in range(50):
        centre = rng.uniform([0, 0], [w, h])
        if len(centres) == 0 or np.hypot(*(centres - centre).T).min() > 0.45 * typical:
            break
    side = typical * CROP_SCALE * rng.uniform(0.8, 1.2)
    return augment(crop(image, tuple(centre), side, angle), rng, faults), CLASSES.index(NOT_A_DIE)


def pip_centres(image: np.ndarray, box: tuple[int, int, int, int],
                face: str) -> list[tuple[float, float]]:
    """The centres of a labelled die's pips, in frame pixels, when they can be told apart: the
    spots darker (or lighter) than the face inside its box, kept only when there are as many as
    its face says (else none: nothing is guessed)."""
    inside = clip_box(box, image.shape[1], image.shape[0])
    if inside is None or not face.isdigit():
        return []
    x0, y0, x1, y1 = inside
    side = max(x1 - x0, y1 - y0)
    if side < 12 or min(x1 - x0, y1 - y0) < 8:
        return []
    grey = cv2.cvtColor(np.ascontiguousarray(image[y0:y1, x0:x1]), cv2.COLOR_BGR2GRAY)
    _, dark = cv2.threshold(grey, 0, 255, cv2.THRESH_BINARY_INV + cv2.THRESH_OTSU)
    for spots in (dark, 255 - dark):
        _, _, stats, centres = cv2.connectedComponentsWithStats(spots)
        area = stats[1:, cv2.CC_STAT_AREA]
        inside = ((stats[1:, cv2.CC_STAT_LEFT] > 0) & (stats[1:, cv2.CC_STAT_TOP] > 0)
                  & (stats[1:, cv2.CC_STAT_LEFT] + stats[1:, cv2.CC_STAT_WIDTH] < x1 - x0)
                  & (stats[1:, cv2.CC_STAT_TOP] + stats[1:, cv2.CC_STAT_HEIGHT] < y1 - y0))
        pips = centres[1:][inside & (area >= (0.05 * side) ** 2) & (area <= (0.3 * side) ** 2)]
        if len(pips) == int(face):
            return [(float(x) + x0, float(y) + y0) for x, y in pips]
    return []


def augment(cut: np.ndarray, rng: np.random.Generator, faults: float = 0.0) -> np.ndarray:
    """A cut-out mirrored half of the time (a mirrored pip face keeps its count), then
    colour-jittered, then given a camera's faults, each with chance ``faults`` (``camera``)."""
    cut = np.ascontiguousarray(cut[:, ::-1]) if rng.random() < 0.5 else cut
    cut = colour_jitter(cut, rng)
    return camera(cut, rng, faults) if faults else cut  # the shipped recipe draws as before


def camera(cut: np.ndarray, rng: np.random.Generator, faults: float) -> np.ndarray:
    """A cut-out as a cheap camera might have taken it, each with chance ``faults``: in
    dim light (the exposure down to ``DIM`` of itself), out of focus (Gaussian blur of
    ``DEFOCUS`` cut-out pixels), with sensor noise (``GRAIN`` grey levels) and saved as a
    low-quality JPEG (``JPEG_QUALITY``). The photos of the four sets are mostly sharp, well
    lit and lightly compressed; a Pi camera in a dim room or a phone's thumbnail is not
    (docs/vision-lab.md, "A camera's faults")."""
    out = cut.astype(np.float32)
    if rng.random() < faults:
        out *= rng.uniform(*DIM)
    if rng.random() < faults:
        out = cv2.GaussianBlur(out, (0, 0), rng.uniform(*DEFOCUS))
    if rng.random() < faults:
        out += rng.normal(0, rng.uniform(*GRAIN), out.shape)
    out = np.clip(out, 0, 255).astype(np.uint8)
    if rng.random() < faults:
        quality = int(rng.integers(*JPEG_QUALITY))
        out = cv2.imdecode(cv2.imencode(".jpg", out, [cv2.IMWRITE_JPEG_QUALITY, quality])[1], 1)
    return out


# ---- training -----------------------------------------------------------------------------


def focal_loss(pred: torch.Tensor, target: torch.Tensor) -> torch.Tensor:
    """Centre-point focal loss on the centre-chance map."""
    p = pred.clamp(1e-4, 1 - 1e-4)
    pos = target.eq(1).float()
    pos_loss = -((1 - p) ** 2) * torch.log(p) * pos
    neg_loss = -((1 - target) ** 4) * p**2 * torch.log(1 - p) * (1 - pos)
    return (pos_loss.sum() + neg_loss.sum()) / pos.sum().clamp(min=1)


def train_detector(
    frames: list, steps: int, seed: int, widths: tuple[int, int, int] = DET_WIDTHS,
    paste: float = 0.0,
) -> Detector:
    """Fit the detector on patches of ``frames`` (real and synthetic), with chance ``paste``
    of real dice pasted onto a patch (:func:`paste_dice`).

    After ``HARD_FROM`` of the steps, frames are drawn in proportion to how wrong the detector
    still is on them (:func:`hard_weights`): the carpet, velvet and wood grain it takes for dice
    and the tiny dice it misses are seen more often than the trays it already reads."""
    rng, model = np.random.default_rng(seed), Detector(widths)
    bank = die_bank(frames) if paste else []
    torch.manual_seed(seed)
    opt = torch.optim.AdamW(model.parameters(), 3e-3, weight_decay=1e-4)
    sched = torch.optim.lr_scheduler.OneCycleLR(opt, 3e-3, total_steps=steps)
    weights = None
    model.train()
    for step in range(steps):
        if step == int(HARD_FROM * steps):
            weights = hard_weights(model, frames)
            model.train()
        picks = rng.choice(len(frames), 24, p=weights)
        batch = [detector_sample(frames[int(i)], rng, bank, paste) for i in picks]
        x = torch.from_numpy(to_blob(np.stack([b[0] for b in batch])))
        t = torch.from_numpy(np.stack([b[1] for b in batch]))
        out = model(x)
        mask = t[:, 5:6]
        box = (torch.abs(out[:, 1:5] - t[:, 1:5]) * mask).sum() / mask.sum().clamp(min=1)
        loss = focal_loss(out[:, :1], t[:, :1]) + box
        opt.zero_grad()
        loss.backward()
        opt.step()
        sched.step()
        if step % 200 == 0:
            print(f"  detector step {step}/{steps} loss {loss.item():.3f}", flush=True)
    return model.eval()


def hard_weights(model: Detector, frames: list, most: int = 8) -> np.ndarray:
    """How often to draw each frame: 1 plus the detector's false and missed dice on it at the
    reader's first look (at most ``most``), normalised within each source (a real set or a
    render profile, the frame's name) so that each source keeps its share of the draws: the
    hard frames of the other sets no longer crowd out the tray, which the detector then read
    worse (all-sets run of issue 16: .924 face accuracy on the tray against .968). Repeated
    entries of one photo (the same array) are judged once."""
    model.eval()
    errors: dict[int, int] = {}
    with torch.no_grad():
        for name, image, dice in frames:
            if id(image) in errors:
                continue
            small, scale = detector_input(image)
            out = model(torch.from_numpy(to_blob(small[None]))).numpy()
            found = decode(out, scale, DETECT_THRESHOLD, (image.shape[1], image.shape[0]))
            hits = len(match([f.box for f in found], [b for _, b in dice], top_faces(name)))
            errors[id(image)] = len(found) + len(dice) - 2 * hits
    weights = np.array([1 + min(most, errors[id(f[1])]) for f in frames], float)
    names = np.array([f[0] for f in frames])
    for name in set(names):
        here = names == name
        weights[here] *= here.sum() / weights[here].sum()
    print(f"  hard frames: {np.mean([e > 0 for e in errors.values()]):.0%} of photos with a "
          f"mistake, {sum(errors.values())} mistakes", flush=True)
    return weights / weights.sum()


class CutOuts(torch.utils.data.IterableDataset):
    """Endless batches of ``BATCH`` classifier cut-outs and their classes drawn from
    ``frames`` (``classifier_sample``). Drawn in the training process (no loader workers) they
    follow ``seed``'s stream as they always did; each loader worker draws its own stream, so
    that a machine's cores keep a GPU fed (the cut-outs, not the network, bound a step)."""

    def __init__(self, frames: list, seed: int, faults: float = 0.0) -> None:
        super().__init__()
        self.frames, self.seed, self.faults = frames, seed, faults

    def __iter__(self) -> Iterator[tuple[torch.Tensor, torch.Tensor]]:
        worker = torch.utils.data.get_worker_info()
        rng = np.random.default_rng(self.seed if worker is None else [self.seed, worker.id])
        while True:
            batch = [classifier_sample(self.frames[int(rng.integers(len(self.frames)))], rng,
                                       self.faults) for _ in range(BATCH)]
            yield (torch.from_numpy(to_blob(np.stack([b[0] for b in batch]))),
                   torch.tensor([b[1] for b in batch]))


def train_classifier(
    frames: list, steps: int, seed: int, widths: tuple[int, int, int, int] = CLS_WIDTHS,
    faults: float = 0.0, device: str = "cpu", workers: int = 0,
) -> Classifier:
    """Fit the pip classifier (``widths`` channels) on cut-outs of the frames that hold pip
    dice, given a camera's faults with chance ``faults`` each (see ``camera``), on ``device``
    (``cuda``: a GPU) with the cut-outs drawn by ``workers`` processes (0: this one)."""
    model = Classifier(widths).to(device)
    torch.manual_seed(seed)
    opt = torch.optim.AdamW(model.parameters(), 3e-3, weight_decay=1e-4)
    sched = torch.optim.lr_scheduler.OneCycleLR(opt, 3e-3, total_steps=steps)
    cutouts = torch.utils.data.DataLoader(
        CutOuts(frames, seed, faults), batch_size=None, num_workers=workers,
        pin_memory=device != "cpu", prefetch_factor=4 if workers else None,
    )
    model.train()
    started = time.time()
    for step, (x, y) in enumerate(islice(cutouts, steps)):
        x, y = x.to(device, non_blocking=True), y.to(device, non_blocking=True)
        loss = nn.functional.nll_loss(torch.log(model(x).clamp(min=1e-6)), y)
        opt.zero_grad()
        loss.backward()
        opt.step()
        sched.step()
        if step % 200 == 0:
            print(f"  classifier step {step}/{steps} loss {loss.item():.3f} "
                  f"({time.time() - started:.0f} s)", flush=True)
    return model.eval().cpu()


def onnx_b64(model: nn.Module, shape: tuple[int, ...], any_size: bool = False) -> str:
    """The model as base64 ONNX bytes (what ``vision.runtime.load_onnx`` loads), for any batch size
    and, with ``any_size`` (the fully convolutional detector), any input height and width: ONNX
    Runtime holds a model to the sizes its file names."""
    buffer = io.BytesIO()
    axes = ({"x": {0: "n", 2: "h", 3: "w"}, "y": {0: "n", 2: "rows", 3: "cols"}} if any_size
            else {"x": {0: "n"}, "y": {0: "n"}})
    torch.onnx.export(model, torch.zeros(shape), buffer, opset_version=13, dynamo=False,
                      input_names=["x"], output_names=["y"], dynamic_axes=axes)
    return base64.b64encode(buffer.getvalue()).decode()


def mistakes(detector: str, frames: list) -> list:
    """Add to each frame what the trained detector finds there that is no labelled die (hard
    negatives for the classifier: holes in the tray's handle, corners, shadows), and the boxes it
    gives the labelled dice with their faces (cut-outs as the reader will make them, a little off
    centre or too large at times). Its faint finds count too: the reader asks the classifier to
    confirm them (``DiceNets.faint_finds``: a CATAN board's number tokens, read as 3 before)."""
    nets = DiceNets(load_onnx(detector), None, CLASSES, DETECT_THRESHOLD)
    out, finds = [], {}
    for name, image, dice in frames:
        if id(image) not in finds:  # repeated entries of one photo are the same array
            found = nets.detect(image)
            finds[id(image)] = found + nets.faint_finds(image, found)
        found = finds[id(image)]
        pairs = match([f.box for f in found], [b for _, b in dice], top_faces(name))
        hit = {i for i, _ in pairs}
        seen = [(dice[j][0], found[i]) for i, j in pairs if dice[j][0] != UNCLEAR]
        out.append((name, image, dice, [f for i, f in enumerate(found) if i not in hit], seen))
    print(f"  {sum(len(f[3]) for f in out)} detector mistakes on the training frames", flush=True)
    return out


def train_pair(
    real: list, synthetic: list, steps: tuple[int, int], seed: int, detector: str | None,
    checkpoint: Path | None = None, widths: tuple[int, int, int, int] = CLS_WIDTHS,
    faults: float = 0.0, detector_widths: tuple[int, int, int] = DET_WIDTHS,
    classifier: str | None = None, paste: float = 0.0, device: str = "cpu", workers: int = 0,
) -> dict:
    """Detector and classifier (each unless given as base64 ONNX) trained on ``real`` photos
    plus ``synthetic`` renders, for ``steps`` = (detector steps, classifier steps). A newly
    trained detector is first written alone to ``checkpoint`` (a long run cut short keeps it:
    train the classifier again with ``--keep-detector``). The classifier is trained on
    ``device`` with its cut-outs drawn by ``workers`` processes (:func:`train_classifier`)."""
    start = time.time()
    if detector is None:
        trained = train_detector(real + synthetic, steps[0], seed, detector_widths, paste)
        detector = onnx_b64(trained, (1, 3, DET_INPUT, DET_INPUT), any_size=True)
        if checkpoint is not None:
            checkpoint.write_text(json.dumps({"detector": detector}) + "\n")
    if classifier is None:
        pips = mistakes(detector, real + [f for f in synthetic if f[0] == "d6"])
        trained = train_classifier(pips, steps[1], seed + 1, widths, faults, device, workers)
        classifier = onnx_b64(trained, (1, 3, CROP, CROP))
    print(f"  trained in {time.time() - start:.0f} s", flush=True)
    return {
        "detector": detector,
        "classifier": classifier,
        "classes": list(CLASSES),
        "detect_threshold": DETECT_THRESHOLD,
    }


def main(argv: list[str] | None = None) -> int:
    parts = [f"fold{k}" for k in range(FOLDS)] + ["final", "faces"]
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("parts", nargs="*", choices=parts, metavar="PART", default=parts)
    parser.add_argument("--steps", type=int, default=1200, help="detector training steps")
    parser.add_argument("--classifier-steps", type=int, default=4000,
                        help="pip classifier training steps")
    parser.add_argument("--embedder-steps", type=int, default=11000,
                        help="face embedder training steps (27 minutes of one core)")
    parser.add_argument("--renders", type=int, default=400, help="synthetic training frames")
    parser.add_argument("--sets", nargs="+", choices=list(SETS), default=list(SETS),
                        help="real photo sets to train on (vision.datasets.SETS)")
    parser.add_argument(
        "--weight", nargs="+", default=[], metavar="SET=W",
        help="draw a real set W times as often as the others (e.g. byler=2: the tray)",
    )
    parser.add_argument("--classifier-widths", nargs=4, type=int, default=CLS_WIDTHS,
                        metavar="N", help="pip classifier channels (a lighter one reads faster)")
    parser.add_argument("--detector-widths", nargs=3, type=int, default=DET_WIDTHS,
                        metavar="N", help="detector channels at 1/2, 1/4 and 1/8 of the input")
    parser.add_argument("--camera", type=float, default=0.0, metavar="CHANCE",
                        help="give the classifier's cut-outs each of a camera's faults (dim "
                        "light, defocus, noise, JPEG) with this chance (docs/vision-lab.md)")
    parser.add_argument("--paste", type=float, default=0.0, metavar="CHANCE",
                        help="paste real dice cut from the training photos onto this share of "
                        "the detector's training patches (docs/vision-lab.md)")
    parser.add_argument("--seed", type=int, default=0,
                        help="added to each part's seeds (10 x fold): another draw of the same "
                        "recipe, to tell a recipe's gain from the noise of one training")
    parser.add_argument("--threads", type=int, default=1)
    parser.add_argument("--device", default="cpu",
                        help="where the pip classifier is trained (cuda: a GPU; the others on "
                        "the CPU)")
    parser.add_argument("--workers", type=int, default=0,
                        help="processes drawing the pip classifier's cut-outs (0: the training "
                        "one, as before; a GPU needs several to be kept busy)")
    parser.add_argument("--out", type=Path, default=MODELS,
                        help="where the shipped model files are written")
    parser.add_argument("--folds-out", type=Path, default=FOLD_MODELS,
                        help="where the benchmark's held-out fold models are written")
    parser.add_argument(
        "--faces-without", nargs="+", default=(), choices=SYNTH_PROFILES, metavar="PROFILE",
        help="train the face embedder without these profiles (to measure it on unseen dice)",
    )
    keeping = parser.add_mutually_exclusive_group()
    keeping.add_argument(
        "--keep-detector", action="store_true", help="retrain only the classifier of each part"
    )
    keeping.add_argument(
        "--keep-classifier", action="store_true", help="retrain only the detector of each part "
        "(the classifier stays the one trained over the detector it replaces)"
    )
    parser.add_argument("--recipe", help="name the recipe in the model files (the benchmark "
                        "reads the other folds with fold models of the same name)")
    args = parser.parse_args(argv)
    try:
        weights = {name: float(w) for name, w in (item.split("=") for item in args.weight)}
    except ValueError:
        parser.error("--weight takes SET=W pairs, e.g. byler=2")
    if not set(weights) <= set(args.sets):
        parser.error(f"--weight names sets not trained on: {sorted(set(weights) - set(args.sets))}")
    cv2.setNumThreads(1)
    torch.set_num_threads(args.threads)
    if "faces" in args.parts:
        print("faces", flush=True)
        photos, renders, names = face_patches(real_face_frames(), FACE_RENDERS,
                                              tuple(args.faces_without))
        print(f"  {len(photos)} real and {len(renders)} rendered dice of {len(names)} faces",
              flush=True)
        embedder = train_embedder(photos, renders, len(names), args.embedder_steps, 50)
        model = {"embedder": onnx_b64(embedder.body.eval(), (1, 3, CROP, CROP)), "faces": names}
        (args.out / "faces.json").write_text(json.dumps(model) + "\n")
    pips = [p for p in args.parts if p != "faces"]
    synthetic = load_synthetic(args.renders) if pips else []
    for part in pips:
        print(part, flush=True)
        k = HELD_OUT if part == "final" else int(part[4:])
        seen = load_real(tuple(args.sets), k, weights)
        path = args.out / "dice.json" if part == "final" else args.folds_out / f"{part}.json"
        kept = json.loads(path.read_text()) if args.keep_detector or args.keep_classifier else {}
        detector = kept["detector"] if args.keep_detector else None
        classifier = kept["classifier"] if args.keep_classifier else None
        model = train_pair(seen, synthetic, (args.steps, args.classifier_steps),
                           10 * k + args.seed, detector, path.with_suffix(".detector.json"),
                           tuple(args.classifier_widths), args.camera,
                           tuple(args.detector_widths), classifier, args.paste, args.device,
                           args.workers)
        model.update(sets=sorted(args.sets), held_out=k)
        if args.recipe:
            model["recipe"] = args.recipe
        path.write_text(json.dumps(model) + "\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
