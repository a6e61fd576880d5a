"""Frames for ``dice watch``: a video file, a folder of images, or an OpenCV camera index.

Real camera sources for the running companion live in ``hardware/``; this is the small reader the
command line needs. Each frame comes with a timestamp in seconds.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path

import cv2
import numpy as np

from .imageio import ImageError, load_image

IMAGE_SUFFIXES = {".jpg", ".jpeg", ".png", ".bmp", ".webp"}


def iter_frames(
    source: str | Path | int, fps: float = 15.0,
    skipped: Callable[[ImageError], None] | None = None,
) -> Iterator[tuple[float, np.ndarray]]:
    """Yield ``(seconds, BGR frame)`` from a folder of images (sorted by name, ``fps`` apart),
    a video file, or a camera index. Raises :class:`ImageError` when nothing can be opened.

    An image of a folder that cannot be read is left out and its error given to ``skipped``
    (one broken file among a folder's frames must not hide the frames after it); without
    ``skipped`` it is raised."""
    if isinstance(source, (str, Path)) and Path(source).is_dir():
        paths = sorted(p for p in Path(source).iterdir() if p.suffix.lower() in IMAGE_SUFFIXES)
        if not paths:
            raise ImageError("frames.empty_folder", source=source)
        for i, path in enumerate(paths):
            try:
                frame = load_image(path)
            except ImageError as error:
                if skipped is None:
                    raise
                skipped(error)
                continue
            yield i / fps, frame
        return
    if isinstance(source, (str, Path)) and not Path(source).exists():
        raise ImageError("frames.missing", source=source)
    capture = cv2.VideoCapture(source if isinstance(source, int) else str(source))
    if not capture.isOpened():
        raise ImageError("frames.cannot_open", source=source)
    try:
        index = 0
        while True:
            ok, frame = capture.read()
            if not ok:
                return
            stamp = capture.get(cv2.CAP_PROP_POS_MSEC) / 1000.0
            yield (stamp if stamp > 0 else index / fps), frame
            index += 1
    finally:
        capture.release()
