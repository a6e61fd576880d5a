"""The owner's taught faces are on disk before anyone is told "learned", all of one teaching or
none of it, and a failed write leaves the file as it was (vision/profile.py)."""

from __future__ import annotations

import os

import pytest

from vision.profile import (
    ProfileError,
    forget_taught,
    load_profile,
    save_taught,
    taught_faces,
    taught_path,
)

COMBAT = "last-bastion/combat"


@pytest.fixture
def vector():
    """A real feature vector of the shipped combat profile (its length is the embedder's)."""
    return next(iter(load_profile(COMBAT).examples.values()))[0]


@pytest.fixture
def synced(monkeypatch):
    """The inodes (device, inode) os.fsync was called on, in order."""
    calls: list[tuple[int, int]] = []
    real = os.fsync

    def fsync(fd):
        info = os.fstat(fd)
        calls.append((info.st_dev, info.st_ino))
        real(fd)

    monkeypatch.setattr(os, "fsync", fsync)
    return calls


def inode(path) -> tuple[int, int]:
    info = os.stat(path)
    return info.st_dev, info.st_ino


def test_a_teaching_is_on_disk_when_it_returns(tmp_path, vector, synced):
    path = save_taught(load_profile(COMBAT), {"red": [vector], "blue": [vector]}, tmp_path)
    assert inode(path) in synced  # the new file's contents
    assert synced[-1] == inode(path.parent)  # then its rename into the folder
    assert taught_faces(COMBAT, tmp_path) == {"red": 1, "blue": 1}
    assert [p.name for p in path.parent.iterdir()] == [path.name]  # no temporary file left


def test_forgetting_every_face_is_on_disk_when_it_returns(tmp_path, vector, synced):
    path = save_taught(load_profile(COMBAT), {"red": [vector]}, tmp_path)
    synced.clear()
    assert forget_taught(COMBAT, tmp_path) == 1
    assert not path.exists() and synced == [inode(path.parent)]


def test_one_unknown_face_teaches_none_of_them(tmp_path, vector):
    profile = load_profile(COMBAT)
    save_taught(profile, {"red": [vector]}, tmp_path)
    before = taught_path(COMBAT, tmp_path).read_bytes()
    with pytest.raises(ProfileError, match="'mauve'"):
        save_taught(profile, {"blue": [vector], "mauve": [vector]}, tmp_path)
    assert taught_path(COMBAT, tmp_path).read_bytes() == before


def test_a_failed_write_leaves_the_old_file_and_no_litter(tmp_path, vector, monkeypatch):
    profile = load_profile(COMBAT)
    path = save_taught(profile, {"red": [vector]}, tmp_path)
    before = path.read_bytes()

    def full_disk(*_):
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(os, "replace", full_disk)
    with pytest.raises(OSError):
        save_taught(profile, {"blue": [vector]}, tmp_path)
    assert path.read_bytes() == before
    assert [p.name for p in path.parent.iterdir()] == [path.name]
