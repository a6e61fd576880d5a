"""The ``dice`` command group and teaching faces."""

from __future__ import annotations

import argparse
import json

import cv2
import numpy as np
import pytest
from dice_fixtures import render_frame

from vision import ProfileError, load_profile, read, teach
from vision.cli import add_dice_parser
from vision.evaluate import Score
from vision.features import version
from vision.profile import list_profiles, profile_data, taught_path
from vision.synth import render


def run(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="companion")
    add_dice_parser(parser.add_subparsers(dest="command", required=True), lambda: "en",
                    lambda given: given)
    args = parser.parse_args(argv)
    return args.func(args)


@pytest.fixture
def photo(tmp_path):
    image, truths = render_frame("last-bastion/combat", 31, count=3)
    path = tmp_path / "roll.png"
    cv2.imwrite(str(path), image)
    return path, truths


def test_read_json_prints_one_object_per_image(photo, tmp_path, capsys):
    path, truths = photo
    assert (
        run(
            [
                "dice",
                "read",
                str(path),
                str(path),
                "--profile",
                "last-bastion/combat",
                "--json",
                "--data-dir",
                str(tmp_path),
            ]
        )
        == 0
    )
    lines = capsys.readouterr().out.strip().split("\n")
    assert len(lines) == 2
    result = json.loads(lines[0])
    assert result["image"] == str(path) and result["ms"] >= 0
    expected = read(cv2.imread(str(path)), "last-bastion/combat").to_dict()
    assert result["dice"] == expected["dice"] and result["notes"] == expected["notes"]
    assert len(result["dice"]) >= len(truths) - 1
    assert all(len(d["box"]) == 4 and 0 <= d["confidence"] <= 1 for d in result["dice"])


def test_read_text_shows_face_confidence_box_and_ms(photo, tmp_path, capsys):
    path, _ = photo
    assert (
        run(
            [
                "dice",
                "read",
                str(path),
                "--profile",
                "last-bastion/combat",
                "--data-dir",
                str(tmp_path),
            ]
        )
        == 0
    )
    out = capsys.readouterr().out
    assert " ms" in out and "[" in out


@pytest.mark.parametrize("content", [b"", b"not an image at all"])
def test_read_bad_file_is_one_line_and_exit_2(tmp_path, capsys, content):
    bad = tmp_path / "bad.jpg"
    bad.write_bytes(content)
    assert run(["dice", "read", str(bad), "--profile", "d6"]) == 2
    err = capsys.readouterr().err
    assert err.startswith("error: ") and err.count("\n") == 1


def test_what_the_owner_reads_is_in_their_language(photo, tmp_path, capsys):
    """French for a French table: errors, the count of dice and the notes."""
    bad = tmp_path / "bad.jpg"
    bad.write_bytes(b"not an image at all")
    assert run(["dice", "read", str(bad), "--profile", "d6", "--lang", "fr"]) == 2
    assert capsys.readouterr().err == (
        f"erreur : {bad} : pas une image qu'OpenCV sait décoder\n")
    path, _ = photo
    assert run(["dice", "read", str(path), "--profile", "last-bastion/combat",
                "--expected", "1", "--lang", "fr"]) == 0
    out = capsys.readouterr().out
    assert f"{path} : 3 dés en " in out and "remarque : plus de dés que prévu" in out


def test_unknown_profile_exit_2(photo, capsys):
    path, _ = photo
    assert run(["dice", "read", str(path), "--profile", "d7"]) == 2
    assert "unknown die profile" in capsys.readouterr().err


def test_teach_pip_profile_is_refused(photo, tmp_path, capsys):
    path, _ = photo
    assert (
        run(
            [
                "dice",
                "teach",
                str(path),
                "--profile",
                "d6",
                "--face",
                "3",
                "--count",
                "3",
                "--data-dir",
                str(tmp_path),
            ]
        )
        == 2
    )
    assert "needs no teaching" in capsys.readouterr().err


def test_teach_unknown_face_is_refused(photo, tmp_path):
    path, _ = photo
    assert (
        run(
            [
                "dice",
                "teach",
                str(path),
                "--profile",
                "last-bastion/combat",
                "--face",
                "purple",
                "--count",
                "3",
                "--data-dir",
                str(tmp_path),
            ]
        )
        == 2
    )


def test_teach_owner_named_corruption_faces(tmp_path):
    """Teach the six faces under the owner's names, then read new renders with them."""
    names = ["skull", "eye", "flame", "chain", "void", "crown"]
    rng = np.random.default_rng(40)
    for i, name in enumerate(names):
        images = [
            render("last-bastion/corruption", rng, faces=[f"corruption-{i + 1}"] * 3)[0]
            for _ in range(3)
        ]
        assert teach("last-bastion/corruption", name, images, tmp_path, count=3).learned >= 6
    profile = load_profile("last-bastion/corruption", tmp_path)
    assert profile.faces == tuple(names)
    rename = {f"corruption-{i + 1}": n for i, n in enumerate(names)}
    score = Score()
    for _ in range(15):
        image, truths = render("last-bastion/corruption", rng)
        truths = tuple(type(t)(rename[t.face], t.box) for t in truths)
        score.add(read(image, profile), truths)
    assert score.face_accuracy >= 0.95


def test_teach_without_dice_is_an_error(tmp_path):
    with pytest.raises(ProfileError, match="no die"):
        teach("last-bastion/combat", "red", [np.full((200, 200, 3), 150, np.uint8)], tmp_path)


def two_rolls(tmp_path):
    """A folder of 24 frames: a roll of three combat dice, then one of two, 12 frames each."""
    first, _ = render_frame("last-bastion/combat", 50, count=3)
    second, _ = render_frame("last-bastion/combat", 51, count=2)
    folder = tmp_path / "frames"
    folder.mkdir()
    for i, frame in enumerate([first] * 12 + [second] * 12):
        cv2.imwrite(str(folder / f"{i:03d}.png"), frame)
    return folder


def watch(folder, tmp_path, *more: str) -> int:
    return run(["dice", "watch", "--video", str(folder), "--profile", "last-bastion/combat",
                "--still", "0.3", "--data-dir", str(tmp_path), *more])


def test_watch_prints_each_settled_roll(tmp_path, capsys):
    assert watch(two_rolls(tmp_path), tmp_path) == 0
    out = capsys.readouterr().out
    assert out.count(" roll: ") == 2


def test_watch_leaves_out_a_broken_image_names_it_and_goes_on(tmp_path, capsys):
    folder = two_rolls(tmp_path)
    (folder / "006.png").write_bytes(b"not pixels")
    assert watch(folder, tmp_path, "--lang", "fr") == 2
    printed = capsys.readouterr()
    assert printed.out.count(" s lancer : ") == 2
    assert printed.err == f"erreur : {folder / '006.png'} : pas une image qu'OpenCV sait décoder\n"


def test_watch_missing_video_exit_2(tmp_path, capsys):
    assert run(["dice", "watch", "--video", str(tmp_path / "none.mp4"), "--profile", "d6"]) == 2
    assert "no such file" in capsys.readouterr().err


def test_profiles_are_parsed_once_until_the_taught_file_changes(photo, tmp_path):
    first = load_profile("last-bastion/combat", tmp_path)
    assert load_profile("last-bastion/combat", tmp_path) is first  # no JSON read per frame
    image = cv2.imread(str(photo[0]))
    teach("last-bastion/combat", "red", [image], tmp_path, count=3)
    taught = load_profile("last-bastion/combat", tmp_path)
    assert taught is not first and len(taught.examples["red"]) != len(first.examples["red"])
    assert load_profile("last-bastion/combat", tmp_path) is taught


def _reds(seed: int, count: int) -> np.ndarray:
    return render("last-bastion/combat", np.random.default_rng(seed), faces=["red"] * count)[0]


def test_teaching_learns_only_as_many_dice_as_the_owner_says(tmp_path, capsys):
    """Issue 16: three photos of 3 dice gave "learned 10 dice" (stray finds learned too)."""
    photos = []
    for seed, count in ((70, 3), (71, 4), (72, 3)):  # the second photo holds a 4th die
        photos.append(tmp_path / f"red{seed}.png")
        cv2.imwrite(str(photos[-1]), _reds(seed, count))
    argv = ["dice", "teach", *map(str, photos), "--profile", "last-bastion/combat",
            "--face", "red", "--count", "3", "--data-dir", str(tmp_path)]
    assert run(argv) == 0
    out = capsys.readouterr().out
    assert "learned 9 dice showing 'red'" in out
    assert f"{photos[1]}: 4 dice found, you said 3: the 3 clearest learned" in out
    assert run(["dice", "faces", "list", "--profile", "last-bastion/combat",
                "--data-dir", str(tmp_path)]) == 0
    assert "red: 9 examples taught" in capsys.readouterr().out


def test_a_photo_with_fewer_dice_than_said_is_named(tmp_path):
    taught = teach("last-bastion/combat", "red", [_reds(73, 2)], tmp_path, count=3)
    assert taught.found == (2,) and taught.kept == (2,) and taught.learned == 2
    with pytest.raises(ProfileError, match="1 or more"):
        teach("last-bastion/combat", "red", [_reds(73, 2)], tmp_path, count=0)


def test_faces_remove_and_reset(tmp_path, capsys):
    teach("last-bastion/combat", "red", [_reds(74, 3)], tmp_path, count=3)
    teach("last-bastion/combat", "blue", [render("last-bastion/combat", np.random.default_rng(
        75), faces=["blue"] * 2)[0]], tmp_path, count=2)
    base = ["--profile", "last-bastion/combat", "--data-dir", str(tmp_path)]
    assert run(["dice", "faces", "remove", "--face", "red", *base, "--lang", "fr"]) == 0
    assert "3 exemples de 'red' oubliés" in capsys.readouterr().out
    assert load_profile("last-bastion/combat", tmp_path).examples["red"] == load_profile(
        "last-bastion/combat").examples["red"]  # the shipped defaults again
    assert run(["dice", "faces", "remove", "--face", "red", *base]) == 2
    assert "has no taught face 'red' (taught: blue)" in capsys.readouterr().err
    assert run(["dice", "faces", "reset", *base]) == 0
    assert "forgot every taught face (2 examples)" in capsys.readouterr().out
    assert run(["dice", "faces", "list", *base]) == 0
    assert "nothing taught" in capsys.readouterr().out
    assert run(["dice", "faces", "list", "--profile", "d7", "--data-dir", str(tmp_path)]) == 2


def test_faces_taught_by_an_older_version_are_refused_and_can_be_reset(tmp_path, capsys):
    """A retrained face embedder keeps the vectors' length but not their meaning: faces taught
    before it (a file without the version, or with another) are refused with "teach them again",
    never read with today's examples, and ``faces reset`` still clears them. So are faces taught
    with today's embedder before it was shown wider cut-outs too: their numbers differ as much."""
    teach("last-bastion/combat", "red", [_reds(76, 3)], tmp_path, count=3)
    path = taught_path("last-bastion/combat", tmp_path)
    saved = json.loads(path.read_text())
    assert saved["features"] == version()
    base = ["--profile", "last-bastion/combat", "--data-dir", str(tmp_path)]
    before_wide_looks = version().removesuffix("-wide")  # today's embedder, the narrow looks only
    for stamp in (None, "60-0123456789ab", before_wide_looks):
        old = {"profile": saved["profile"], "examples": saved["examples"]}
        if stamp:
            old["features"] = stamp
        path.write_text(json.dumps(old))
        with pytest.raises(ProfileError, match="teach them again"):
            load_profile("last-bastion/combat", tmp_path)
        assert run(["dice", "read", str(tmp_path / "none.png"), *base]) == 2
        assert run(["dice", "faces", "list", *base, "--lang", "fr"]) == 2
        assert "apprenez-les à nouveau" in capsys.readouterr().err
        with pytest.raises(ProfileError, match="faces reset --profile last-bastion/combat"):
            teach("last-bastion/combat", "red", [_reds(76, 3)], tmp_path, count=3)
    assert run(["dice", "faces", "reset", *base]) == 0
    assert "forgot every taught face (3 examples)" in capsys.readouterr().out
    assert not path.exists()
    assert load_profile("last-bastion/combat", tmp_path).examples == load_profile(
        "last-bastion/combat").examples


def test_shipped_defaults_were_made_by_the_shipped_embedder():
    """``python -m companion.dicehandoff defaults`` must be run after the face embedder is
    retrained."""
    learned = [profile_data(name) for name in list_profiles()]
    learned = [data for data in learned if data["kind"] == "learned"]
    assert len(learned) == 4
    for data in learned:
        assert data["features"] == version(), data["name"]


def test_a_damaged_taught_file_is_named_and_reset_clears_it(tmp_path, capsys):
    """A taught file cut short (a card pulled mid-write on an old version, a disk error) is
    named as unreadable, never half read; ``faces reset`` is the way out and must not trip on
    it: the profile is then back to its shipped faces."""
    teach("last-bastion/combat", "red", [_reds(77, 3)], tmp_path, count=3)
    path = taught_path("last-bastion/combat", tmp_path)
    path.write_text(path.read_text()[:200])
    base = ["--profile", "last-bastion/combat", "--data-dir", str(tmp_path)]
    with pytest.raises(ProfileError, match="unreadable taught faces"):
        load_profile("last-bastion/combat", tmp_path)
    assert run(["dice", "faces", "reset", *base, "--lang", "fr"]) == 0
    assert "oubli" in capsys.readouterr().out
    assert not path.exists()
    assert load_profile("last-bastion/combat", tmp_path).examples == load_profile(
        "last-bastion/combat").examples
