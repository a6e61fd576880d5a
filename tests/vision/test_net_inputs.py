"""The networks' inputs, made the fast way, are the inputs the models were trained and measured on.

Issue 16's speed work made the detector's and classifier's inputs with cheaper operations
(OpenCV's nearest-pixel resize for thinning, scaling in place, second looks turned from the batch
already seen) and runs the networks with ONNX Runtime (OpenCV 5's classic engine where it is not
installed). Each test pins one of those to the slow, obvious form it replaces, on real tray
photos where pixels matter.
"""

from __future__ import annotations

import base64
import json
import sys
import tempfile
from importlib import resources

import cv2
import numpy as np
import pytest
from dice_fixtures import byler

from vision import read
from vision.net import (
    CROP,
    CROP_SCALE,
    TILT,
    UNSURE_LOOKS,
    VIEWS,
    WIDE_SCALE,
    DiceNets,
    Found,
    _upright_looks,
    _views,
    crop,
    detector_input,
    read_model_file,
    shipped,
    thinned,
    to_blob,
)
from vision.runtime import load_onnx


@pytest.mark.parametrize(("h", "w"), [(640, 640), (3024, 4032), (4032, 3024), (1080, 1920),
                                      (481, 640), (639, 641)])
@pytest.mark.parametrize("step", [2, 3, 6, 12])
def test_thinning_keeps_every_step_th_pixel(h, w, step):
    """Thinning a frame before the detector's area resize takes the same pixels as numpy's
    strided slice, for frames whose sides are multiples of the step or not."""
    image = np.random.default_rng(h * w + step).integers(0, 256, (h, w, 3), np.uint8)
    assert np.array_equal(thinned(image, step), image[::step, ::step])


def test_blob_is_scaled_bytes_in_channel_order():
    """A batch blob is the images' bytes, channels first, mapped to -1..1 exactly as
    ``x / 127.5 - 1`` in float32 (what training fed the networks)."""
    images = np.stack([crop(image, (320.0, 320.0), 90.0) for _, image, _ in byler()[:5]])
    expected = images.astype(np.float32).transpose(0, 3, 1, 2) / np.float32(127.5) - 1
    blob = to_blob(images)
    assert blob.dtype == np.float32 and blob.flags.c_contiguous
    assert np.array_equal(blob, expected)
    assert np.array_equal(to_blob(images[0][None]), expected[:1])


def test_the_embedders_looks_are_the_turned_and_mirrored_cut_outs():
    """Look ``v`` of a batch (the face embedder's) is the cut-out turned ``v % 4`` quarter turns,
    mirrored from look 4 on, one whole batch per look: the eight looks of a die are eight
    different pictures of it."""
    _, image, truths = byler()[0]
    cuts = [crop(image, ((t.box[0] + t.box[2]) / 2, (t.box[1] + t.box[3]) / 2),
                 max(t.box[2] - t.box[0], t.box[3] - t.box[1]) * CROP_SCALE) for t in truths[:3]]
    looks = _views(to_blob(cuts), range(VIEWS)).reshape(VIEWS, len(cuts), 3, CROP, CROP)
    for i, cut in enumerate(cuts):
        for v in range(VIEWS):
            turned = np.rot90(cut[:, ::-1] if v >= 4 else cut, v % 4)
            assert np.array_equal(looks[v, i], to_blob(turned[None])[0])
        assert len({looks[v, i].tobytes() for v in range(VIEWS)}) == VIEWS


def test_the_classifiers_second_looks_are_upright():
    """An unsure die's seven more looks for the pip classifier are its cut-out mirrored and
    tilted ``TILT`` degrees either way, and a wider cut-out as it is, mirrored and tilted so:
    never a quarter turn, which would hide which face of a die seen at a slant is on top."""
    _, image, truths = byler()[0]
    found = [Found(t.box, 1.0) for t in truths[:3]]
    cuts = to_blob([crop(image, f.centre, f.side * CROP_SCALE) for f in found])
    looks = _upright_looks(image, found, cuts).reshape(-1, len(found), 3, CROP, CROP)
    assert len(looks) == UNSURE_LOOKS - 1 == 7  # _confirmed's bound counts on it
    for i, f in enumerate(found):
        narrow, wide = (crop(image, f.centre, f.side * s) for s in (CROP_SCALE, WIDE_SCALE))
        expected = [narrow[:, ::-1], crop(image, f.centre, f.side * CROP_SCALE, TILT),
                    crop(image, f.centre, f.side * CROP_SCALE, -TILT), wide, wide[:, ::-1],
                    crop(image, f.centre, f.side * WIDE_SCALE, TILT),
                    crop(image, f.centre, f.side * WIDE_SCALE, -TILT)]
        for v, picture in enumerate(expected):
            assert np.array_equal(looks[v, i], to_blob(picture[None])[0])


def _without_onnxruntime(monkeypatch) -> None:
    """As on a Pi whose OS has no ONNX Runtime wheel (32-bit): the import fails."""
    monkeypatch.setitem(sys.modules, "onnxruntime", None)


def _cut_outs(photos: int = 4) -> np.ndarray:
    return to_blob([crop(image, ((t.box[0] + t.box[2]) / 2, (t.box[1] + t.box[3]) / 2),
                         max(t.box[2] - t.box[0], t.box[3] - t.box[1]) * CROP_SCALE)
                    for _, image, truths in byler()[:photos] for t in truths])


@pytest.mark.parametrize("model, key", [("dice.json", "classifier"), ("faces.json", "embedder")])
def test_every_runner_gives_opencvs_default_outputs_on_real_cut_outs(monkeypatch, model, key):
    """ONNX Runtime (where installed) and OpenCV's classic engine (elsewhere) give the pip
    classifier's probabilities and the face embeddings of OpenCV's default engine, the engine
    the models were first measured with, on real cut-outs (to float rounding)."""
    encoded = read_model_file(model)[key]
    default = cv2.dnn.readNetFromONNX(np.frombuffer(base64.b64decode(encoded), np.uint8))
    batch = _cut_outs()
    default.setInput(batch)
    expected = default.forward()
    assert np.allclose(load_onnx(encoded)(batch), expected, atol=1e-5)
    _without_onnxruntime(monkeypatch)
    assert np.allclose(load_onnx(encoded)(batch), expected, atol=1e-5)


def test_the_detector_takes_any_frame_shape_with_either_runner(monkeypatch):
    """The detector's input keeps the frame's shape (a portrait frame, the half-size look):
    ONNX Runtime holds a network to the sizes its file names, so the shipped file leaves them
    free, and both runners give the same chances on a real photo at each size."""
    encoded = read_model_file("dice.json")["detector"]
    fast = load_onnx(encoded)
    _without_onnxruntime(monkeypatch)
    fallback = load_onnx(encoded)
    image = byler()[0][1]
    for shape in [(320, 320), (160, 160), (240, 320), (320, 184)]:
        small, _ = detector_input(cv2.resize(image, shape[::-1]), 1.0)
        out = fast(to_blob(small[None]))
        assert out.shape == (1, 5, shape[0] // 4, shape[1] // 4)
        assert np.allclose(out, fallback(to_blob(small[None])), atol=1e-4)


def test_a_photo_reads_the_same_with_either_runner(monkeypatch):
    """Where ONNX Runtime is missing the reader is slower, never different: the same dice,
    boxes, faces and confidences on real tray photos."""
    fast = shipped()
    _without_onnxruntime(monkeypatch)
    fallback = DiceNets.from_dict(read_model_file("dice.json"))
    for _, image, _ in byler()[:6]:
        ours, theirs = (read(image, "d6", nets=nets) for nets in (fast, fallback))
        assert [(d.face, d.box) for d in ours.dice] == [(d.face, d.box) for d in theirs.dice]
        assert np.allclose([d.confidence for d in ours.dice], [d.confidence for d in theirs.dice],
                           atol=1e-4)


def test_a_model_is_read_even_where_no_temporary_file_can_be_written(monkeypatch, tmp_path):
    """Without ONNX Runtime, a Pi whose temporary folder is full or read-only still reads the
    dice: OpenCV then reads the networks from memory (its default engine), with the same
    outputs."""
    _without_onnxruntime(monkeypatch)
    encoded = json.loads((resources.files("vision.models") / "dice.json").read_text())["classifier"]
    frame = np.random.default_rng(1).integers(0, 255, (2, 3, CROP, CROP)).astype(np.float32)
    expected = load_onnx(encoded)(frame)
    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path / "missing"))  # no folder to write
    assert np.allclose(load_onnx(encoded)(frame), expected, atol=1e-4)


def test_a_die_only_the_other_look_found_joins_the_kept_look():
    """A find of a look not kept joins when it is sure enough and no die already there holds
    its centre (nor it theirs): a pip of a die found whole, or the same die seen by both looks,
    is not counted twice; of two such finds over one spot only the surer joins."""
    from vision.net import ADDED, Found, _joined

    kept = [Found((100, 100, 140, 140), 0.8)]
    beside = Found((142, 100, 180, 138), ADDED + 0.1)
    pip = Found((110, 110, 118, 118), 0.9)
    unsure = Found((300, 300, 330, 330), ADDED - 0.01)
    same_spot = Found((145, 102, 182, 140), ADDED)
    joined = _joined(kept, [same_spot, pip, unsure, beside])
    assert joined == [kept[0], beside]
    assert _joined([], [beside]) == [beside]


@pytest.mark.parametrize("where", ["middle", "corner"])
def test_a_huge_die_is_cut_out_as_the_whole_frame_shrunk_by_area_would_give(where):
    """A find hundreds of pixels across (a close-up in a 12 MP photo) is thinned before the
    area resize of its square, as the detector's input is. Its cut-out stays the one the frame
    shrunk by pixel area gives, pips and all, also where the square runs off the frame."""
    _, image, truths = byler()[0]
    big = cv2.resize(image, None, fx=12, fy=12, interpolation=cv2.INTER_LINEAR)
    t = truths[0]
    centre = ((t.box[0] + t.box[2]) * 6.0, (t.box[1] + t.box[3]) * 6.0)
    if where == "corner":
        centre = (60.0, 90.0)
    side = max(t.box[2] - t.box[0], t.box[3] - t.box[1]) * 12 * CROP_SCALE
    shrink = side / (2 * CROP)
    assert shrink >= 6  # thinned to one pixel in three or fewer
    whole = cv2.resize(big, None, fx=1 / shrink, fy=1 / shrink, interpolation=cv2.INTER_AREA)
    slow = crop(whole, (centre[0] / shrink, centre[1] / shrink), side / shrink)
    fast = crop(big, centre, side)
    assert np.abs(fast.astype(int) - slow.astype(int)).mean() < 3
