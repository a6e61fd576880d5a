"""The face classifier of learned profiles: nearest taught mean, confidence, and "not a die"."""

from __future__ import annotations

import numpy as np
import pytest

from vision.classify import DOUBTFUL, NOT_A_DIE, FaceClassifier


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
