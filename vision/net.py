"""The small learned models: a die detector, a pip-face classifier and a face embedder, and how
the reader looks at a frame with them (run by ``vision.runtime``: ONNX Runtime, or OpenCV).

All are tiny convolutional networks trained by ``benchmarks/train_vision.py`` (PyTorch is needed
for training only) and shipped as ONNX bytes inside JSON files in ``vision/models/`` (setuptools
ships a package's ``*.json``). At run time ONNX Runtime (or OpenCV), OpenCV and numpy are used.

* The **detector** sees the frame shrunk to fit ``DET_INPUT`` pixels (padded with the border
  colour) and returns, on a grid of one cell per ``STRIDE`` input pixels, the chance that a die's
  centre falls in the cell, the die's box size and the centre's position inside the cell
  (a "centre-point" detector: no anchors, no mask, no tuning per tray).
* The **classifier** sees each die cut out of the full-size frame, centred on the die and
  ``CROP_SCALE`` times its box side, at ``CROP`` pixels, and gives the probability of each pip
  face and of "not a die". It learned dice upright (turned at most 25°): a die seen at a
  slant shows its top face above its sides. A cut-out the network is not all but certain about
  (below ``SURE``) is shown again mirrored and turned a little, and a wider cut-out
  (``WIDE_SCALE``) as it is, mirrored and turned a little (eight looks in all,
  probabilities averaged): a pip face stays the same face but the network's mistakes change,
  so the average is more often right and less often wrong with confidence; the wider cut-out
  keeps the pips a box set off the top face leaves out (a die seen at a slant, framed by its
  top face). Most dice are read at a glance.
* The **embedder** (``faces.json``) sees the same cut-outs of a die of a learned profile (the
  narrow one turned, the wider one turned and mirrored) and describes it with ``EMBED``
  numbers; faces are then named by their nearest taught examples (``vision.classify``), so a
  new die is taught from photos, never by retraining.

The same helpers (:func:`detector_input`, :func:`crop`) are used by training and at run time so
that both see exactly the same pixels.
"""

from __future__ import annotations

import json
import statistics
from dataclasses import dataclass, field
from functools import cache, cached_property
from importlib import resources

import cv2
import numpy as np

from .runtime import Network, load_onnx

DET_INPUT = 320  # side of the detector's input in pixels
STRIDE = 4  # input pixels per output cell
SIZE_UNIT = 32.0  # box sizes are predicted in units of 32 input pixels
CROP = 40  # side of the classifier's input in pixels
CROP_SCALE = 1.2  # crop side / die box side
NOT_A_DIE = "none"
WIDE_SCALE = 1.45  # the wider cut-out, in box sides (docs/vision-lab.md, "The wider second look")
SURE = 0.99  # a first look at least this sure is kept as is (docs/vision-lab.md, "Speed")
EMBED = 24  # length of the face embedding of learned profiles
TURNS = 4  # quarter turns of a die's cut-out, then as many mirrored turns of a wider one ...
VIEWS = 2 * TURNS  # ... are the looks averaged into a face embedding
TILT = 12.0  # degrees an unsure die's cut-outs are also turned either way (``_upright_looks``)
UNSURE_LOOKS = 8  # looks averaged for a die not read ``SURE`` at a glance (``classify``)
GRID = 8  # the detector's input sides are multiples of this
UNSURE = 0.6  # a first look with a lower median score is worth a closer look (large frames)
ZOOMED = 0.05  # the half-size look is kept when its median score is this much higher
ADDED = 0.5  # a die only a look not kept found joins the kept look's finds at this score
SMALL_SIDE = 14  # dice under this many input pixels (median) in a large frame are looked at ...
CLOSE_SIDE = 22  # ... again at this size (about the tray dice's size in the first look) ...
CLOSE_MARGIN = 3  # ... in the part of the frame this many die sides around them ...
CLOSER = 1.3  # ... when that look is at least this much closer
CLOSER_LOOKS = 2  # ... and again, at most once, when its dice ask for a look this much closer
CLOSE_UP = 32  # a find of the quarter-size look counts when the first look sees it this large
PIP_SIDE = 0.5  # a find under this share of a larger find's side, inside it, may be its pip ...
WHOLE = 0.9  # ... replaced by the larger find when that is read as a face this surely (and the
#              smaller finds mostly not) ...
WHOLE_ONE = 0.95  # ... or this surely, where it holds a single find (a close-up die showing 1)
MAX_INPUT = 640 * 640  # largest detector input (pixels) of the 2x and the closer look
MIN_SIDE = 4  # a box narrower than this (in frame pixels, after clipping) is not a die
FAINT = 0.15  # a find of the first look this sure, under the threshold, is a faint find ...
APART = 1.0  # ... that counts, when its centre lies this many die sides from every die found ...
CONFIRMED = 0.9  # ... and the pip classifier reads it as a face this surely
ASKED_AT = 0.9  # the confidence a face's calibrated ``ask`` threshold is mapped to (``d6``'s)

@dataclass(frozen=True)
class Found:
    """A die found by the detector: its box in frame pixels and the detector's score (0..1)."""

    box: tuple[int, int, int, int]
    score: float

    @cached_property
    def centre(self) -> tuple[float, float]:
        """Centre of the box in frame pixels."""
        return ((self.box[0] + self.box[2]) / 2.0, (self.box[1] + self.box[3]) / 2.0)

    @cached_property
    def side(self) -> float:
        """Longer side of the box in pixels."""
        return float(max(self.box[2] - self.box[0], self.box[3] - self.box[1]))


def detector_input(image: np.ndarray, scale: float | None = None) -> tuple[np.ndarray, float]:
    """The detector's input for a BGR frame and the scale from frame pixels to input pixels.

    The frame keeps its shape: it is shrunk by ``scale`` (default: its longer side to
    ``DET_INPUT``) and padded right and bottom, by repeating its border, to a multiple of
    ``GRID`` (the network is fully convolutional). A large frame is first thinned to about
    two frame pixels per input pixel each way before the area resize, so a 12 MP photo costs
    little more than a 640 px one.
    """
    h, w = image.shape[:2]
    scale = DET_INPUT / max(h, w) if scale is None else scale
    nw, nh = max(1, round(w * scale)), max(1, round(h * scale))
    step = int(1 / (2 * scale))
    if step > 1:
        image = thinned(image, step)
    small = cv2.resize(image, (nw, nh), interpolation=cv2.INTER_AREA if scale < 1
                       else cv2.INTER_LINEAR)
    pad_w, pad_h = -nw % GRID, -nh % GRID
    if pad_w or pad_h:
        small = cv2.copyMakeBorder(small, 0, pad_h, 0, pad_w, cv2.BORDER_REPLICATE)
    return small, scale


def thinned(image: np.ndarray, step: int) -> np.ndarray:
    """Every ``step``-th pixel of ``image`` each way, as ``image[::step, ::step]``.

    When both sides are multiples of ``step`` (a 640 px or 12 MP frame) OpenCV's nearest-pixel
    resize picks exactly those pixels, three times faster than numpy's strided copy of a
    colour frame (0.2 instead of 0.6 ms for the half-size look at a 640 px frame).
    """
    h, w = image.shape[:2]
    if h % step or w % step:
        return image[::step, ::step]
    return cv2.resize(image, (w // step, h // step), interpolation=cv2.INTER_NEAREST)


def to_blob(images: list[np.ndarray] | np.ndarray) -> np.ndarray:
    """Stack BGR uint8 images into an NCHW float32 batch scaled to -1..1.

    The channels are moved while the pixels are still bytes and the scaling is done in place,
    in one float32 buffer: on a 320 px detector input this takes a quarter of the time of
    converting first (the values are the same to the bit: ``x / 127.5 - 1`` in float32).
    """
    stacked = np.asarray(images)
    stacked = stacked.reshape(-1, *stacked.shape[-3:])
    batch = np.empty((stacked.shape[0], stacked.shape[3], *stacked.shape[1:3]), np.float32)
    np.divide(stacked.transpose(0, 3, 1, 2), np.float32(127.5), out=batch)
    return np.subtract(batch, np.float32(1.0), out=batch)


def crop(image: np.ndarray, centre: tuple[float, float], side: float, angle: float = 0.0):
    """The ``CROP`` x ``CROP`` square of side ``side`` around ``centre``, turned by ``angle``
    degrees (pixels outside the frame repeat the border).

    A die much larger than the cut-out (a close-up, a 12 MP photo) is first shrunk by pixel
    area to twice the cut-out's side: the turn interpolates between neighbours only, and would
    otherwise read a few scattered pixels of it (pips turn into noise).
    """
    shrink = side / (2 * CROP)
    if shrink > 1:
        image, centre = _shrunk_around(image, centre, side, shrink)
        side /= shrink
    m = cv2.getRotationMatrix2D(centre, angle, CROP / max(side, 1.0))
    m[:, 2] += CROP / 2.0 - np.array(centre)
    return cv2.warpAffine(
        image, m, (CROP, CROP), flags=cv2.INTER_AREA, borderMode=cv2.BORDER_REPLICATE
    )


def _shrunk_around(
    image: np.ndarray, centre: tuple[float, float], side: float, shrink: float
) -> tuple[np.ndarray, tuple[float, float]]:
    """The square around ``centre`` that holds a square of ``side`` turned any way, shrunk by
    ``shrink`` (pixel area), and the centre in it.

    Shrunk far (a find hundreds of pixels across in a 12 MP photo), the square is first
    thinned to about two pixels per pixel of the result, as the detector's input is: the
    area resize of the whole square cost up to 15 ms a find.
    """
    half = int(side * 0.75) + 2
    step = max(1, int(shrink / 2))
    x0, y0 = int(centre[0]) - half, int(centre[1]) - half
    top, left = max(0, -(y0 // step)), max(0, -(x0 // step))  # thinned rows, columns outside
    side_thin = -(-2 * half // step)
    cut = image[y0 + top * step : max(0, y0 + 2 * half) : step,
                x0 + left * step : max(0, x0 + 2 * half) : step]
    if cut.size == 0:
        cut = np.zeros((side_thin, side_thin, 3), image.dtype)
    else:
        cut = cv2.copyMakeBorder(cut, top, side_thin - cut.shape[0] - top, left,
                                 side_thin - cut.shape[1] - left, cv2.BORDER_REPLICATE)
    size = max(1, round(2 * half / shrink))
    small = cv2.resize(cut, (size, size), interpolation=cv2.INTER_AREA)
    k = size / (side_thin * step)
    return small, ((centre[0] - x0) * k, (centre[1] - y0) * k)


def decode(out: np.ndarray, scale: float, threshold: float,
           frame: tuple[int, int]) -> list[Found]:
    """Boxes from the detector output (1 x 5 x H x W: centre chance, width, height, x and y
    offsets in the cell): local maxima of the centre chance above ``threshold``.

    The boxes are clipped to ``frame`` (width, height; see :func:`clip_box`) and a find whose
    centre lies outside it is dropped: the detector's input is padded to a square by
    repeating the border, a die cut by the edge of a portrait frame repeats across the padding,
    and the detector finds copies of it there. Those have their centre in the padding; what is
    left of them after clipping is not a die. All finds at once: a look holds tens of them.
    """
    heat = out[0, 0]
    peaks = (heat >= threshold) & (heat == cv2.dilate(heat, np.ones((3, 3), np.uint8)))
    ys, xs = np.nonzero(peaks)
    w, h = out[0, 1:3][:, ys, xs] * SIZE_UNIT / scale
    cx = (xs + out[0, 3, ys, xs].astype(np.float64)) * STRIDE / scale
    cy = (ys + out[0, 4, ys, xs].astype(np.float64)) * STRIDE / scale
    boxes = np.rint([cx - w / 2, cy - h / 2, cx + w / 2, cy + h / 2]).astype(int)
    fw, fh = frame
    centre_x, centre_y = (boxes[0] + boxes[2]) / 2.0, (boxes[1] + boxes[3]) / 2.0
    boxes = np.array([np.maximum(boxes[0], 0), np.maximum(boxes[1], 0),
                      np.minimum(boxes[2], fw), np.minimum(boxes[3], fh)])
    kept = ((centre_x >= 0) & (centre_x < fw) & (centre_y >= 0) & (centre_y < fh)
            & (boxes[2] - boxes[0] >= MIN_SIDE) & (boxes[3] - boxes[1] >= MIN_SIDE))
    boxes, scores = boxes[:, kept], heat[ys, xs][kept]
    return [Found(tuple(box), score) for box, score in zip(boxes.T.tolist(), scores.tolist(),
                                                           strict=True)]


@dataclass
class DiceNets:
    """The detector and pip classifier of one trained model file, ready to run."""

    detector: Network
    classifier: Network | None
    classes: tuple[str, ...]
    detect_threshold: float
    ask: dict[str, float] = field(default_factory=dict)

    @classmethod
    def from_dict(cls, data: dict) -> DiceNets:
        """Build from the JSON form written by the training script (``ask``: the per-face
        thresholds ``benchmarks/ask.py`` calibrated, when the file has them)."""
        return cls(
            load_onnx(data["detector"]),
            load_onnx(data["classifier"]),
            tuple(data["classes"]),
            float(data["detect_threshold"]),
            {str(face): float(t) for face, t in data.get("ask", {}).items()},
        )

    def confidence(self, face: str, probability: float) -> float:
        """The confidence of a die the classifier reads as ``face`` with ``probability``,
        calibrated on photos the models never saw when the model file holds thresholds
        (``ask``, written by ``benchmarks/ask.py``): each face's threshold (the lowest
        probability at which no die of the held-out rows read as that face was wrong and
        unasked, more than at ``ASKED_AT``) becomes ``ASKED_AT``, the rest scaled linearly on
        either side, so a profile's threshold keeps its meaning and readings keep their order.
        Without thresholds, the probability itself: the shipped model has none, since the
        thresholds fitted on four folds let more dice read wrong go unasked on the fifth than
        they saved questions (docs/vision-lab.md, "Issue 41: asking less")."""
        t = self.ask.get(face)
        if t is None or not 0.0 < t < 1.0:
            return probability
        if probability < t:
            return ASKED_AT * probability / t
        return ASKED_AT + (1.0 - ASKED_AT) * (probability - t) / (1.0 - t)

    def detect(self, image: np.ndarray) -> list[Found]:
        """Every die found in a BGR frame, whatever the size of its dice.

        The frame is looked at at the scale that gives its longer side ``DET_INPUT`` pixels and
        at a few more (see :meth:`_looks`). A large frame whose dice the kept look still saw
        small is looked at again, closer, where they lie (see :meth:`_closer`), and the dice
        that look finds are kept: it saw them at about the size the detector learned, where the
        frame's looks saw specks (docs/vision-lab.md, "A tray far away"). The looks not kept still
        add the dice they alone found, when they are ``ADDED`` sure of them: the
        half-size look, surer of a tray's dice as a whole, sees two touching dice as one
        (docs/vision-lab.md, "Pipeline"); and a die they found whole takes the place of its pips,
        when the kept look took them for dice (see :meth:`_whole`). In a frame whose longer
        side is at most ``2 * DET_INPUT`` pixels, where dice were found, a die the first look
        scored under the threshold counts when the pip classifier reads it as a face (see
        :meth:`_confirmed`).
        """
        large = _large(image)
        found, passed_over, kept, faint = self._looks(image, DET_INPUT / max(image.shape[:2]),
                                                      large)
        if large:
            closer = self._closer(image, found, kept)
            if closer:
                found, closer = closer, found
            passed_over += closer
        found = _joined(self._whole(image, found, passed_over), passed_over)
        return found if large else found + self._confirmed(image, faint, found)

    def _looks(
        self, image: np.ndarray, scale: float, large: bool = False
    ) -> tuple[list[Found], list[Found], float, list[Found]]:
        """The finds of the kept look, those of the looks not kept, the kept look's scale and
        the first look's faint finds (``FAINT`` sure or more, under the threshold: see
        :meth:`_confirmed`).

        The detector is surer of dice near the size it was trained on, so the frame is looked
        at at ``scale`` and at half that (dice twice the usual size, a close-up), and, for a
        ``large`` frame where the first look is unsure (median score under ``UNSURE``: a 12 MP
        photo of a tray far away, small dice), first at twice that (the input no larger than
        ``MAX_INPUT`` pixels): the half-size look at such a frame can frame the whole tray as
        one die. A look is kept over the one kept before it when its median score is
        ``ZOOMED`` higher, except, in a ``large`` frame, a single find over several: the whole
        tray framed as one die, far away in a 12 MP photo (docs/vision-lab.md, "A tray far away").
        A look at a quarter of the size (a sixteenth of the cost) never competes, since it
        sees a tray's dice as specks: it finds dice four times the usual size, a close-up, that
        the other looks see only as pips, and its finds count only when the first look would
        see them ``CLOSE_UP`` input pixels across or more (smaller, they frame a group of far
        dice).
        """
        found, faint = self._first_look(image, scale)
        kept = scale
        looks = [scale / 2]
        if large and _median_score(found) < UNSURE:
            h, w = image.shape[:2]
            looks.insert(0, min(2 * scale, float(np.sqrt(MAX_INPUT / (h * w)))))
        passed_over = []
        for other in looks:
            more = self._detect(image, other)
            if (_median_score(more) > _median_score(found) + ZOOMED
                    and not (large and len(more) == 1 < len(found))):
                found, more, kept = more, found, other
            passed_over += more
        passed_over += [f for f in self._detect(image, scale / 4) if f.side * scale >= CLOSE_UP]
        return found, passed_over, kept, faint

    def _confirmed(self, image: np.ndarray, faint: list[Found], found: list[Found]) -> list[Found]:
        """The ``faint`` finds that are dice: each lying ``APART`` die sides (the larger of the
        two boxes') from every die of ``found`` and read by the pip classifier as a face at least
        ``CONFIRMED`` sure. The detector misses small dice on busy boards (a CATAN board: its
        training photos' dice of 20-28 pixels are found at .56) where it still scores them
        0.15-0.3; on the tray every such find is one the classifier takes for no die (added
        alone, they left its rows as they were, to the digit). Apart: a die seen at a slant,
        found by its top face, shows a side face below it that the detector scores faintly and
        the classifier reads as a face (the webcam's labels are top faces). Only in a frame
        where dice were surely found: faint finds are measured against them. Five folds:
        roboflow .746 -> .768 of dice read right, .774 with the classifier retrained on them
        (docs/vision-lab.md, "Faint finds")."""
        apart = _apart(faint, found)
        if not apart or self.classifier is None:
            return []
        faces = [i for i, c in enumerate(self.classes) if c != NOT_A_DIE]
        glance = self._run(_cut_outs(image, apart, CROP_SCALE))[:, faces].max(axis=1)
        # Only a die read at a glance this surely can average CONFIRMED over the looks: the
        # others are dropped before the looks (most faint finds on a board, 3 a frame).
        hopeful = [f for f, p in zip(apart, glance, strict=True)
                   if p >= 1 - UNSURE_LOOKS * (1 - CONFIRMED)]
        if not hopeful:
            return []
        probs = self.classify(image, hopeful)[:, faces].max(axis=1)
        return [f for f, p in zip(hopeful, probs, strict=True) if p >= CONFIRMED]

    def faint_finds(self, image: np.ndarray, found: list[Found]) -> list[Found]:
        """The faint finds of a frame that the pip classifier is asked to confirm (see
        :meth:`_confirmed`), given the dice ``found`` there: what training shows it as no die
        when they are none (a CATAN board's number tokens, a slanted die's side face)."""
        if _large(image):
            return []
        return _apart(self._first_look(image, DET_INPUT / max(image.shape[:2]))[1], found)

    def _first_look(self, image: np.ndarray, scale: float) -> tuple[list[Found], list[Found]]:
        """The finds of the look at ``scale``: those at the threshold or more, and the faint
        ones (``FAINT`` or more, under the threshold), from one run of the detector."""
        first = self._detect(image, scale, FAINT)
        return ([f for f in first if f.score >= self.detect_threshold],
                [f for f in first if f.score < self.detect_threshold])

    def _closer(self, image: np.ndarray, found: list[Found], scale: float) -> list[Found]:
        """The dice found by the looks (see :meth:`_looks`) at the part of the frame where
        ``found`` lie, at the scale that gives them ``CLOSE_SIDE`` input pixels, when the look at
        ``scale`` saw them under ``SMALL_SIDE`` (see :func:`_closer_part`); none otherwise.
        Tiny dice far away in a large frame (a phone
        photo of a whole table, a tray in a corner of a wide view) are seen at about the size
        the detector learned, at the cost of a few looks at a small part of the frame. Seen
        that small, touching dice are often found as one, so their size is overrated: the part
        of the frame is looked at once more when the closer look's dice ask for a scale at
        least ``CLOSER`` times larger still (a tray far away: .812 to .891 of its dice read
        right, docs/vision-lab.md, "A tray far away")."""
        closer: list[Found] = []
        for _ in range(CLOSER_LOOKS):
            where = _closer_part(image.shape, found, scale, first=not closer)
            if where is None:
                break
            (x0, y0, x1, y1), zoom = where
            part = image[y0:y1, x0:x1]
            kept, passed_over, _, _ = self._looks(part, zoom)
            closer = [Found((f.box[0] + x0, f.box[1] + y0, f.box[2] + x0, f.box[3] + y0),
                            f.score)
                      for f in _joined(self._whole(part, kept, passed_over), passed_over)]
            found, scale = closer, zoom
        return closer

    def _whole(self, image: np.ndarray, found: list[Found], others: list[Found]) -> list[Found]:
        """``found`` with each die of ``others`` that holds much smaller finds (its pips,
        found as dice: a die twice the usual size in a 640 px frame) in their place, when the
        pip classifier reads it as a face at least ``WHOLE`` sure and reads most of them as no
        face that surely (it learned a pip as no die). Where it holds a single find (a
        close-up die showing 1), that find must read likeliest as no die (an unsure real die
        stays) and the larger one as a face ``WHOLE_ONE`` sure (the hole of the tray's handle,
        framed larger, reads as a 1 at up to 0.93). Where another find has its centre in its
        box (the die itself, found whole), the pips are only dropped. A larger find around a
        group of tiny dice (far away, framed whole by the half-size look) is seldom read as a
        face, and its dice are read as faces: they stay."""
        candidates = _pips_of(sorted(others, key=lambda f: -f.score), found)
        if not candidates or self.classifier is None:
            return found
        inner = list({f: None for _, pips in candidates for f in pips})
        probs = self.classify(image, inner)
        faces = [i for i, c in enumerate(self.classes) if c != NOT_A_DIE]
        a_face = dict(zip(inner, probs[:, faces].max(axis=1) >= WHOLE, strict=True))
        no_die = dict(zip(inner, probs.argmax(axis=1) == self.classes.index(NOT_A_DIE),
                          strict=True))
        for b, pips in candidates:
            pips = [f for f in pips if f in found]
            if len(pips) == 1:
                whole = no_die[pips[0]] and self._face_surety(image, b) >= WHOLE_ONE
            else:
                whole = (2 * sum(a_face[f] for f in pips) < len(pips)
                         and self._face_surety(image, b) >= WHOLE)
            if whole:
                found = [f for f in found if f not in pips]
                if not any(_inside(f.centre, b.box) for f in found):
                    found.append(b)
        return found

    def _face_surety(self, image: np.ndarray, die: Found) -> float:
        """How surely the pip classifier reads ``die`` as a face, any face. Asked one find at a
        time, only of a larger find whose smaller ones may be its pips: a 12 MP frame's far
        looks frame groups of dice hundreds of pixels across, costly to cut out, and the dice
        they hold are read as faces, so those groups are never asked about."""
        probs = self.classify(image, [die])[0]
        return float(max(p for p, c in zip(probs, self.classes, strict=True) if c != NOT_A_DIE))

    def _detect(self, image: np.ndarray, scale: float, floor: float | None = None) -> list[Found]:
        """The dice the detector finds in ``image`` shrunk by ``scale``, clipped to the frame:
        those it scores ``floor`` or more (the model's threshold when unsaid)."""
        small, scale = detector_input(image, scale)
        return decode(self.detector(to_blob(small[None])), scale,
                      self.detect_threshold if floor is None else floor,
                      (image.shape[1], image.shape[0]))

    def classify(self, image: np.ndarray, found: list[Found]) -> np.ndarray:
        """Class probabilities (one row per die, columns as ``classes``); dice not read at
        ``SURE`` at a glance are averaged with more looks, upright: the cut-out mirrored and
        tilted, and a wider one as it is, mirrored and tilted (see ``_upright_looks``)."""
        if not found:
            return np.zeros((0, len(self.classes)), np.float32)
        batch = _cut_outs(image, found, CROP_SCALE)
        probs = self._run(batch)
        unsure = np.flatnonzero(probs.max(axis=1) < SURE)
        if len(unsure):
            more = self._run(_upright_looks(image, [found[i] for i in unsure], batch[unsure]))
            looks = more.reshape(-1, len(unsure), probs.shape[1])
            probs[unsure] = (probs[unsure] + looks.sum(axis=0)) / (1 + len(looks))
        return probs

    def _run(self, batch: np.ndarray) -> np.ndarray:
        """The classifier's probabilities for an NCHW batch of cut-outs, one row each."""
        return self.classifier(batch).reshape(len(batch), -1)


def _median_score(found: list[Found]) -> float:
    """How sure the detector is of a set of finds (0 for none). Python's median: numpy's
    costs a tenth of a millisecond on a dozen numbers, three times a frame."""
    return float(statistics.median(f.score for f in found)) if found else 0.0


def _closer_part(
    shape: tuple[int, ...], found: list[Found], scale: float, first: bool
) -> tuple[tuple[int, int, int, int], float] | None:
    """The part of a frame of ``shape`` where ``found`` lie (``CLOSE_MARGIN`` die sides around
    them) and the scale that gives them ``CLOSE_SIDE`` input pixels (the input no larger than
    ``MAX_INPUT``); ``None`` when a closer look is not worth it: no finds, dice the ``first``
    look saw at ``SMALL_SIDE`` input pixels or more, or a scale under ``CLOSER`` times
    ``scale``."""
    if not found:
        return None
    side = statistics.median(f.side for f in found)
    if first and side * scale >= SMALL_SIDE:
        return None
    h, w = shape[:2]
    margin = CLOSE_MARGIN * side
    x0 = max(0, int(min(f.box[0] for f in found) - margin))
    y0 = max(0, int(min(f.box[1] for f in found) - margin))
    x1 = min(w, int(max(f.box[2] for f in found) + margin))
    y1 = min(h, int(max(f.box[3] for f in found) + margin))
    zoom = min(CLOSE_SIDE / side, float(np.sqrt(MAX_INPUT / ((x1 - x0) * (y1 - y0)))))
    return ((x0, y0, x1, y1), zoom) if zoom >= CLOSER * scale else None


def _large(image: np.ndarray) -> bool:
    """Whether a frame is over ``2 * DET_INPUT`` pixels on its longer side: it may be looked
    at closer (``DiceNets._closer``), and its faint finds are not asked about."""
    return max(image.shape[:2]) > 2 * DET_INPUT


def _apart(faint: list[Found], found: list[Found]) -> list[Found]:
    """The ``faint`` finds whose centre lies ``APART`` die sides (the larger of the two boxes')
    from the centre of every die of ``found``; none when nothing was found."""
    if not faint or not found:
        return []
    centres = np.array([f.centre for f in found])
    sides = np.array([f.side for f in found])
    return [f for f in faint
            if (np.hypot(*(centres - f.centre).T) >= APART * np.maximum(sides, f.side)).all()]


def _pips_of(dice: list[Found], found: list[Found]) -> list[tuple[Found, list[Found]]]:
    """Each die of ``dice`` that holds finds of ``found`` (centre in its box, less than
    ``PIP_SIDE`` of its side) with those finds, in the order of ``dice``; all pairs at once."""
    if not dice or not found:
        return []
    sides = np.array([f.side for f in found])
    holds = (_holds(np.array([d.box for d in dice], np.float64),
                    np.array([f.centre for f in found]))
             & (sides < PIP_SIDE * np.array([[d.side] for d in dice])))
    return [(d, [found[j] for j in np.flatnonzero(row)]) for d, row in zip(dice, holds,
                                                                          strict=True)
            if row.any()]


def _joined(kept: list[Found], others: list[Found]) -> list[Found]:
    """``kept`` and, surest first, each of ``others`` at least ``ADDED`` sure whose box holds
    no centre of a die already there and whose centre lies in none of their boxes (a die seen
    by both looks, or a pip of a die the other look found whole, is not counted again).
    Checked against ``kept`` all at once: a 12 MP photo can hold 200 finds in each look."""
    extra = sorted((f for f in others if f.score >= ADDED), key=lambda f: -f.score)
    if kept and extra:
        boxes = np.array([f.box for f in kept], np.float64)
        centres = np.array([f.centre for f in kept])
        clash = (_holds(boxes, np.array([f.centre for f in extra])).any(axis=0)
                 | _holds(np.array([f.box for f in extra], np.float64), centres).any(axis=1))
        extra = [f for f, clashes in zip(extra, clash, strict=True) if not clashes]
    joined = list(kept)
    for f in extra:
        if not any(_inside(f.centre, g.box) or _inside(g.centre, f.box)
                   for g in joined[len(kept):]):
            joined.append(f)
    return joined


def _holds(boxes: np.ndarray, points: np.ndarray) -> np.ndarray:
    """Whether each box (row) holds each point (column), edges included."""
    x, y = points[:, 0], points[:, 1]
    return ((boxes[:, 0:1] <= x) & (x <= boxes[:, 2:3]) & (boxes[:, 1:2] <= y)
            & (y <= boxes[:, 3:4]))


def _inside(point: tuple[float, float], box: tuple[int, int, int, int]) -> bool:
    """Whether ``point`` lies in ``box``, edges included."""
    return box[0] <= point[0] <= box[2] and box[1] <= point[1] <= box[3]


def _cut_outs(image: np.ndarray, found: list[Found], scale: float,
              angle: float = 0.0) -> np.ndarray:
    """The NCHW batch of the cut-outs of ``found``, each ``scale`` box sides across, turned by
    ``angle`` degrees."""
    return to_blob([crop(image, f.centre, f.side * scale, angle) for f in found])


def _upright_looks(image: np.ndarray, found: list[Found], cuts: np.ndarray) -> np.ndarray:
    """Looks 1 to ``VIEWS - 1`` of the pip classifier at the dice of ``found`` (look 0 is their
    cut-outs ``cuts``, an NCHW batch), one whole batch per look: the cut-outs mirrored and
    turned ``TILT`` degrees either way, then a wider cut-out of each (``WIDE_SCALE``) as it is,
    mirrored and turned so. Never a quarter turn: the classifier learned dice upright, since a
    die seen at a slant shows its top face above its sides and a cut-out turned any way hides
    which face is on top (docs/vision-lab.md, "Dice learned upright")."""
    wide = _cut_outs(image, found, WIDE_SCALE)
    return np.concatenate([
        cuts[..., ::-1], _cut_outs(image, found, CROP_SCALE, TILT),
        _cut_outs(image, found, CROP_SCALE, -TILT), wide, wide[..., ::-1],
        _cut_outs(image, found, WIDE_SCALE, TILT), _cut_outs(image, found, WIDE_SCALE, -TILT),
    ])


def _views(batch: np.ndarray, looks: range) -> np.ndarray:
    """The ``looks`` of every cut-out of an NCHW batch, one whole batch per look: look ``v`` is
    ``v % 4`` quarter turns, mirrored when ``v >= 4``. The looks are made from the batch the
    network already saw (turning floats is the same as turning the bytes they came from)."""
    return np.concatenate([np.rot90(batch[..., ::-1] if v >= 4 else batch, v % 4, axes=(2, 3))
                           for v in looks])


def clip_box(box: tuple[int, int, int, int], w: int, h: int) -> tuple[int, int, int, int] | None:
    """``box`` cut to a ``w`` x ``h`` frame; ``None`` when less than ``MIN_SIDE`` pixels of it
    are left either way (a reversed or empty box must never reach a crop)."""
    x0, y0, x1, y1 = max(0, box[0]), max(0, box[1]), min(w, box[2]), min(h, box[3])
    return (x0, y0, x1, y1) if x1 - x0 >= MIN_SIDE and y1 - y0 >= MIN_SIDE else None


def read_model_file(name: str) -> dict:
    """The JSON content of ``vision/models/<name>``."""
    return json.loads(resources.files("vision.models").joinpath(name).read_text())


@cache
def shipped() -> DiceNets:
    """The model trained on all the data, shipped in ``vision/models/dice.json``."""
    return DiceNets.from_dict(read_model_file("dice.json"))


@cache
def face_embedder() -> Network:
    """The face embedder of learned profiles, shipped in ``vision/models/faces.json``."""
    return load_onnx(read_model_file("faces.json")["embedder"])


def embed(image: np.ndarray, boxes: list[tuple[int, int, int, int]]) -> np.ndarray:
    """Unit-length face embeddings (``EMBED`` numbers, one row per box) of the dice in ``boxes``:
    what the embedder trained on many profiles' faces keeps of each cut-out, so that faces taught
    from a few photos can be told apart by their nearest examples.

    Each cut-out is seen in its ``TURNS`` quarter turns, and a wider cut-out (``WIDE_SCALE``, as
    in the pip classifier's second look) in as many mirrored turns (``VIEWS`` looks, one whole
    batch per look), and the looks averaged: a
    face does not change when the die turns, the embedder's description does a little (taught
    from 10 pip photos per face, faces read at .93 by nearest mean instead of .89 with one
    look), and the wider cut-out holds the marks a box set partly off the top face leaves out
    (webcam .903 -> .928, the mean of 20 draws; docs/vision-lab.md, "Taught from photos").
    """
    if not boxes:
        return np.zeros((0, EMBED), np.float32)
    found = [Found(box, 1.0) for box in boxes]
    looks = np.concatenate([_views(_cut_outs(image, found, CROP_SCALE), range(TURNS)),
                            _views(_cut_outs(image, found, WIDE_SCALE), range(TURNS, VIEWS))])
    out = face_embedder()(looks).reshape(VIEWS, len(boxes), EMBED)
    out /= np.maximum(np.linalg.norm(out, axis=2, keepdims=True), 1e-6)
    mean = out.mean(axis=0)
    return mean / np.maximum(np.linalg.norm(mean, axis=1, keepdims=True), 1e-6)
