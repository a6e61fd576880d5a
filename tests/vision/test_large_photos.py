"""Photos far larger than the reader needs (issue 16: "any frame ... 12 MP" gets a reading or a
clean refusal): a 48 or 200 MP phone photo is read shrunk, with its boxes in the file's own
pixels; a small file that says it holds hundreds of millions of pixels (a decompression bomb)
is refused before it is decoded. Reading a 400 Mpx PNG of 389 KB took 5.5 s and 2.4 GB here."""

from __future__ import annotations

import json
import struct
import zlib

import cv2
import pytest
from dice_fixtures import byler
from hypothesis import given, settings
from hypothesis import strategies as st
from test_cli_teach import run

from vision import ImageError, read
from vision.imageio import MAX_PIXELS, declared_size, load_photo

UPSCALE = 8  # a 640 px tray photo becomes 5120 x 5120: 26 Mpx


@pytest.fixture(scope="module")
def tray():
    """One tray photo with four dice and its reading."""
    image = next(image for _, image, truths in byler() if len(truths) == 4)
    return image, read(image, "d6")


@pytest.mark.parametrize("suffix", [".jpg", ".png"])
def test_a_huge_photo_is_read_shrunk_with_boxes_in_its_own_pixels(tray, tmp_path, capsys,
                                                                  suffix):
    image, small = tray
    path = tmp_path / f"huge{suffix}"
    big = cv2.resize(image, None, fx=UPSCALE, fy=UPSCALE, interpolation=cv2.INTER_CUBIC)
    cv2.imwrite(str(path), big, [cv2.IMWRITE_JPEG_QUALITY, 95])
    frame, scale = load_photo(path)
    assert frame.shape[0] * frame.shape[1] <= MAX_PIXELS and scale < 1
    assert run(["dice", "read", "--profile", "d6", "--json", str(path)]) == 0
    read_big = json.loads(capsys.readouterr().out)
    assert sorted(d["face"] for d in read_big["dice"]) == small.faces
    # each box where the small photo's is, in the huge photo's pixels, to a fifth of the die's side
    # (the detector sees the two at other scales: an edge of a 34 px die moves 5 px)
    for die in small.dice:
        big_box = min((d["box"] for d in read_big["dice"]),
                      key=lambda b: abs(b[0] - UPSCALE * die.box[0]))
        side = UPSCALE * (die.box[2] - die.box[0])
        assert all(abs(b - UPSCALE * s) < 0.2 * side
                   for b, s in zip(big_box, die.box, strict=True))


def bomb(path, side: int) -> None:
    """A black ``side`` x ``side`` greyscale PNG: a few hundred KB on disk."""
    def chunk(kind: bytes, data: bytes) -> bytes:
        return (struct.pack(">I", len(data)) + kind + data
                + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF))
    packer = zlib.compressobj(9)
    row = b"\x00" * (side + 1)
    pixels = b"".join(packer.compress(row) for _ in range(side)) + packer.flush()
    path.write_bytes(b"\x89PNG\r\n\x1a\n"
                     + chunk(b"IHDR", struct.pack(">IIBBBBB", side, side, 8, 0, 0, 0, 0))
                     + chunk(b"IDAT", pixels) + chunk(b"IEND", b""))


def test_a_decompression_bomb_is_refused_before_it_is_decoded(tmp_path, capsys):
    path = tmp_path / "bomb.png"
    bomb(path, 20000)
    assert path.stat().st_size < 500_000
    with pytest.raises(ImageError, match="20000×20000 pixels"):
        load_photo(path)
    assert run(["dice", "read", "--profile", "d6", "--lang", "fr", str(path)]) == 2
    error = capsys.readouterr().err
    assert "20000×20000 pixels" in error and "trop grande" in error and "OpenCV" not in error


@settings(max_examples=300, deadline=None)
@given(st.binary(max_size=40))
def test_any_header_is_measured_or_not_but_never_raises(tail):
    for head in (b"\xff\xd8", b"\xff\xd8\xff\xc0", b"\x89PNG\r\n\x1a\n\x00\x00\x00\x0dIHDR"):
        size = declared_size(head + tail)
        assert size is None or (len(size) == 2 and min(size) >= 0)
