"""The table's examples: every die the host confirmed or corrected, kept to read this table better.

A companion stays on one table for years, and the host confirms every roll it asks about: each die
confirmed or corrected is kept as an example of this table (its cut-out, its face, what the reader
had read there, its box and the frame's size: the camera), in ``<data dir>/vision/table/``, beside
the faces taught (never in the journal: an undo leaves them, as it leaves taught faces). The reader
uses them at the next roll, with no retraining:

- a die it is unsure of but reads at least ``EVEN`` surely, or reads as a face the host once
  corrected, is compared with the table's examples of the profile (the 60 numbers of
  :func:`vision.features.describe`, whose units are one clearly visible difference each): when
  ``AGREE`` examples of the face the reader read lie within ``NEAR`` units, ``RATIO`` times
  nearer than any example of another face, or the nearest is a die the host corrected to that
  face, the die is read surely. A die within ``SAME``
  units of an example the reader misread as the face it reads now is that die again: read as
  the host named it; near such an example but not that near, it is asked about. It is not read
  wrong again.
- the die size it expects: once ``SIZED`` examples are known, a find much smaller or larger than
  every die confirmed here (``SIZE_SPAN``) is no die of this table.
- the detector's threshold: lowered by the share of confirmed dice the reader missed (the host
  added them), down to ``LOWEST``, so the next roll finds the dice this table's light hides.

Set on the byler tray (the labelled dice of its first 20 photos as examples, those of the next 20
read): the nearest example within 8 units and 0.6 times nearer than another face named 73 % of
the dice, all 364 of them right (5.4 ms a die to describe, hence only the dice in doubt, and
whole only where the cheaper half of the description says it may matter). In a
shuffled order of every photo, that nearest example confirmed 3 aws dice and 1 webcam die read
wrong: ``AGREE`` examples must lie near (``benchmarks/vision.py --adapt``, docs/vision.md
"Learning the table", docs/vision-lab.md "Issue 41: asking less").
"""

from __future__ import annotations

import json
import secrets
import shutil
import time
from dataclasses import dataclass, replace
from functools import cached_property
from pathlib import Path

import cv2
import numpy as np

from .detect import Blob, die_pixels
from .evaluate import match
from .features import describe, hand_made, version
from .net import FAINT, DiceNets, thinned
from .profile import Profile, ProfileError, load_profile, write_atomic
from .roll import Box, Die, Roll

NEAR = 8.0  # feature units within which an example can name a die's face ...
AGREE = 5  # ... when this many examples of the face read lie there ...
RATIO = 0.8  # ... this much nearer than every example of another face ...
ALONE = 3.0  # ... or within this many units when the table knows no other face
SAME = 3.0  # a die this near an example the reader misread is that die again: renamed
SURE = 0.99  # the confidence of a face named by the table's examples
EVEN = 0.6  # the examples confirm a doubted reading only when the reader was at least this sure
SIZED = 5  # examples needed before the die size is trusted
SIZE_SPAN = 2.0  # a find this many times smaller than the smallest example, or larger than the
# largest, is no die of this table
LOWEST = FAINT + 0.05  # lowest detector threshold, however many dice the reader missed
CUT = 96  # side of a kept cut-out, in pixels
LARGE = 192  # a die over this many pixels across is described shrunk ...
DESCRIBED = 64  # ... to this many (``_looked_at``) ...
MARGIN = 0.5  # ... with this many of its sides around it


@dataclass(frozen=True)
class Example:
    """One die the host confirmed: ``face`` the host gave, ``read`` what the reader read there
    (``None``: the reader missed it), ``box`` in the frame's pixels, ``frame`` its width and
    height, ``camera`` the camera's name when known, ``vector`` its description (``None`` when
    its face could not be described), ``id`` its name in ``dice table list``."""

    id: str
    face: str
    read: str | None
    box: Box
    frame: tuple[int, int]
    camera: str | None
    vector: tuple[float, ...] | None
    added: float

    @property
    def corrected(self) -> bool:
        """The reader read another face, or missed the die."""
        return self.read != self.face

    @property
    def side(self) -> float:
        """The die's side as a share of the frame's longer side."""
        x0, y0, x1, y1 = self.box
        return max(x1 - x0, y1 - y0) / max(self.frame)


@dataclass(frozen=True)
class Table:
    """The examples of one profile at one table, and what the reader draws from them."""

    profile: str
    examples: tuple[Example, ...] = ()

    @cached_property
    def _described(self) -> tuple[np.ndarray, np.ndarray]:
        """The examples' vectors (rows) and faces, for those that could be described."""
        kept = [e for e in self.examples if e.vector is not None]
        vectors = np.array([e.vector for e in kept], np.float32).reshape(len(kept), -1)
        return vectors, np.array([e.face for e in kept])

    @cached_property
    def corrected_from(self) -> frozenset[str]:
        """The faces the reader once read wrongly here: such a reading is checked."""
        return frozenset(e.read for e in self.examples if e.corrected and e.read is not None)

    def threshold(self, base: float) -> float:
        """The detector's threshold at this table: ``base`` lowered by the share of the dice
        confirmed here that the reader missed, down to ``LOWEST``."""
        missed = sum(e.read is None for e in self.examples)
        return max(LOWEST, base - missed / len(self.examples)) if missed else base

    def smallest(self) -> float | None:
        """The side of the smallest die confirmed here (a share of its frame's longer side);
        ``None`` until ``SIZED`` examples are known. A photo is decoded no larger than that die
        needs (``vision.imageio.load_photo``)."""
        return None if len(self.examples) < SIZED else min(e.side for e in self.examples)

    def sides(self) -> tuple[float, float] | None:
        """The smallest and largest die side (share of the frame's longer side) a find may have
        at this table; ``None`` until ``SIZED`` examples are known."""
        if len(self.examples) < SIZED:
            return None
        sides = [e.side for e in self.examples]
        return min(sides) / SIZE_SPAN, max(sides) * SIZE_SPAN

    def face_of(self, vector: np.ndarray, read: str) -> tuple[str | None, bool]:
        """What the table's examples say of a die described by ``vector`` and read as ``read``:
        the face they name (``None``: no example near enough, or one of another face nearly as
        near), and whether the nearest example is one the reader once read as ``read`` wrongly
        (then, named or not, ``read`` is not trusted). The examples confirm the reader's face
        when ``AGREE`` of its examples lie near (one near example confirmed three aws dice and
        one webcam die read wrong, of the photos after 20 confirmed, docs/vision-lab.md), or
        when the nearest is a die the host corrected to that face (that die again, read right
        this time); they name another only for a die within ``SAME`` of an example
        the reader misread as ``read`` (the same die again): on the webcam set, naming other
        faces from nearer examples read 3 dice of 203 wrongly and surely."""
        vectors, faces = self._described
        if not len(faces):
            return None, False
        dist = np.linalg.norm(vectors - vector, axis=1)
        best = int(np.argmin(dist))
        misread = bool(dist[best] <= NEAR and self._misread[best] == read)
        others = dist[faces != faces[best]]
        limit = ALONE if not len(others) else min(NEAR, RATIO * others.min())
        if faces[best] != read:  # only a die that close to a misread one is renamed
            return (str(faces[best]) if misread and dist[best] <= min(limit, SAME)
                    else None), misread
        if self._misread[best] and dist[best] <= limit:  # a die the host corrected, read
            return read, misread  # right this time
        same = np.sort(dist[faces == read])
        return (read if len(same) >= AGREE and same[AGREE - 1] <= limit else None), misread

    @cached_property
    def _misread(self) -> np.ndarray:
        """Per described example, the face the reader wrongly read there (``""``: none)."""
        return np.array([e.read if e.corrected and e.read is not None else ""
                         for e in self.examples if e.vector is not None])

    def fitting(self, image: np.ndarray, dice: list[Die]) -> list[Die]:
        """``dice`` read at this table: sized like its dice, and faces named by its examples
        where the reader was unsure or read a face it once read wrongly here. Such a die is
        described by its hand-made part first, and whole only when that part says the examples
        may change it (:meth:`_may_change`): the cost grew with every face the host corrected."""
        sides = self.sides()
        if sides is not None:
            longer = max(image.shape[:2])
            dice = [d for d in dice
                    if sides[0] <= max(d.box[2] - d.box[0], d.box[3] - d.box[1]) / longer
                    <= sides[1]]
        if not self.examples:
            return dice
        doubted = [d.uncertain and d.confidence >= EVEN for d in dice]
        checked = [i for i, d in enumerate(dice) if doubted[i] or d.face in self.corrected_from]
        if not checked:
            return dice
        looks = _looked_at(image, [dice[i].box for i in checked])
        hands = _hands(looks)
        near = [k for k, i in enumerate(checked)
                if self._may_change(hands[k], dice[i].face, doubted[i])]
        dice = list(dice)
        vectors = _completed([looks[k] for k in near], [hands[k] for k in near])
        for k, vector in zip(near, vectors, strict=True):
            i = checked[k]
            face, misread = (None, False) if vector is None else self.face_of(vector,
                                                                               dice[i].face)
            if face is not None and (face != dice[i].face or doubted[i]):
                dice[i] = replace(dice[i], face=face, confidence=max(SURE, dice[i].confidence),
                                  uncertain=False)
            elif misread:
                dice[i] = replace(dice[i], uncertain=True)
        return dice

    def _may_change(self, hand: np.ndarray | None, read: str, doubted: bool) -> bool:
        """Whether the examples may change a die read as ``read`` whose description starts
        with ``hand`` (its hand-made part, ``features.hand_made``): a distance on those numbers
        is never more than on the whole description, so a die whose hand-made part lies over
        ``NEAR`` from an example lies over ``NEAR`` from it. Only examples within ``NEAR``
        change a die (see :meth:`face_of`): one the reader misread as ``read`` (the same die
        again), and for a ``doubted`` die one of the face ``read`` the host corrected, or
        ``AGREE`` of that face. The whole description costs twice the hand-made part; with the
        benchmark's table (20 tray and 20 aws photos confirmed) the 200 tray photos' 1,485 dice
        hold 1,247 the table checks, 186 of them described whole (all of them before)."""
        if hand is None:
            return False
        vectors, faces = self._described
        near = np.linalg.norm(vectors[:, :len(hand)] - hand, axis=1) <= NEAR
        if (near & (self._misread == read)).any():
            return True
        same = near & (faces == read)
        return doubted and bool((same & (self._misread != "")).any() or same.sum() >= AGREE)


@dataclass(frozen=True)
class Confirmed:
    """What one confirmed roll added: examples in all, how many the reader had read otherwise
    (``corrected``) and how many it had missed (``missed``)."""

    added: int
    corrected: int
    missed: int


def table_path(profile: str, data_dir: Path) -> Path:
    """Where the table's examples of ``profile`` are kept."""
    return Path(data_dir) / "vision" / "table" / (profile.replace("/", "__") + ".json")


def cut_outs_folder(profile: str, data_dir: Path) -> Path:
    """Where the cut-outs of the table's examples of ``profile`` are kept (JPEG, by id)."""
    path = table_path(profile, data_dir)
    return path.parent / path.stem


_LOADED: dict[Path, tuple[tuple[int, int, int] | None, Table]] = {}


def load_table(profile: str, data_dir: Path | None) -> Table:
    """The table's examples of ``profile`` in ``data_dir`` (none without a data directory),
    parsed once and kept until the file changes: a confirmed roll counts at the next roll."""
    if data_dir is None:
        return Table(profile)
    path = table_path(profile, data_dir)
    try:
        st = path.stat()
        stamp: tuple[int, int, int] | None = (st.st_mtime_ns, st.st_size, st.st_ino)
    except OSError:
        stamp = None
    kept = _LOADED.get(path)
    if kept is not None and kept[0] == stamp:
        return kept[1]
    table = Table(profile, tuple(_read(path))) if stamp is not None else Table(profile)
    _LOADED[path] = (stamp, table)
    return table


def tuned(nets: DiceNets, table: Table) -> DiceNets:
    """``nets`` with the detector's threshold of this table."""
    threshold = table.threshold(nets.detect_threshold)
    return nets if threshold == nets.detect_threshold else replace(
        nets, detect_threshold=threshold)


def confirm(image: np.ndarray, profile: str | Profile, dice: list[tuple[Box, str]],
            data_dir: Path, *, read: Roll | None = None, camera: str | None = None) -> Confirmed:
    """Keep the dice of one photo as the host gave them (``(box, face)``, boxes in the
    photo's pixels) as examples of this table. ``read`` is what the reader read in the photo
    (read here, with the table as it stands, when not given): a die of another face there is a
    correction, a box paired with none of its dice (:func:`vision.evaluate.match`, one to one:
    two touching dice read as one leave one of them unpaired) a die it missed. Raises
    :class:`ProfileError`, with nothing kept, for a face the profile does not have, a box outside
    the photo or no die."""
    if isinstance(profile, str):
        profile = load_profile(profile, data_dir)
    h, w = image.shape[:2]
    if not dice:
        raise ProfileError("table.no_die")
    for box, face in dice:
        if face not in profile.faces:
            raise ProfileError("profile.no_face", name=repr(profile.name), face=repr(face),
                               faces=", ".join(profile.faces))
        x0, y0, x1, y1 = box
        if not (0 <= x0 < x1 <= w and 0 <= y0 < y1 <= h):
            raise ProfileError("table.bad_box", box=",".join(map(str, box)), width=w, height=h)
    if read is None:
        from .reader import read as read_frame  # here: the reader imports this module

        read = read_frame(image, profile, data_dir=data_dir)
    now = time.time()
    paired = {j: read.dice[i] for i, j in match([d.box for d in read.dice],
                                                 [box for box, _ in dice])}
    # A die the reader found is described in the box it found, as the next roll's dice will be
    # (a slanted camera's labels may frame the top face only, the reader the whole die).
    looked = [paired[j].box if j in paired else box for j, (box, _) in enumerate(dice)]
    examples = []
    for j, ((box, face), vector) in enumerate(zip(dice, _vectors(image, looked), strict=True)):
        examples.append(Example(secrets.token_hex(4), face,
                                paired[j].face if j in paired else None, tuple(box), (w, h),
                                camera, None if vector is None else tuple(round(float(v), 4)
                                                                          for v in vector), now))
    folder = cut_outs_folder(profile.name, data_dir)
    folder.mkdir(parents=True, exist_ok=True)
    for example in examples:
        ok, jpeg = cv2.imencode(".jpg", _cut_out(image, example.box),
                                [cv2.IMWRITE_JPEG_QUALITY, 85])
        if ok:
            (folder / f"{example.id}.jpg").write_bytes(jpeg.tobytes())
    path = table_path(profile.name, data_dir)
    _write(path, profile.name, list(_read(path)) + examples)
    return Confirmed(len(examples), sum(e.read is not None and e.corrected for e in examples),
                     sum(e.read is None for e in examples))


def table_examples(profile: str, data_dir: Path) -> list[Example]:
    """The table's examples of ``profile``, oldest first."""
    return _read(table_path(profile, data_dir))


def forget(profile: str, data_dir: Path, example_id: str | None = None) -> int:
    """Forget one example (by id) or every example of ``profile`` at this table (``None``);
    returns how many were dropped. :class:`ProfileError` for an id it does not have."""
    path = table_path(profile, data_dir)
    examples = _read(path)
    if example_id is None:
        kept = []
        shutil.rmtree(cut_outs_folder(profile, data_dir), ignore_errors=True)
    else:
        kept = [e for e in examples if e.id != example_id]
        if len(kept) == len(examples):
            raise ProfileError("table.no_example", id=repr(example_id), profile=repr(profile))
        (cut_outs_folder(profile, data_dir) / f"{example_id}.jpg").unlink(missing_ok=True)
    if kept:
        _write(path, profile, kept)
    else:
        path.unlink(missing_ok=True)
    return len(examples) - len(kept)


def _vectors(image: np.ndarray, boxes: list[Box]) -> list[np.ndarray | None]:
    """The description of the die in each box (``None`` where its face cannot be described)."""
    looks = _looked_at(image, boxes)
    return _completed(looks, _hands(looks))


def _looked_at(image: np.ndarray, boxes: list[Box]) -> list[tuple[np.ndarray, Blob | None]]:
    """Where the die in each box is described: the frame, or its neighbourhood shrunk, and the
    die's pixels there (``None`` where too little of it is left to hold a die).

    A die over ``LARGE`` pixels across (a 12 MP photo) is described in its neighbourhood shrunk
    to ``DESCRIBED`` pixels a die side (see :func:`_shrunk`), about the size of the dice of the
    photos the table's examples mostly come from: described whole, such a die cost about 40 ms
    (its mask's pixels), where the description looks at a 32-pixel die (its marks) and an
    80-pixel cut-out (the embedder) anyway. Shrunk, the aws photos' dice enlarged to 12 MP are
    described nearer to how they are described in the photo itself (median 1.8 units apart
    instead of 2.4, at most 14 instead of 20) for a quarter of the time.
    """
    looks = []
    for box in boxes:
        part, box = (image, box) if _side(box) <= LARGE else _shrunk(image, box)
        looks.append((part, die_pixels(part, box)))
    return looks


def _hands(looks: list[tuple[np.ndarray, Blob | None]]) -> list[np.ndarray | None]:
    """The hand-made part of the description of each die of ``looks`` (see :func:`_looked_at`),
    ``None`` where there is no die to describe."""
    return [None if blob is None else hand_made(part, [blob])[0] for part, blob in looks]


def _completed(looks: list[tuple[np.ndarray, Blob | None]],
               hands: list[np.ndarray | None]) -> list[np.ndarray | None]:
    """The descriptions of the dice of ``looks`` (see :func:`_looked_at`) whose hand-made parts
    are ``hands``: the dice described in one image are shown to the embedder at once."""
    vectors: list[np.ndarray | None] = [None] * len(looks)
    by_image: dict[int, list[int]] = {}
    for k, (part, blob) in enumerate(looks):
        if blob is not None and hands[k] is not None:
            by_image.setdefault(id(part), []).append(k)
    for ks in by_image.values():
        part = looks[ks[0]][0]
        described = describe(part, [looks[k][1] for k in ks], [hands[k] for k in ks])
        for k, vector in zip(ks, described, strict=True):
            vectors[k] = vector
    return vectors


def _side(box: Box) -> int:
    """The longer side of ``box`` in pixels."""
    return max(box[2] - box[0], box[3] - box[1])


def _shrunk(image: np.ndarray, box: Box) -> tuple[np.ndarray, Box]:
    """The part of ``image`` within ``MARGIN`` box sides around ``box`` (as far as the frame
    goes: what the description's turned cut-outs reach), shrunk by pixel area so that the die
    is ``DESCRIBED`` pixels across (thinned first to about two pixels per pixel of the result,
    as the detector's input is), and the die's box there."""
    x0, y0, x1, y1 = box
    margin = int(MARGIN * _side(box))
    h, w = image.shape[:2]
    px0, py0, px1, py1 = max(0, x0 - margin), max(0, y0 - margin), min(w, x1 + margin), min(
        h, y1 + margin)
    k = DESCRIBED / _side(box)
    step = max(1, int(1 / (2 * k)))
    size = (max(1, round((px1 - px0) * k)), max(1, round((py1 - py0) * k)))
    part = cv2.resize(thinned(image[py0:py1, px0:px1], step), size, interpolation=cv2.INTER_AREA)
    return part, (round((x0 - px0) * k), round((y0 - py0) * k), round((x1 - px0) * k),
                  round((y1 - py0) * k))


def _cut_out(image: np.ndarray, box: Box) -> np.ndarray:
    """The square around ``box`` with a little margin, at ``CUT`` pixels."""
    x0, y0, x1, y1 = box
    side = max(x1 - x0, y1 - y0) * 1.3
    cx, cy = (x0 + x1) / 2, (y0 + y1) / 2
    h, w = image.shape[:2]
    left, top = max(0, round(cx - side / 2)), max(0, round(cy - side / 2))
    right, bottom = min(w, round(cx + side / 2)), min(h, round(cy + side / 2))
    return cv2.resize(image[top:bottom, left:right], (CUT, CUT), interpolation=cv2.INTER_AREA)


def _read(path: Path) -> list[Example]:
    """The examples in ``path`` (none: empty); :class:`ProfileError` for a damaged file, and
    for examples described by another version of the face description (forget them)."""
    if not path.exists():
        return []
    try:
        data = json.loads(path.read_text())
        examples = [Example(str(e["id"]), str(e["face"]), e["read"], tuple(e["box"]),
                            tuple(e["frame"]), e.get("camera"),
                            None if e["vector"] is None else tuple(e["vector"]),
                            float(e["added"])) for e in data["examples"]]
    except (ValueError, KeyError, TypeError) as exc:
        raise ProfileError("table.unreadable", path=path, detail=exc) from None
    if data.get("features") != version():
        examples = [replace(e, vector=None) for e in examples]  # sizes still count
    return examples


def _write(path: Path, profile: str, examples: list[Example]) -> None:
    """Replace the table file in one step, on disk when this returns."""
    path.parent.mkdir(parents=True, exist_ok=True)
    text = json.dumps({"profile": profile, "features": version(),
                       "examples": [{"id": e.id, "face": e.face, "read": e.read,
                                     "box": list(e.box), "frame": list(e.frame),
                                     "camera": e.camera,
                                     "vector": None if e.vector is None else list(e.vector),
                                     "added": e.added} for e in examples]})
    write_atomic(path, text)

