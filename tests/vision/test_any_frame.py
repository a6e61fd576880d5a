"""Any frame gets a reading or a clean refusal: portrait, tiny, huge, grey, alpha, odd boxes.

The portrait case is the crash of issue 16: the detector found "dice" in its own replicated
padding, the boxes came out reversed after clipping and ``quality.sharpness`` ran ``cvtColor`` on
an empty crop. Property tests then try many frame shapes and box geometries.
"""

from __future__ import annotations

import numpy as np
import pytest
from dice_fixtures import byler, render_frame
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from vision import ImageError, read
from vision.detect import die_pixels
from vision.net import crop, shipped
from vision.quality import sharpness
from vision.roll import Roll

# A real tray photo cut to a narrow portrait strip ending inside a die: the die cut by the right
# edge is replicated across the detector's padding (found with the old code, see the module doc).
PORTRAIT_CUTS = [("IMG_20191208_112857", 305, 110), ("IMG_20191208_112541", 244, 50),
                 ("IMG_20191208_112920", 369, 110)]


def _photo(stem: str) -> np.ndarray:
    return next(image for name, image, _ in byler() if name == stem)


def _sane(roll: Roll, image: np.ndarray) -> None:
    h, w = image.shape[:2]
    for die in roll.dice:
        x0, y0, x1, y1 = die.box
        assert 0 <= x0 < x1 <= w and 0 <= y0 < y1 <= h, die.box


@pytest.mark.parametrize(("stem", "x0", "width"), PORTRAIT_CUTS)
@pytest.mark.parametrize("profile", ["d6", "last-bastion/combat"])
def test_portrait_strip_with_a_die_cut_by_the_edge(stem, x0, width, profile):
    image = _photo(stem)[:, x0 : x0 + width]
    roll = read(image, profile)
    _sane(roll, image)


def test_detector_never_reports_a_die_in_its_padding():
    image = _photo("IMG_20191208_112541")[:, 244:294]
    found = shipped().detect(image)
    assert all(0 <= f.centre[0] < 50 for f in found)
    assert len(found) < 10  # not a row of copies of the die on the edge


SHAPES = st.tuples(st.integers(1, 900), st.integers(1, 900))
CHANNELS = st.sampled_from([None, 1, 3, 4])


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(shape=SHAPES, channels=CHANNELS, seed=st.integers(0, 10_000),
       profile=st.sampled_from(["d6", "last-bastion/combat"]))
def test_any_shape_reads_or_refuses_cleanly(shape, channels, seed, profile):
    """Random frames: a rendered roll resized, cut and re-channelled to any shape."""
    rng = np.random.default_rng(seed)
    scene, _ = render_frame("d6", seed % 50, count=int(rng.integers(1, 6)))
    h, w = shape
    y, x = int(rng.integers(0, 640)), int(rng.integers(0, 640))
    image = np.ascontiguousarray(scene[y : y + h, x : x + w])
    if channels is None:
        image = image[:, :, 1]
    elif channels == 1:
        image = image[:, :, :1]
    elif channels == 4:
        image = np.dstack([image, np.full(image.shape[:2], 255, np.uint8)])
    _sane(read(image, profile), image)


@pytest.mark.parametrize("shape", [(1, 1, 3), (2, 3000, 3), (3000, 2, 3), (7, 5)])
def test_degenerate_frames(shape):
    image = np.random.default_rng(1).integers(0, 255, shape, dtype=np.uint8)
    assert isinstance(read(image, "d6"), Roll)


def test_mirrored_view_is_read_like_a_copy():
    image, _ = render_frame("d6", 3, count=4)
    assert read(image[:, ::-1], "d6").faces == read(image[:, ::-1].copy(), "d6").faces


@pytest.mark.parametrize("array", [
    np.zeros((10, 10, 2), np.uint8),
    np.zeros((10, 10, 3), np.float32),
    np.zeros((0, 10, 3), np.uint8),
    np.zeros((4, 4, 4, 3), np.uint8),
])
def test_unusable_arrays_are_image_errors(array):
    with pytest.raises(ImageError):
        read(array, "d6")


BOXES = st.tuples(*[st.integers(-50, 700)] * 4)


@settings(max_examples=200, deadline=None)
@given(box=BOXES, h=st.integers(1, 300), w=st.integers(1, 300))
def test_any_box_geometry(box, h, w):
    """Reversed, empty, outside or huge boxes: every box-level step answers without raising."""
    image = np.random.default_rng(h * w).integers(0, 255, (h, w, 3), dtype=np.uint8)
    assert sharpness(image, box) >= 0.0
    blob = die_pixels(image, box)
    assert blob is None or blob.mask.shape == (blob.box[3] - blob.box[1], blob.box[2] - blob.box[0])
    centre = ((box[0] + box[2]) / 2, (box[1] + box[3]) / 2)
    assert crop(image, centre, float(box[2] - box[0])).shape == (40, 40, 3)
