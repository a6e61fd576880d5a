"""One roll, one event: the live watcher on a frame sequence read by the real reader.

Issue 16: in ``companion run`` the watcher started a new settle detector each time the game asked
for dice, so one untouched tray gave the same faces twice with nobody rolling; and a new roll was
labelled "bumped" when a single die matched the last roll. The sequence here is: dice at rest
(the game waits for a card), the game asks, asks again, a roll, a bump, another roll.
"""

from __future__ import annotations

import numpy as np
from dice_fixtures import render_frame

from companion.engine import Blank, Expectation, Message, Template
from hardware.cameras import EndOfStream
from hardware.dice import DiceWatcher
from vision import SettledRollDetector, read
from vision.synth import render

PROFILE = "last-bastion/combat"
DICE = Expectation("dice", ("dice",), profile=PROFILE, count=4,
                   templates=(Template("dice", blank=Blank("dice", "faces", PROFILE, 4)),))
CARD = Expectation("card", ("card",))
FPS = 10.0


class ScriptedCamera:
    """Frames of a script, each with what the game expects while it is on screen."""

    name = "scripted camera"

    def __init__(self, script):
        self.script, self.index, self.current = script, 0, CARD

    def open(self):
        pass

    def read(self):
        if self.index >= len(self.script):
            raise EndOfStream("done")
        frame, self.current = self.script[self.index]
        self.index += 1
        return self.index / FPS, frame

    def close(self):
        pass


def _bumped(before: np.ndarray, truths) -> np.ndarray:
    """``before`` with its last die moved by about two die sides (the others left in place)."""
    after = before.copy()
    x0, y0, x1, y1 = truths[-1].box
    patch = before[y0:y1, x0:x1].copy()
    after[y0:y1, x0:x1] = np.median(before[:20, :20].reshape(-1, 3), axis=0)
    dx = 80 if x1 + 80 < 640 else -80
    dy = 80 if y1 + 80 < 640 else -80
    after[y0 + dy : y1 + dy, x0 + dx : x1 + dx] = patch
    return after


def _tumbling(seed: int, count: int = 5) -> list[np.ndarray]:
    return [render_frame(PROFILE, seed + i, count=4)[0] for i in range(count)]


def test_rest_ask_ask_again_roll_bump_roll():
    rest, _ = render(PROFILE, np.random.default_rng(40), faces=["red", "blue", "white", "red"])
    first, first_truths = render(PROFILE, np.random.default_rng(41),
                                 faces=["blue", "blue", "white", "red"])
    bump = _bumped(first, first_truths)
    second, _ = render(PROFILE, np.random.default_rng(42),
                       faces=["white", "red", "red", "blue"])
    script = (
        [(rest, CARD)] * 10  # dice lying there from before: the game waits for a card
        + [(rest, DICE)] * 10  # the game asks: nobody has rolled
        + [(rest, CARD)] * 3 + [(rest, DICE)] * 10  # and asks again
        + [(f, DICE) for f in _tumbling(100)] + [(first, DICE)] * 10  # a roll
        + [(bump, DICE)] * 10  # a die knocked
        + [(f, DICE) for f in _tumbling(200)] + [(second, DICE)] * 10  # another roll
    )
    camera = ScriptedCamera(script)
    records = []
    watcher = DiceWatcher(camera, lambda: camera.current, still_seconds=0.3)
    watcher.start(records.append)
    watcher.join(60)
    watcher.stop()
    faces = [r["faces"] for r in records if isinstance(r, dict)]
    assert faces == [read(first, PROFILE).faces, read(second, PROFILE).faces]
    assert [r.key for r in records if isinstance(r, Message)] == ["camera.bumped"]
    assert [type(r) for r in records] == [dict, Message, dict]


def test_a_new_roll_with_one_die_in_the_same_place_is_not_bumped():
    before, truths = render(PROFILE, np.random.default_rng(50),
                            faces=["red", "blue", "white", "red"])
    after = np.full_like(before, np.median(before[:20, :20].reshape(-1, 3), axis=0))
    x0, y0, x1, y1 = truths[0].box  # one die stays, three others land elsewhere
    after[y0:y1, x0:x1] = before[y0:y1, x0:x1]
    for i, t in enumerate(truths[1:]):
        bx0, by0, bx1, by1 = t.box
        tx, ty = 60 + 150 * i, 480
        after[ty : ty + by1 - by0, tx : tx + bx1 - bx0] = before[by0:by1, bx0:bx1]
    detector = SettledRollDetector(lambda f: read(f, PROFILE), still_seconds=0.3)
    reports = [r for i, f in enumerate([before] * 10 + _tumbling(300) + [after] * 10)
               if (r := detector.feed(f, i / FPS))]
    assert len(reports) == 2 and not reports[1].bumped


def test_the_roll_button_is_not_counted_again_when_the_tray_settles():
    image, _ = render(PROFILE, np.random.default_rng(60), faces=["red", "blue", "white", "red"])
    detector = SettledRollDetector(lambda f: read(f, PROFILE), still_seconds=0.3)
    assert detector.take(image).dice
    assert [detector.feed(image, i / FPS) for i in range(10)] == [None] * 10
