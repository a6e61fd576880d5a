"""Loading images from files with errors a person can act on."""

from __future__ import annotations

import struct
from pathlib import Path

import cv2
import numpy as np

from .say import VisionError

JPEG_START = b"\xff\xd8"  # every JPEG file begins so
MAX_PIXELS = 16_000_000  # a larger photo is read shrunk to this: its dice stay tens of pixels
MAX_DECODED = 64_000_000  # a larger file that cannot be decoded shrunk (not a JPEG) is refused
JPEG_SHRINKS = ((2, cv2.IMREAD_REDUCED_COLOR_2), (4, cv2.IMREAD_REDUCED_COLOR_4),
                (8, cv2.IMREAD_REDUCED_COLOR_8))
DIE_PIXELS = 64  # a JPEG is decoded shrunk while the smallest die expected keeps this many
#                  pixels across (the size the table describes large dice at, see vision.table)


class ImageError(VisionError):
    """A file could not be used as an image; the message says why in one line."""


def load_image(path: str | Path) -> np.ndarray:
    """Read ``path`` as a BGR ``uint8`` array, shrunk to at most ``MAX_PIXELS`` (see
    :func:`load_photo`).

    Raises :class:`ImageError` for a missing, empty, truncated, too large or non-image file
    instead of returning ``None`` like ``cv2.imread`` does, so callers never work on a
    half-decoded frame.
    """
    return load_photo(path)[0]


def load_photo(path: str | Path, die: float | None = None) -> tuple[np.ndarray, float]:
    """Read ``path`` as a BGR ``uint8`` array and the scale it was read at (1.0, or less for a
    photo over ``MAX_PIXELS``: a 48 or 200 MP phone photo holds far more pixels than its dice
    need, and decoding it whole would take most of a Raspberry Pi's memory).

    A JPEG is decoded shrunk (by 2, 4 or 8, which costs no more than the smaller image); another
    file is decoded whole and then shrunk, unless it says it holds more than ``MAX_DECODED``
    pixels: that is refused before decoding (a PNG of a few hundred kilobytes can say it holds
    400 million pixels, which took 2.4 GB). ``die``: the side of the smallest die expected, as a
    share of the photo's longer side (the table's examples know it): a JPEG is then also decoded
    shrunk as far as that die keeps ``DIE_PIXELS`` pixels (a 12 MP JPEG whose dice are a tenth
    of the frame, by 4: decoding it whole took 100 ms of one core, more than reading it).
    Raises :class:`ImageError` as :func:`load_image`.
    """
    path = Path(path)
    try:
        data = path.read_bytes()
    except OSError as exc:
        raise ImageError("image.unreadable", path=path, detail=exc.strerror or exc) from None
    return decode_photo(data, path, die)


def decode_photo(data: bytes, path: str | Path,
                 die: float | None = None) -> tuple[np.ndarray, float]:
    """:func:`load_photo` of a file's bytes already in memory (a photo sent to the page),
    ``path`` naming it in the errors."""
    if not data:
        raise ImageError("image.empty_file", path=path)
    if _truncated(data):
        raise ImageError("image.truncated", path=path)
    size = declared_size(data)
    pixels = size[0] * size[1] if size else 0
    flag = cv2.IMREAD_COLOR
    if size and data.startswith(JPEG_START):
        shrinks = [(k, f) for k, f in JPEG_SHRINKS
                   if pixels > MAX_PIXELS * (k // 2) ** 2
                   or (die is not None and die * max(size) / k >= DIE_PIXELS)]
        flag = shrinks[-1][1] if shrinks else flag
    elif pixels > MAX_DECODED:
        raise ImageError("image.too_large", path=path, width=size[0], height=size[1],
                         most=MAX_DECODED // 1_000_000)
    try:
        image = cv2.imdecode(np.frombuffer(data, np.uint8), flag)
    except cv2.error:  # OpenCV's own limit (a billion pixels), for a format not measured here
        raise ImageError("image.not_an_image", path=path) from None
    if image is None or image.size == 0:
        raise ImageError("image.not_an_image", path=path)
    full = max(size) if size else max(image.shape[:2])  # either way round (EXIF turns it)
    if image.shape[0] * image.shape[1] > MAX_PIXELS:
        shrink = float(np.sqrt(MAX_PIXELS / (image.shape[0] * image.shape[1])))
        image = cv2.resize(image, None, fx=shrink, fy=shrink, interpolation=cv2.INTER_AREA)
    return image, max(image.shape[:2]) / full


def declared_size(data: bytes) -> tuple[int, int] | None:
    """The width and height a PNG or JPEG file says it holds, read from its header; ``None``
    for another format or a header that cannot be read."""
    if data[:8] == b"\x89PNG\r\n\x1a\n" and data[12:16] == b"IHDR" and len(data) >= 24:
        return struct.unpack(">II", data[16:24])
    if not data.startswith(JPEG_START):
        return None
    at = 2
    while at + 9 <= len(data) and data[at] == 0xFF:
        marker = data[at + 1]
        if 0xC0 <= marker <= 0xCF and marker not in (0xC4, 0xC8, 0xCC):  # a frame's header
            height, width = struct.unpack(">HH", data[at + 5 : at + 9])
            return width, height
        at += 2 + struct.unpack(">H", data[at + 2 : at + 4])[0]
    return None


def _truncated(data: bytes) -> bool:
    """True for JPEG/PNG files whose end marker is missing (OpenCV would decode them partly)."""
    if data.startswith(JPEG_START + b"\xff"):
        return b"\xff\xd9" not in data[-1024:]
    if data[:8] == b"\x89PNG\r\n\x1a\n":
        return b"IEND" not in data[-64:]
    return False


def as_bgr(image: np.ndarray) -> np.ndarray:
    """Return ``image`` as a 3-channel ``uint8`` BGR array (grey and BGRA are converted).

    Raises :class:`ImageError` for arrays that cannot be a picture. Views with odd strides (a
    mirrored or cropped frame) are copied once so that every OpenCV call accepts them.
    """
    if not isinstance(image, np.ndarray) or image.size == 0:
        raise ImageError("image.empty")
    if image.dtype != np.uint8:
        raise ImageError("image.dtype", dtype=image.dtype)
    image = np.ascontiguousarray(image)
    if image.ndim == 3 and image.shape[2] == 1:
        image = image[:, :, 0]
    if image.ndim == 2:
        return cv2.cvtColor(image, cv2.COLOR_GRAY2BGR)
    if image.ndim == 3 and image.shape[2] == 3:
        return image
    if image.ndim == 3 and image.shape[2] == 4:
        return cv2.cvtColor(image, cv2.COLOR_BGRA2BGR)
    raise ImageError("image.shape", shape=image.shape)
