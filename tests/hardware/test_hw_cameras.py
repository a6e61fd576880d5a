"""Cameras and the dice adapter: replays of video files and image folders, vision's settle
detection on their frames, a camera that disappears and comes back, and rolls turned into events
for what is expected. Faces come from a labelled reader: reading them is vision's job (tested in
tests/vision); here the question is when a roll is read and what it becomes."""

import sys
import time

import cv2
import hwtools
import numpy as np
import pytest
from hwfakes import dice_video, labelled_roll

import hardware.build
from companion import config as settings
from companion.engine import Blank, Expectation, Message, Template
from companion.i18n import catalog, render
from companion.speech import Announcer, load_catalogs
from hardware import MESSAGES_DIR, doctor
from hardware.cameras import (
    CameraError,
    CameraLibraryError,
    EndOfStream,
    OpenCVCamera,
    PiCamera,
    ReplayCamera,
)
from hardware.dice import DiceWatcher, dice_record
from hardware.status import Status
from vision import Die, Roll


def dice_expected(count: int) -> Expectation:
    """A game waiting for ``count`` d6 dice in a ``dice`` event."""
    return Expectation("dice", ("dice",), profile="d6", count=count,
                       templates=(Template("dice", blank=Blank("dice", "faces", "d6", count)),))


D6 = dice_expected(3)


def labelled(*faces):
    """A dice reader that knows the faces of the video (and counts its calls)."""
    def read(frame, profile, count):
        read.calls += 1
        return labelled_roll(profile, faces)
    read.calls = 0
    return read


def run_watcher(camera, expects, reader, **kwargs):
    records = []
    watcher = DiceWatcher(camera, expects, reader=reader, **kwargs)
    watcher.start(records.append)
    watcher.join(30)
    watcher.stop()
    return records


def test_a_settled_roll_in_a_video_becomes_one_dice_event(tmp_path):
    video = dice_video(tmp_path / "roll.avi", ["3", "5", "6"], profile="d6")
    reader = labelled("3", "5", "6")
    records = run_watcher(ReplayCamera(video, realtime=False), lambda: D6, reader)
    assert records == [{"type": "dice", "faces": ["3", "5", "6"], "source": "camera"}]
    assert reader.calls == 1                 # read once, when the tray was still


def test_nothing_is_read_while_the_game_waits_for_something_else(tmp_path):
    video = dice_video(tmp_path / "roll.avi", ["3", "5", "6"], profile="d6")
    card = Expectation("card", ("card",))
    reader = labelled("3", "5", "6")
    assert run_watcher(ReplayCamera(video, realtime=False), lambda: card, reader) == []
    assert reader.calls == 0


def roll_as_images(folder) -> None:
    """A video of a roll of 2 and 4, written to ``folder`` as one PNG per frame."""
    capture = cv2.VideoCapture(str(dice_video(folder / "roll.avi", ["2", "4"], profile="d6")))
    index = 0
    while (frame := capture.read())[0]:
        cv2.imwrite(str(folder / f"frame{index:03d}.png"), frame[1])
        index += 1


def test_a_folder_of_images_is_a_replay_too(tmp_path):
    roll_as_images(tmp_path)
    two = dice_expected(2)
    records = run_watcher(ReplayCamera(tmp_path, realtime=False), lambda: two, labelled("2", "4"))
    assert records == [{"type": "dice", "faces": ["2", "4"], "source": "camera"}]


def test_a_broken_image_in_a_folder_is_left_out_and_the_replay_goes_on(tmp_path, caplog):
    """One unreadable file among a folder's frames used to end each pass of the replay: the
    camera was reopened from the first frame, again and again, and never saw the frames after
    it (so never the roll)."""
    roll_as_images(tmp_path)
    broken = tmp_path / "frame002.png"
    broken.write_bytes(broken.read_bytes()[:200])
    two = dice_expected(2)
    started = time.monotonic()
    records = run_watcher(ReplayCamera(tmp_path, realtime=False), lambda: two,
                          labelled("2", "4"), retry=0.05)
    assert records == [{"type": "dice", "faces": ["2", "4"], "source": "camera"}]
    assert time.monotonic() - started < 20  # the replay ended: it did not start over
    assert [r.getMessage() for r in caplog.records if "frame002.png" in r.getMessage()] == [
        f"replay {tmp_path}: {broken}: truncated image file (left out)"]


def test_unsure_or_miscounted_rolls_ask_the_host():
    def roll(*faces, unsure=False):
        return Roll("d6", tuple(Die(f, 0.3 if unsure else 1.0, (0, 0, 9, 9), unsure)
                                for f in faces))
    assert dice_record(roll("3", "5"), D6) == Message("camera.count", {"seen": 2, "count": 3})
    assert dice_record(roll("3", "5", "6", unsure=True), D6) == Message(
        "camera.unsure", {"faces": ["3", "5", "6"]})


class FlakyCamera:
    """Gives frames, then fails twice (a loose cable), then gives frames again."""

    name = "flaky camera"

    def __init__(self):
        self.reads, self.opens = 0, 0

    def open(self):
        self.opens += 1

    def read(self):
        self.reads += 1
        if self.reads in (3, 4):
            raise CameraError("no frame")
        if self.reads > 8:
            raise EndOfStream("done")
        return self.reads / 10, np.zeros((64, 64, 3), np.uint8)

    def close(self):
        pass


def test_a_camera_that_disappears_is_reported_once_and_reopened():
    events = []
    status = Status(listener=lambda device, problem: events.append((device, problem)))
    camera = FlakyCamera()
    run_watcher(camera, lambda: D6, labelled("1"), status=status, retry=0.01)
    assert camera.opens == 3
    assert events == [("flaky camera", Message("problem.no_frames", {"detail": "no frame"})),
                      ("flaky camera", None)]


def test_missing_cameras_say_how_to_fix_them(tmp_path):
    with pytest.raises(CameraError, match="picamera2"):
        PiCamera().open()
    with pytest.raises(CameraError, match="does not exist"):
        ReplayCamera(tmp_path / "nothing.avi").open()
    (tmp_path / "empty").mkdir()
    with pytest.raises(CameraError, match="no frames"):
        ReplayCamera(tmp_path / "empty").open()
    with pytest.raises(CameraError, match="cannot be opened"):
        OpenCVCamera(str(tmp_path / "no-device")).open()


def test_a_webcam_that_stops_giving_frames_fails_clearly(tmp_path):
    video = dice_video(tmp_path / "roll.avi", ["1"], profile="d6", moving=1, still=1)
    camera = OpenCVCamera(str(video))
    camera.open()
    camera.read()
    camera.read()
    with pytest.raises(CameraError, match="unplugged"):
        camera.read()
    camera.close()


def test_the_roll_button_reads_at_once(tmp_path):
    video = dice_video(tmp_path / "roll.avi", ["3", "5", "6"], profile="d6", moving=0, still=3)
    records = []
    watcher = DiceWatcher(ReplayCamera(video, fps=5), lambda: D6, still_seconds=60,
                          reader=labelled("3", "5", "6"))
    watcher.read_now()
    watcher.start(records.append)
    watcher.join(10)
    assert records == [{"type": "dice", "faces": ["3", "5", "6"], "source": "camera"}]


def test_a_failing_dice_reader_is_reported_and_the_camera_goes_on(tmp_path):
    video = dice_video(tmp_path / "roll.avi", ["3"], profile="d6", moving=2, still=4)  # a roll

    def broken(frame, profile, count):
        raise FileNotFoundError("no model")
    status = Status()
    camera = ReplayCamera(video, realtime=False, loop=True)
    watcher = DiceWatcher(camera, lambda: D6, status, reader=broken, still_seconds=0.1)
    watcher.start(lambda record: None)
    assert hwtools.wait_until(lambda: "dice-reader" in status.problems)
    watcher.stop()
    assert status.text("dice-reader") == "reading failed (FileNotFoundError: no model)"
    assert status.snapshot("fr")["problems"] == {
        "Lecteur de dés": "la lecture a échoué (FileNotFoundError: no model)"}


BROKEN_PICAMERA2 = {
    # picamera2 from apt, built against the system's numpy, imported with pip's numpy 2
    "numpy": 'raise ValueError("numpy.dtype size changed, may indicate binary '
             'incompatibility. Expected 96 from C header, got 88 from PyObject")\n',
    "missing": 'raise ModuleNotFoundError("No module named \'libcamera\'")\n',
    "no camera": "class Picamera2:\n    def __init__(self):\n        raise IndexError("
                 "'list index out of range')\n",
    "odd": "class Picamera2:\n    def __init__(self):\n        raise KeyError('Model')\n",
}


@pytest.fixture(params=sorted(BROKEN_PICAMERA2))
def broken_picamera2(request, tmp_path, monkeypatch):
    """A real ``picamera2`` package on the path that fails the way it fails on a Pi."""
    package = tmp_path / "site" / "picamera2"
    package.mkdir(parents=True)
    (package / "__init__.py").write_text(BROKEN_PICAMERA2[request.param])
    monkeypatch.syspath_prepend(str(tmp_path / "site"))
    monkeypatch.delitem(sys.modules, "picamera2", raising=False)
    return request.param


def test_any_failure_to_open_a_pi_camera_is_a_camera_error_with_the_fix(broken_picamera2):
    with pytest.raises(CameraError) as raised:
        PiCamera().open()
    text = str(raised.value)
    if broken_picamera2 in ("numpy", "missing"):
        assert "picamera2 cannot be loaded" in text and "install.sh" in text
        assert broken_picamera2 != "numpy" or "numpy.dtype size changed" in text
    else:
        assert "no Pi camera answers" in text and "ribbon" in text


def test_a_camera_that_cannot_load_is_a_status_problem_said_once(broken_picamera2, tmp_path):
    """Under ``run``: the page's status names the camera and the fix, the voice says it once
    (however often the watcher retries), and the rest of the table keeps running."""
    voice = hwtools.RecordingVoice()
    announcer = Announcer(voice, "en", catalogs=[MESSAGES_DIR]).start()
    session = hwtools.started_game(tmp_path / "data")
    conf = tmp_path / "c.toml"
    conf.write_text('[camera]\nkind = "picamera2"\n[speech]\nenabled = false\n')
    table = hardware.build.start(session, settings.load([conf]), announcer, simulate=True)
    watcher = next(s for s in table.sources if isinstance(s, DiceWatcher))
    watcher.retry = 0.05
    try:
        assert hwtools.wait_until(lambda: "Pi camera" in table.status.problems)
        time.sleep(0.3)  # several retries
        problems = table.status.snapshot("en")["problems"]
        assert "Pi camera" in problems
        assert ("install.sh" in problems["Pi camera"]) or ("ribbon" in problems["Pi camera"])
        assert announcer.wait_idle()
        assert [text for text, _ in voice.lines] == [
            "Pi camera: not working; the companion goes on without it."]
        assert watcher._thread.is_alive()  # still retrying: a camera plugged in later works
    finally:
        table.stop()
        announcer.stop()
    checks = {c.name: c for c in doctor.run(settings.load([conf]), tmp_path)}
    assert checks["camera"].ok is False and "Pi camera" in checks["camera"].detail
    loading = broken_picamera2 in ("numpy", "missing")
    assert ("install.sh" if loading else "ribbon") in checks["camera"].fix


def test_an_opencv_that_cannot_load_is_a_camera_error(monkeypatch):
    monkeypatch.setitem(sys.modules, "cv2", None)  # import cv2 fails
    with pytest.raises(CameraLibraryError, match="camera 0 cannot be opened.*install.sh"):
        OpenCVCamera(0).open()


def heroes_expected(**counts: int) -> Expectation:
    """A game waiting for each hero's dice, each hero's of their own colour (Attack on Titan)."""
    return Expectation("dice", ("roll",), profile="aot/hero", templates=tuple(
        Template("roll", {"hero": hero}, Blank("dice", "faces", "aot/hero", count, colour=colour))
        for hero, (colour, count) in (("eren", ("red", counts.get("red", 5))),
                                      ("mikasa", ("blue", counts.get("blue", 5))))))


def coloured(*dice: tuple[str, str | None], unsure: bool = False) -> Roll:
    """A roll of (face, colour) dice."""
    return Roll("aot/hero", tuple(Die(face, 0.3 if unsure else 0.99, (0, 0, 9, 9), unsure, colour)
                                  for face, colour in dice))


def test_one_throw_of_two_players_dice_is_one_event_for_each():
    """«Les joueurs Héros lancent une première fois tous leurs dés, simultanément»
    (rules/attack-on-titan-last-stand.fr.txt, 2. Les Héros lancent leurs dés): one photo of
    both heroes' dice fills each hero's roll by the colour of their dice."""
    roll = coloured(*[("combat", "red")] * 2, *[("move", "blue")] * 5, *[("titan", "red")] * 3)
    assert dice_record(roll, heroes_expected()) == [
        {"type": "roll", "hero": "eren", "faces": ["combat", "combat", "titan", "titan", "titan"],
         "source": "camera"},
        {"type": "roll", "hero": "mikasa", "faces": ["move"] * 5, "source": "camera"}]


def test_dice_of_a_colour_nobody_waits_for_are_someone_elses_and_left_out():
    roll = coloured(*[("move", "blue")] * 5, *[("cannon", "green")] * 5)
    assert dice_record(roll, heroes_expected()) == [
        {"type": "roll", "hero": "mikasa", "faces": ["move"] * 5, "source": "camera"}]


def test_a_die_whose_colour_or_count_is_in_doubt_asks_the_host_and_fills_nothing():
    five_blue = [("move", "blue")] * 5
    assert dice_record(coloured(*five_blue, ("combat", None)), heroes_expected()) == Message(
        "camera.unsure", {"faces": ["combat", *["move"] * 5]})
    assert dice_record(coloured(*five_blue, ("combat", "red")), heroes_expected()) == Message(
        "camera.colour_count", {"colour": "red", "seen": 1, "count": 5})
    assert dice_record(coloured(("move", "blue"), unsure=True), heroes_expected(blue=1)) == \
        Message("camera.unsure", {"faces": ["move"]})
    assert dice_record(coloured(("move", "green")), heroes_expected()) == Message(
        "camera.no_colour", {"colours": ["red", "blue"]})


def test_a_colour_count_warning_reads_well_in_both_languages():
    message = Message("camera.colour_count", {"colour": "red", "seen": 1, "count": 5})
    texts = {lang: render(message, texts={**catalog(lang), **load_catalogs([MESSAGES_DIR], lang)})
             for lang in ("en", "fr")}
    assert texts["en"].startswith("The red dice: 1 seen, 5 expected")
    assert texts["fr"].startswith("Dés de couleur rouge : 1 vu, 5 attendus")
