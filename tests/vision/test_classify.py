"""The face classifier of learned profiles: nearest taught mean, confidence, and "not a die"."""

from __future__ import annotations

import dice_fixtures  # noqa: F401  (the repository's vision package first: see its docstring)
import numpy as np
import pytest

from vision.classify import DOUBTFUL, FAR, FAR_OFF, NOT_A_DIE, SURE_RATIO, FaceClassifier


@pytest.fixture
def taught() -> tuple[FaceClassifier, dict[str, np.ndarray]]:
    """Three faces in 8 features, 10 noisy examples each (the spread of a real teaching)."""
    rng = np.random.default_rng(3)
    centres = {face: rng.normal(0, 3, 8) for face in ("skull", "eye", "flame")}
    examples = {face: (c + rng.normal(0, 1, (10, 8))).tolist() for face, c in centres.items()}
    return FaceClassifier(examples), centres


def test_a_new_example_goes_to_its_face_and_is_sure(taught):
    classifier, centres = taught
    rng = np.random.default_rng(4)
    for face, centre in centres.items():
        guess = classifier.guess((centre + rng.normal(0, 1, 8)).astype(np.float32))
        assert guess is not None and guess.face == face and guess.confidence > 0.5


def test_halfway_between_two_faces_is_asked(taught):
    classifier, centres = taught
    guess = classifier.guess(((centres["skull"] + centres["eye"]) / 2).astype(np.float32))
    assert guess is not None and guess.confidence < 0.5


def _raw(classifier: FaceClassifier, point: np.ndarray) -> np.ndarray:
    """The feature vector that the classifier's metric maps to ``point``."""
    return (point @ np.linalg.inv(classifier.transform)).astype(np.float32)


def test_sure_up_to_the_ratio_that_gives_half_and_asked_beyond():
    """Between two taught faces, the die is read as certain while it is clearly closer to one
    (d1/d2 under ``(1 + SURE_RATIO) / 2``: 0.675) and asked about beyond; on the taught pips
    that boundary keeps most wrong faces asked (docs/vision-lab.md)."""
    rng = np.random.default_rng(5)
    centres = {"skull": np.zeros(8), "eye": np.full(8, 3.0)}
    classifier = FaceClassifier(
        {face: (c + rng.normal(0, 1, (10, 8))).tolist() for face, c in centres.items()})
    skull, eye = classifier.means
    half = (1 + SURE_RATIO) / 2
    guesses = {}
    for ratio in (half - 0.03, half + 0.03):
        point = skull + ratio / (1 + ratio) * (eye - skull)  # d1 / d2 = ratio on the segment
        assert np.linalg.norm(point - skull) / classifier.reach < FAR  # only the ratio counts
        guesses[ratio] = classifier.guess(_raw(classifier, point))
    sure, asked = guesses[half - 0.03], guesses[half + 0.03]
    assert sure.face == asked.face == "skull"
    assert sure.confidence >= 0.5 > asked.confidence


def test_unlike_every_taught_face_is_asked_before_it_is_no_die(taught):
    """A find far from every taught face, though nearest one of them, is an untaught face (the
    profile's faces are open) or a poor look: asked about from ``FAR_OFF`` reaches, dropped as
    no die only from ``NOT_A_DIE``."""
    classifier, _ = taught
    others = classifier.means[1:] - classifier.means[0]
    away = np.linalg.svd(others, full_matrices=True)[2][-1]  # unit, away from both other faces
    confidence = {}
    for reaches in (FAR - 0.2, (FAR + FAR_OFF) / 2, FAR_OFF + 0.2):
        point = classifier.means[0] + away * reaches * classifier.reach
        guess = classifier.guess(_raw(classifier, point))
        assert guess is not None and guess.face == "skull"
        confidence[reaches] = guess.confidence
    assert confidence[FAR - 0.2] > confidence[(FAR + FAR_OFF) / 2] > 0.0
    assert confidence[FAR_OFF + 0.2] == 0.0


def test_far_from_every_taught_face_is_no_die(taught):
    """The detector's false finds (a hole in the tray, a corner): dropped when far from every
    taught face, sooner when the pip classifier is sure it is no die; a find close to a taught
    face is kept whatever the pip classifier says (it never saw symbol dice)."""
    classifier, centres = taught
    away = np.ones(8) / np.sqrt(8)

    def at(reaches: float) -> np.ndarray:
        """A point ``reaches`` typical distances from the skull's mean, away from the others."""
        step = np.linalg.norm(away @ classifier.transform)
        return (centres["skull"] + away * reaches * classifier.reach / step).astype(np.float32)

    direction = classifier.means - at(0) @ classifier.transform
    assert np.linalg.norm(direction, axis=1).argmin() == 0  # the skull's own mean is closest
    asked = []

    def pip_classifier(says: float):
        return lambda: asked.append(says) or says

    assert classifier.guess(at(0.5), pip_classifier(1.0)) is not None
    assert asked == []  # close to a taught face: the pip classifier is not even asked
    assert classifier.guess(at(DOUBTFUL + 0.3), pip_classifier(0.5)) is not None
    assert classifier.guess(at(DOUBTFUL + 0.3), pip_classifier(0.95)) is None
    assert asked == [0.5, 0.95]
    assert classifier.guess(at(NOT_A_DIE + 0.5)) is None


def test_one_example_per_face_still_reads():
    """An owner may teach one die per face: no left-out spread to measure, yet a reading."""
    classifier = FaceClassifier({"a": [[0.0, 0.0]], "b": [[10.0, 0.0]]})
    guess = classifier.guess(np.array([1.0, 0.0], np.float32))
    assert guess is not None and guess.face == "a"
    assert FaceClassifier({}).guess(np.zeros(2, np.float32)) is None
