"""``companion dice read`` on a batch: every image is read, each problem is named, exit 2 at the
end (issue 16: one portrait photo used to stop the whole batch with a traceback)."""

from __future__ import annotations

import json

import cv2
import pytest
from dice_fixtures import byler, render_frame
from test_cli_teach import run

import vision.cli
import vision.reader


@pytest.fixture
def batch(tmp_path):
    good, _ = render_frame("d6", 5, count=3)
    portrait = next(image for name, image, _ in byler() if name == "IMG_20191208_112541")
    paths = {
        "good": tmp_path / "good.png",
        "portrait": tmp_path / "portrait.jpg",
        "truncated": tmp_path / "cut.jpg",
        "text": tmp_path / "notes.jpg",
        "last": tmp_path / "last.png",
    }
    cv2.imwrite(str(paths["good"]), good)
    cv2.imwrite(str(paths["portrait"]), portrait[:, 244:294])
    paths["truncated"].write_bytes(cv2.imencode(".jpg", good)[1].tobytes()[:3000])
    paths["text"].write_text("not pixels")
    cv2.imwrite(str(paths["last"]), good)
    return paths


def test_batch_reads_every_image_and_fails_at_the_end(batch, capsys):
    code = run(["dice", "read", *map(str, batch.values()), "--profile", "d6", "--json"])
    out, err = capsys.readouterr()
    lines = [json.loads(line) for line in out.splitlines()]
    assert code == 2
    assert [line["image"] for line in lines] == [str(p) for p in batch.values()]
    by_name = {line["image"]: line for line in lines}
    assert "error" not in by_name[str(batch["portrait"])]
    assert "truncated" in by_name[str(batch["truncated"])]["error"]
    assert "not an image" in by_name[str(batch["text"])]["error"]
    assert len(by_name[str(batch["last"])]["dice"]) == 3
    assert err.count("error:") == 2 and "Traceback" not in err


def test_a_reader_failure_is_named_in_french_and_the_batch_goes_on(batch, capsys, monkeypatch):
    real = vision.reader.read

    def fragile(image, profile, **kw):
        if image.shape[1] == 50:
            raise RuntimeError("boom")
        return real(image, profile, **kw)

    monkeypatch.setattr(vision.reader, "read", fragile)  # what dice read calls
    code = run(["dice", "read", str(batch["portrait"]), str(batch["good"]), "--profile", "d6",
                "--lang", "fr"])
    out, err = capsys.readouterr()
    assert code == 2
    assert "lecture impossible (RuntimeError: boom)" in err and str(batch["portrait"]) in err
    assert f"{batch['good']} : 3 dés" in out


def test_counts_take_the_plural_rules_of_the_language():
    """No "dé(s)": the form the language's plural rules give (French counts 0 and 1 as one)."""
    from vision.say import say

    assert say("cli.read", "fr", image="a.jpg", count=0, ms=3) == "a.jpg : 0 dé en 3 ms"
    assert say("cli.read", "fr", image="a.jpg", count=2, ms=3) == "a.jpg : 2 dés en 3 ms"
    assert say("cli.read", "en", image="a.jpg", count=1, ms=3) == "a.jpg: 1 die in 3 ms"
    assert say("cli.read", "en", image="a.jpg", count=0, ms=3) == "a.jpg: 0 dice in 3 ms"
    assert say("cli.faces_removed", "fr", profile="p", count=2, face="rouge") == \
        "p : 2 exemples de rouge oubliés"
