"""The settled-roll detector: reports once, waits for the hand, notices a bump."""

from __future__ import annotations

import cv2
import numpy as np
from dice_fixtures import render_frame

from vision import SettledRollDetector, read
from vision.settle import hand_in_view

PROFILE = "last-bastion/combat"
FPS = 10.0


def _with_hand(frame: np.ndarray) -> np.ndarray:
    hand = frame.copy()
    cv2.ellipse(hand, (600, 320), (160, 70), 0, 0, 360, (120, 150, 215), -1)  # skin, BGR
    return hand


def _feed(detector, frames, start=0.0):
    reports = []
    for i, frame in enumerate(frames):
        report = detector.feed(frame, start + i / FPS)
        if report:
            reports.append(report)
    return reports


def test_reports_a_settled_roll_once():
    image, truths = render_frame(PROFILE, 11, count=4)
    detector = SettledRollDetector(lambda f: read(f, PROFILE), still_seconds=0.5)
    reports = _feed(detector, [image] * 30)
    assert len(reports) == 1
    assert sorted(reports[0].roll.faces) == sorted(t.face for t in truths)
    assert not reports[0].bumped


def test_waits_for_still_time():
    image, _ = render_frame(PROFILE, 11, count=4)
    detector = SettledRollDetector(lambda f: read(f, PROFILE), still_seconds=1.0)
    assert _feed(detector, [image] * 10) == []  # 0.9 s of stillness
    assert len(_feed(detector, [image] * 2, start=1.0)) == 1


def test_never_reports_while_dice_move():
    frames = [render_frame(PROFILE, seed, count=3)[0] for seed in range(8)]
    detector = SettledRollDetector(lambda f: read(f, PROFILE), still_seconds=0.2)
    assert _feed(detector, frames) == []


def test_waits_for_the_hand_to_leave():
    image, _ = render_frame(PROFILE, 12, count=3)
    assert hand_in_view(_with_hand(image)) and not hand_in_view(image)
    detector = SettledRollDetector(lambda f: read(f, PROFILE), still_seconds=0.3)
    assert _feed(detector, [_with_hand(image)] * 20) == []
    reports = _feed(detector, [image] * 10, start=2.0)
    assert len(reports) == 1 and reports[0].timestamp >= 2.3


def test_a_skin_toned_tray_is_not_a_hand():
    image, _ = render_frame(PROFILE, 12, count=3)
    tray = np.all(np.abs(image.astype(int) - image[5, 5]) < 40, axis=2)
    image[tray] = (92, 107, 151)  # tan cardboard, BGR
    assert not hand_in_view(image)
    detector = SettledRollDetector(lambda f: read(f, PROFILE), still_seconds=0.3)
    assert len(_feed(detector, [image] * 10)) == 1


def test_same_roll_after_a_shadow_is_not_reported_again():
    image, _ = render_frame(PROFILE, 13, count=3)
    darker = (image * 0.8).astype(np.uint8)
    detector = SettledRollDetector(lambda f: read(f, PROFILE), still_seconds=0.3)
    reports = _feed(detector, [image] * 10 + [darker] * 10 + [image] * 10)
    assert len(reports) == 1


def test_notices_a_bumped_die():
    rng = np.random.default_rng(5)
    from vision.synth import render

    # Same scene drawn twice with one die moved: render both from the same seed and faces.
    before, truths = render(PROFILE, np.random.default_rng(21), faces=["red", "blue", "white"])
    after = before.copy()
    x0, y0, x1, y1 = truths[2].box
    patch = before[y0:y1, x0:x1].copy()
    after[y0:y1, x0:x1] = np.median(before[:20, :20].reshape(-1, 3), axis=0)
    dx, dy = (int(v) for v in rng.integers(60, 90, 2))
    dx = dx if x1 + dx < 640 else -dx
    dy = dy if y1 + dy < 640 else -dy
    after[y0 + dy : y1 + dy, x0 + dx : x1 + dx] = patch
    detector = SettledRollDetector(lambda f: read(f, PROFILE), still_seconds=0.3)
    first = _feed(detector, [before] * 10)
    second = _feed(detector, [after] * 10, start=1.0)
    assert len(first) == 1 and len(second) == 1
    assert second[0].bumped
