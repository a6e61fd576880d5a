"""Bad input never crashes and never yields a guess presented as certain."""

from __future__ import annotations

import cv2
import numpy as np
import pytest
from dice_fixtures import render_frame

from vision import ImageError, ProfileError, load_image, read
from vision.quality import BLOWN_OUT, BLURRED, TOO_DARK
from vision.reader import NO_DICE, TOO_MANY


def test_not_an_image(tmp_path):
    path = tmp_path / "notes.jpg"
    path.write_text("these are not pixels")
    with pytest.raises(ImageError, match="not an image"):
        load_image(path)


def test_empty_file(tmp_path):
    path = tmp_path / "empty.png"
    path.write_bytes(b"")
    with pytest.raises(ImageError, match="empty"):
        load_image(path)


def test_missing_file(tmp_path):
    with pytest.raises(ImageError, match="cannot read"):
        load_image(tmp_path / "absent.jpg")


@pytest.mark.parametrize("suffix", [".jpg", ".png"])
def test_truncated_file(tmp_path, suffix):
    image, _ = render_frame("d6", 1, count=3)
    ok, data = cv2.imencode(suffix, image)
    assert ok
    path = tmp_path / f"cut{suffix}"
    path.write_bytes(data.tobytes()[: len(data) // 2])
    with pytest.raises(ImageError, match="truncated"):
        load_image(path)


def test_whole_file_loads(tmp_path):
    image, _ = render_frame("d6", 1, count=3)
    path = tmp_path / "ok.png"
    cv2.imwrite(str(path), image)
    assert load_image(path).shape == image.shape


def test_unknown_profile():
    with pytest.raises(ProfileError, match="unknown die profile"):
        read(np.zeros((64, 64, 3), np.uint8), "d7")


def test_black_frame():
    roll = read(np.zeros((480, 640, 3), np.uint8), "d6")
    assert roll.notes == (TOO_DARK,) and not roll.dice and not roll.certain


def test_blown_out_frame():
    roll = read(np.full((480, 640, 3), 255, np.uint8), "d6")
    assert roll.notes == (BLOWN_OUT,) and not roll.certain


@pytest.mark.parametrize("colour", [(200, 200, 200), (40, 120, 30), (90, 30, 20)])
def test_plain_tray_has_no_dice(colour):
    tray = np.full((640, 640, 3), colour, np.uint8)
    noisy = np.clip(tray + np.random.default_rng(0).normal(0, 3, tray.shape), 0, 255)
    roll = read(noisy.astype(np.uint8), "d6")
    assert roll.notes == (NO_DICE,) and not roll.dice and not roll.certain


def test_motion_blur_marks_every_die_uncertain():
    image, _ = render_frame("last-bastion/combat", 3, count=5)
    kernel = np.zeros((21, 21), np.float32)
    kernel[10, :] = 1 / 21
    roll = read(cv2.filter2D(image, -1, kernel), "last-bastion/combat")
    assert BLURRED in roll.notes or not roll.dice
    assert all(d.uncertain for d in roll.dice) and not roll.certain


def test_sharp_frame_is_not_called_blurred():
    image, _ = render_frame("last-bastion/combat", 3, count=5)
    assert BLURRED not in read(image, "last-bastion/combat").notes


def test_more_dice_than_expected():
    image, truths = render_frame("last-bastion/combat", 4, count=5)
    roll = read(image, "last-bastion/combat", expected=2)
    assert TOO_MANY in roll.notes and not roll.certain
    assert TOO_MANY not in read(image, "last-bastion/combat", expected=len(truths)).notes


def test_grey_and_alpha_arrays_are_accepted():
    grey = np.full((100, 100), 128, np.uint8)
    assert read(grey, "d6").notes == (NO_DICE,)
    assert read(np.dstack([grey] * 4), "d6").notes == (NO_DICE,)


def test_wrong_array_type_is_an_image_error():
    with pytest.raises(ImageError):
        read(np.zeros((10, 10, 3), np.float64), "d6")
