"""Loading images from files with errors a person can act on."""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np

from .say import VisionError


class ImageError(VisionError):
    """A file could not be used as an image; the message says why in one line."""


def load_image(path: str | Path) -> np.ndarray:
    """Read ``path`` as a BGR ``uint8`` array.

    Raises :class:`ImageError` for a missing, empty, truncated or non-image file instead of
    returning ``None`` like ``cv2.imread`` does, so callers never work on a half-decoded frame.
    """
    path = Path(path)
    try:
        data = path.read_bytes()
    except OSError as exc:
        raise ImageError("image.unreadable", path=path, detail=exc.strerror or exc) from None
    if not data:
        raise ImageError("image.empty_file", path=path)
    if _truncated(data):
        raise ImageError("image.truncated", path=path)
    image = cv2.imdecode(np.frombuffer(data, np.uint8), cv2.IMREAD_COLOR)
    if image is None or image.size == 0:
        raise ImageError("image.not_an_image", path=path)
    return image


def _truncated(data: bytes) -> bool:
    """True for JPEG/PNG files whose end marker is missing (OpenCV would decode them partly)."""
    if data[:3] == b"\xff\xd8\xff":
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
