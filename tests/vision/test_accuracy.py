"""Accuracy floors: real pip photos and synthetic coloured / symbol dice.

The floors sit a little under the figures of ``benchmarks/vision.py`` so that a regression fails
while run-to-run noise does not; the issue's targets are recorded in docs/vision.md. Each real
photo is read only by a model that never saw it (``vision.datasets.unseen_by``): the shipped
model reads the fold of every set it was held out from.
"""

from __future__ import annotations

from functools import cache

import dice_fixtures  # noqa: F401  (first: puts the repository before tests/ on sys.path)
import pytest

from benchmarks.vision import TRANSFORMS, score_set, unseen_frames
from vision import load_profile, read
from vision.datasets import SETS, set_frames
from vision.evaluate import Score, match
from vision.synth import render_set, synth_profiles

# Per set, over every photo of the shipped model's held-out fold 0 (byler 40 photos, aws 70,
# roboflow 89, webcam 85): at least ``dice`` labelled dice read, the least precision, recall and
# face accuracy, the most wrong faces read as certain and the largest share of found dice the host
# is asked about. Measured (issue 16: all-sets detector trained for 8,000 steps, the finds of the
# looks not kept joining the kept look's, a die read whole instead of by its pips, each die
# counted once, a quarter-size look for close-ups; the wide classifier retrained on that
# detector's finds with the tray drawn twice as often, a pip taught as no die, the webcam's dice
# matched to their top faces, its cut-outs learned upright and brought to one contrast, looked at
# again upright and, half of them, wider; a faint find read as a face counted, the classifier
# retrained with the faint finds it is asked about): byler .997 / .991 / .968, 0, 13.0 %; aws
# .996 / .979 / .937, 5, 11.8 %; roboflow .952 / .844 / .748, 0, 35.1 %; webcam 1.000 / .989 /
# .981, 0, 9.5 %. The tray asks a little more (five folds 10.4 -> 10.9 %: its floor .13 ->
# .135); before faint finds roboflow read .957 / .827 / .745 (docs/vision-lab.md, "Faint finds").
# Fold 0 of the classifier before read the tray at .979 (five folds: .960, now .963) and aws
# asked 9.7 % (five folds: 12.3 %, now 14.2 %, as a classifier that learned this detector's
# finds without the contrast did: 13.7 %; docs/vision-lab.md, "Cut-outs of one contrast"). The
# webcam's labels frame the top face: a die found whole counts (see ``vision.evaluate.match``).
REAL_FLOORS = {
    "byler": {"dice": 330, "precision": 0.99, "recall": 0.98, "face": 0.955,
              "certain_wrong": 1, "asked": 0.135},
    "aws": {"dice": 460, "precision": 0.99, "recall": 0.955, "face": 0.915,
            "certain_wrong": 7, "asked": 0.135},
    "roboflow": {"dice": 340, "precision": 0.93, "recall": 0.8, "face": 0.70,
                 "certain_wrong": 3, "asked": 0.40},
    "webcam": {"dice": 255, "precision": 0.985, "recall": 0.98, "face": 0.97,
               "certain_wrong": 2, "asked": 0.14},
}
# Per profile, 40 renders (seed 77): the least face accuracy and precision, the most wrong faces
# read as certain and the largest share asked. Measured with the all-sets model (issue 16, its
# classifier retrained with the tray drawn twice as often, whose "no die" the learned profiles
# ask of finds far from every taught face) and the profile defaults rebuilt with its detector:
# combat .979 / 1.000, 0, 0.5 %; corruption .968 / 1.000, 3, 5.4 %; rune 1.000 / .979 (4 false
# finds of 191; .984 with the classifier before), 0, 6.3 %; hero 1.000 / 1.000, 0, 3.3 %. The
# hero dice are drawn as the real ones look: thin white icons on red, yellow, green or blue
# bodies (the body says nothing of the face).
SYNTH_FLOORS = {
    "last-bastion/combat": {"face": 0.97, "precision": 0.98, "certain_wrong": 0, "asked": 0.05},
    "last-bastion/corruption": {"face": 0.94, "precision": 0.98, "certain_wrong": 3,
                                "asked": 0.11},
    "runemasters/rune": {"face": 0.97, "precision": 0.975, "certain_wrong": 0, "asked": 0.16},
    "aot/hero": {"face": 0.98, "precision": 0.98, "certain_wrong": 0, "asked": 0.07},
}


@cache
def held_out_score(name: str, transform: str = "none") -> Score:
    """The score over the photos of set ``name`` that the model reading them never saw (the
    shipped model's held-out fold; the folds of held-out models of the same recipe, if any),
    each transformed as the benchmark's row ``transform`` does: the benchmark's own reading."""
    return score_set(name, unseen_frames(name), transform)


@pytest.mark.parametrize("name", SETS)
def test_real_pip_photos_meet_floors(name):
    score, floor = held_out_score(name), REAL_FLOORS[name]
    assert score.labelled >= floor["dice"]  # the whole held-out fold was read
    assert score.precision >= floor["precision"]
    assert score.recall >= floor["recall"]
    assert score.face_accuracy >= floor["face"]


@pytest.mark.parametrize("name", SETS)
def test_real_wrong_faces_are_seldom_certain(name):
    score, floor = held_out_score(name), REAL_FLOORS[name]
    assert score.certain_wrong <= floor["certain_wrong"]
    assert score.uncertain_share <= floor["asked"]


@pytest.mark.parametrize("name", SETS)
def test_dim_light_is_asked_about_no_more_than_daylight(name):
    """Issue 16's row of photos at -40 % light. The classifier brings each cut-out to one
    contrast, by the mean and spread of its die's box, before reading it (docs/vision-lab.md,
    "Cut-outs of one contrast"): a dim die reads as surely as a lit one. Fold 0, asked in dim
    light before -> after (daylight): byler 14.0 -> 12.5 % (12.4 %), aws 15.5 -> 11.0 % (12.8 %),
    roboflow 41.8 -> 31.9 % (34.1 %), webcam 5.4 -> 4.2 % (8.0 %). Wrong faces read as certain:
    at most two more than in daylight (roboflow, the classifier that learned the faint finds:
    2 against 0 on fold 0, 9 against 5 over five folds)."""
    dim, daylight = held_out_score(name, "dark"), held_out_score(name)
    assert dim.labelled == daylight.labelled
    assert dim.uncertain_share <= daylight.uncertain_share + 0.01
    assert dim.certain_wrong <= daylight.certain_wrong + 2


@pytest.mark.parametrize("name", synth_profiles())
def test_synthetic_profiles_meet_floors(name):
    profile, score, floor = load_profile(name), Score(), SYNTH_FLOORS[name]
    for _, image, truths in render_set(name, 40, seed=77):
        score.add(read(image, profile), truths)
    assert score.face_accuracy >= floor["face"]
    assert score.precision >= floor["precision"]
    assert score.certain_wrong <= floor["certain_wrong"]
    assert score.uncertain_share <= floor["asked"]


def test_a_large_white_die_is_read_whole_not_by_its_pips():
    """Issue 16's webcam photos with their dice at twice the size. Each wrong face read as
    certain was one pip of a white die on the pale desk, taken for a die of face 1 while the die
    itself went unfound (24 on fold 0 with the classifier shipped before; 3 since it learned
    cut-outs centred on the pips of a die as no die). The first look still finds the pips as
    dice, and the half-size look the die: a larger find holding two or more much smaller ones
    now replaces them when it reads as a face and they mostly do not (docs/vision-lab.md,
    "Pipeline"): face accuracy .626 before, .768 since, and .869 since a look at a quarter of
    the size finds a close-up die whole and a find holding a single pip replaces it (.854 with
    the classifier that learned dice upright)."""
    score = held_out_score("webcam", "double")
    assert score.labelled >= 190
    assert score.certain_wrong <= 6
    assert score.face_accuracy >= 0.83


def test_a_close_up_die_showing_one_is_found_whole():
    """Webcam fold 0, ``dice_15`` at twice the size: two white dice showing 1 on the pale desk,
    about 90 pixels across. The first look found each pip as a die, which the classifier
    rightly reads as no die; the half-size look framed neither die surely, and a larger find
    replaced only two or more pips. Both dice went unread. A look at a quarter of the size
    finds them whole, and a find holding a single pip replaces it when it reads as a face
    ``WHOLE_ONE`` sure (docs/vision-lab.md, "Pipeline")."""
    _, image, truths = next(f for f in set_frames("webcam") if f[0] == "dice_15")
    seen, labels = TRANSFORMS["double"](image, truths)
    roll = read(seen, "d6")
    assert Score(top_faces=True).add(roll, labels) == [("1", "1"), ("1", "1")]
    assert len(roll.dice) == 2


def test_a_die_seen_at_a_slant_is_read_by_its_top_face():
    """aws fold 0, ``IMG_20191112_111750``: a phone low over the carpet sees the dice's front
    faces whole and their top faces foreshortened above them. A yellow die shows 2 on top and 4
    in front, a cream one 6 on top and 5 in front; the classifier, trained on cut-outs turned
    any way, could not tell which face was on top and read 4 and 5, both as certain. Trained
    upright (turned at most 25°) and looking again upright, it reads the top faces
    (docs/vision-lab.md, "Dice learned upright"). The detector trained for 8,000 steps frames the
    yellow die a few pixels higher than the one the classifier learned with, and the classifier
    reads it 4 at .72: never as certain, so the host is asked (docs/vision-lab.md, "The detector
    trained twice as long")."""
    _, image, truths = next(f for f in set_frames("aws") if f[0] == "IMG_20191112_111750")
    roll = read(image, "d6")
    outcomes = Score().add(roll, truths)
    assert outcomes[8] == ("6", "6")
    yellow = next(roll.dice[i] for i, j in match([d.box for d in roll.dice],
                                                  [t.box for t in truths]) if j == 0)
    assert yellow.face == "2" or yellow.uncertain


def test_tiny_dice_in_a_large_frame_are_looked_at_closer():
    """The tray photo in the middle of a canvas four times its side (dice a quarter of their
    size, issue 16's "dice at 20 px in a 1280 px frame"): the kept look saw them at a few
    input pixels and missed 3 in 10. A large frame whose dice were seen small is looked at
    again, closer, where they lie (docs/vision-lab.md, "Pipeline"): recall .700 -> .906, face
    accuracy .615 -> .835 on fold 0. The half-size look frames groups of such tiny dice as one
    die; a group is not read as a face, so its dice are not replaced by it (replacing any
    larger find holding smaller ones took this row from .597 to .456). Seen that small,
    touching dice are found as one, so the closer look's scale was too small for them
    (``IMG_20191208_111628``: 16 of 21 dice found): it runs all the looks and, when its own dice
    ask for it, looks once more, closer still (recall .894 -> .938, face accuracy .812 -> .891).
    Its dice are then kept over the frame's looks, which saw specks: competing by median score,
    it lost to them on a third of the photos (recall .938 -> .997, face accuracy .891 -> .974,
    docs/vision-lab.md, "A tray far away"); .959 with the classifier of one contrast (five folds:
    .960 -> .965, precision .945 -> .978)."""
    score = held_out_score("byler", "canvas")
    assert score.labelled == 340
    assert score.recall >= 0.99
    assert score.face_accuracy >= 0.955
    assert score.precision >= 0.955


@pytest.mark.parametrize("stem, dice", [("IMG_20191208_111316", 22), ("IMG_20191208_111628", 21)])
def test_a_tray_far_away_in_a_12_mp_photo_is_read_die_by_die(stem, dice):
    """Tray fold 0 off centre in a 12 MP frame (the benchmark's ``far`` row: a tray far away,
    seen by a 12 MP camera), dice about 40 pixels across. The look at half the size framed the
    whole tray as one die, and with it kept the dice were never seen closer: 1 die found of the
    22 of ``IMG_20191208_111316``. The look at twice the size, for a large frame its first look
    is unsure of, now comes first, so its dice, seen at 6 input pixels, are looked at closer.
    Where the first look is sure enough to skip it (``IMG_20191208_111628``: 2 dice found of 21),
    a single find is not kept over several in a large frame (docs/vision-lab.md, "A tray far
    away")."""
    _, image, truths = next(f for f in set_frames("byler") if f[0] == stem)
    seen, labels = TRANSFORMS["far"](image, truths)
    roll = read(seen, "d6")
    outcomes = Score().add(roll, labels)
    assert len(roll.dice) == len(labels) == dice
    assert sum(truth == face for truth, face in outcomes) >= dice - 2


def test_a_die_read_through_a_neighbours_box_is_doubted():
    """Two boxes over one spot (a second look at a die, or a box spanning two touching dice):
    the cut-out holds a neighbour's pips, so however sure the classifier is, the host is asked;
    a die standing apart keeps its certainty."""
    from vision.reader import _covered, _doubt_crowded
    from vision.roll import Die

    apart, first, second = (Die("4", 0.999, (0, 0, 40, 40), False),
                            Die("2", 0.99, (100, 100, 144, 143), False),
                            Die("1", 0.999, (104, 110, 133, 140), False))
    dice = [apart, first, second]
    doubted = _doubt_crowded(dice, _covered(dice))
    assert [d.uncertain for d in doubted] == [False, True, True]
    assert [(d.face, d.confidence) for d in doubted] == [("4", 0.999), ("2", 0.99), ("1", 0.999)]


def test_touching_tray_dice_are_both_found():
    """The half-size look is surer of a tray's dice as a whole, so it was kept, but it sees two
    touching dice as one: on fold 0 of the tray the detector missed 10 of 340 dice, each beside
    another (recall .971), which the first look had found. Its finds now join the kept look's
    (docs/vision-lab.md, "Pipeline"): 338 of 340."""
    from vision.datasets import photo_fold
    from vision.evaluate import match
    from vision.net import shipped

    found = labelled = 0
    for stem, image, truths in set_frames("byler"):
        if photo_fold(stem) == 0:
            boxes = [t.box for t in truths]
            found += len(match([f.box for f in shipped().detect(image)], boxes))
            labelled += len(boxes)
    assert labelled == 340
    assert found >= 336


@pytest.mark.parametrize("name, stem", [
    ("aws", "IMG_20191112_110918"),
    ("roboflow", "dice_415_jpg.rf.32ce07ff154d99c1f50f6951d837829c"),
])
def test_a_die_found_twice_is_one_die(name, stem):
    """A die seen at a slant can be found twice, whole and by its top face: two boxes over one
    spot, the second reading counted as a die of its own (a false find: on five folds, 16 of
    the 36 on aws and 58 of the 192 on roboflow were such a second box). Of two boxes more than
    half over each other only the surer reading is kept; it is still asked about, as any crowded
    box is (fold 0 photos)."""
    frame = next(f for f in set_frames(name, copies=True) if f[0] == stem)
    score = Score()
    roll = read(frame[1], "d6")
    score.add(roll, frame[2])
    assert score.precision == 1.0
    assert score.matched == len(roll.dice) >= 2
    assert any(d.uncertain for d in roll.dice)


def test_touching_dice_stay_two_dice():
    """Only boxes more than half over each other are one die: two dice side by side whose
    boxes overlap a little (40 % of the smaller) both stay; a box mostly inside another is
    dropped for the surer reading, which is still asked about."""
    from vision.reader import _covered, _doubt_crowded, _one_per_die
    from vision.roll import Die

    left, right = Die("3", 0.95, (0, 0, 50, 50), False), Die("5", 0.97, (30, 0, 80, 50), False)
    whole = Die("6", 0.99, (100, 100, 150, 160), False)
    top = Die("2", 0.6, (105, 100, 145, 135), True)
    found = [left, right, whole, top]
    covered = _covered(found)
    dice = _one_per_die(_doubt_crowded(found, covered), covered)
    assert [(d.face, d.uncertain) for d in dice] == [("3", True), ("5", True), ("6", True)]


def test_a_die_framed_off_its_top_face_is_read_by_the_wider_look():
    """Webcam fold 0, ``two_40``: four dice showing 2, seen at a slant. The detector frames one
    of them partly off its top face (its box over one pip and the die's side), and the cut-out
    around that box shows one pip: it was read as 1 when the second look turned and mirrored
    that same cut-out. The second look's wider cut-out (``WIDE_SCALE``) holds both pips, and
    all four dice read 2 (on five folds: webcam face accuracy .965 -> .978, docs/vision-lab.md)."""
    stem, image, truths = next(f for f in set_frames("webcam") if f[0] == "two_40")
    roll = read(image, "d6")
    assert Score(top_faces=True).add(roll, truths) == [("2", "2")] * 4
    assert len(roll.dice) == 4


def test_a_faint_die_on_a_busy_board_is_found_when_read_as_a_face():
    """Roboflow fold 0, ``dice_278``: a CATAN board photographed whole, a yellow die showing 2
    on a wheat tile, 22 pixels across. The detector scores it under its threshold (it finds
    its training photos' dice of that size on boards at .56) and it went unfound. A find the
    first look scores 0.15 or more, lying apart from every die found, now counts when the pip
    classifier reads it as a face 0.9 sure (five folds: roboflow .746 -> .768 of dice read
    right, docs/vision-lab.md, "Faint finds")."""
    stem = "dice_278_jpg.rf.618fc66c63c061938e2570687b36e37b"
    _, image, truths = next(f for f in set_frames("roboflow") if f[0] == stem)
    roll = read(image, "d6")
    assert Score().add(roll, truths) == [("2", "2"), ("4", "4")]
    assert len(roll.dice) == 2


def test_a_slanted_dies_side_face_is_not_a_second_die():
    """Webcam fold 0, ``dice_8``: white dice seen at a slant, labelled and found by their top
    faces. Below each top face the detector faintly scores the side face in front, which the
    classifier reads as a face (a 4 at 1.00): counted, it was a die that is not there. A faint
    find counts only one die side or more from every die found (docs/vision-lab.md, "Faint
    finds")."""
    _, image, truths = next(f for f in set_frames("webcam") if f[0] == "dice_8")
    roll = read(image, "d6")
    score = Score(top_faces=True)
    score.add(roll, truths)
    assert score.matched == len(roll.dice) == len(truths)


def test_training_is_shown_the_faint_finds_the_reader_confirms():
    """``DiceNets.faint_finds`` gives training what the reader asks the classifier to confirm
    (``train_vision.mistakes`` mines the false ones as no die): on ``dice_278`` the faint yellow
    die is among them, and none lies within a die side of a die the detector surely found."""
    from vision.net import APART, shipped

    stem = "dice_278_jpg.rf.618fc66c63c061938e2570687b36e37b"
    _, image, truths = next(f for f in set_frames("roboflow") if f[0] == stem)
    nets = shipped()
    sure = [f for f in nets.detect(image) if f.score >= nets.detect_threshold]
    faint = nets.faint_finds(image, sure)
    assert match([f.box for f in faint], [truths[0].box])
    for f in faint:
        for g in sure:
            distance = ((f.centre[0] - g.centre[0]) ** 2 + (f.centre[1] - g.centre[1]) ** 2) ** 0.5
            assert distance >= APART * max(f.side, g.side)
