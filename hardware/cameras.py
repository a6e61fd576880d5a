"""Cameras that give frames to the dice reader: a Pi camera, a USB webcam, or a replay.

Each camera has ``open()``, ``read() -> (seconds, BGR frame)``, ``close()`` and a ``name``.
``open`` and ``read`` raise :class:`CameraError` for every failure, whatever the library raised
(unplugged, ribbon loose, and a library that cannot even load: picamera2 built against another
numpy raises ``ValueError: numpy.dtype size changed``), with the fix in its text, so the running
companion reports it as a status problem (page, voice, doctor) instead of losing its camera
thread; :class:`EndOfStream` when a replay is over. picamera2 is imported only when a Pi camera
opens.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any, Protocol

import numpy as np

log = logging.getLogger(__name__)


class CameraError(OSError):
    """The camera is missing, cannot be loaded, or stopped giving frames."""


class CameraLibraryError(CameraError):
    """The camera's library cannot be loaded (missing, or built against another numpy)."""


#: What to do when picamera2 cannot be loaded (missing, or built against another numpy).
PICAMERA2_FIX = ("the companion's virtual environment must see the system's picamera2 and use "
                 "the system's numpy: sudo apt install python3-picamera2, then run "
                 "sudo systemd/install.sh again (it pins numpy to the system's; see "
                 "docs/hardware.md)")


class EndOfStream(Exception):
    """A replay has no more frames."""


Frame = tuple[float, np.ndarray]


class Camera(Protocol):
    """A source of timestamped BGR frames."""

    name: str

    def open(self) -> None:
        """Start the camera; CameraError when it is not there."""

    def read(self) -> Frame:
        """The next frame and its time in seconds."""

    def close(self) -> None:
        """Stop the camera."""


class PiCamera:
    """The Raspberry Pi camera through picamera2 (``python3-picamera2`` on Raspberry Pi OS)."""

    def __init__(self, width: int = 1280, height: int = 960) -> None:
        self.name = "Pi camera"
        self.size = (width, height)
        self._camera: Any = None

    def open(self) -> None:
        """Configure a video stream in BGR order (picamera2's ``RGB888``) and start it."""
        try:
            from picamera2 import Picamera2
        except Exception as exc:  # ImportError, and ValueError for a numpy mismatch
            raise CameraLibraryError(f"picamera2 cannot be loaded ({type(exc).__name__}: {exc}): "
                              f"{PICAMERA2_FIX}") from exc
        try:
            camera = Picamera2()
            camera.configure(camera.create_video_configuration(
                main={"size": self.size, "format": "RGB888"}))
            camera.start()
        except Exception as exc:  # libcamera raises RuntimeError, IndexError, OSError...
            raise CameraError(f"no Pi camera answers ({type(exc).__name__}: {exc}); check the "
                              "ribbon cable, and that no other program holds the camera") from exc
        self._camera = camera

    def read(self) -> Frame:
        """Capture the next frame."""
        try:
            return time.monotonic(), self._camera.capture_array("main")
        except Exception as exc:
            raise CameraError(f"the Pi camera stopped ({type(exc).__name__}: {exc})") from exc

    def close(self) -> None:
        """Stop and release the camera."""
        if self._camera is not None:
            self._camera.close()
            self._camera = None


class OpenCVCamera:
    """A USB webcam: a ``cv2.VideoCapture`` index, or a device path such as ``/dev/video0``."""

    def __init__(self, index: int | str = 0, width: int = 1280, height: int = 960) -> None:
        self.name = f"camera {index}"
        self.index, self.size = index, (width, height)
        self._capture: Any = None

    def open(self) -> None:
        """Open the device and ask for the configured size."""
        try:
            import cv2
        except Exception as exc:  # ImportError, and ValueError for a numpy mismatch
            raise CameraLibraryError(f"{self.name} cannot be opened: OpenCV cannot be loaded "
                                     f"({type(exc).__name__}: {exc}); reinstall the companion "
                                     "with sudo systemd/install.sh") from exc
        try:
            capture = cv2.VideoCapture(self.index)
        except Exception as exc:  # cv2.error for an index or path it cannot use
            raise CameraError(f"{self.name} cannot be opened ({type(exc).__name__}: {exc})") \
                from exc
        if not capture.isOpened():
            raise CameraError(f"{self.name} cannot be opened (is it plugged in? see /dev/video*)")
        capture.set(cv2.CAP_PROP_FRAME_WIDTH, self.size[0])
        capture.set(cv2.CAP_PROP_FRAME_HEIGHT, self.size[1])
        self._capture = capture

    def read(self) -> Frame:
        """Grab the next frame; CameraError when the webcam has gone."""
        try:
            ok, frame = self._capture.read()
        except Exception as exc:
            raise CameraError(f"{self.name} failed ({type(exc).__name__}: {exc})") from exc
        if not ok:
            raise CameraError(f"{self.name} gives no more frames (unplugged?)")
        return time.monotonic(), frame

    def close(self) -> None:
        """Release the device."""
        if self._capture is not None:
            self._capture.release()
            self._capture = None


class ReplayCamera:
    """Frames of a video file or a folder of images, for tests and for trying a box at a desk.

    ``realtime`` paces the frames at ``fps``; otherwise they come as fast as they are read,
    with their own timestamps (the settle detector uses those, not the clock). ``loop`` starts
    again after the last frame, timestamps still increasing, instead of ending the stream.
    """

    def __init__(self, path: Path | str, fps: float = 10.0, realtime: bool = True,
                 loop: bool = False) -> None:
        self.path, self.fps, self.realtime, self.loop = Path(path), fps, realtime, loop
        self.name = f"replay {self.path}"
        self._frames: Iterator[Frame] | None = None
        self._started = 0.0
        self._offset = self._last = 0.0

    def open(self) -> None:
        """Start from the first frame."""
        self._offset = self._last = 0.0
        self._started = time.monotonic()
        self._frames = self._stream()

    def _stream(self) -> Iterator[Frame]:
        if not self.path.exists():
            raise CameraError(f"{self.path} does not exist")
        try:
            from vision import iter_frames

            frames = iter_frames(self.path, self.fps, skipped=self._left_out)
            first = next(frames)
        except Exception as exc:  # unreadable file, no frames, OpenCV that cannot load
            raise CameraError(f"{self.path} holds no frames ({type(exc).__name__}: {exc})") \
                from exc
        return _chain(first, frames)

    def _left_out(self, error: Exception) -> None:
        """An image of the folder that cannot be read: said in the log, the replay goes on."""
        log.warning("%s: %s (left out)", self.name, error)

    def read(self) -> Frame:
        """The next frame; EndOfStream after the last one (unless looping)."""
        try:
            stamp, frame = next(self._frames)
        except StopIteration:
            if not self.loop:
                raise EndOfStream(str(self.path)) from None
            self._offset = self._last + 1.0 / self.fps
            self._frames = self._stream()
            stamp, frame = next(self._frames)
        except Exception as exc:  # a frame that cannot be decoded
            raise CameraError(f"{self.path} failed ({type(exc).__name__}: {exc})") from exc
        stamp += self._offset
        self._last = stamp
        if self.realtime:
            time.sleep(max(0.0, self._started + stamp - time.monotonic()))
        return stamp, frame

    def close(self) -> None:
        """Forget the stream."""
        self._frames = None


def _chain(first: Frame, rest: Iterator[Frame]) -> Iterator[Frame]:
    yield first
    yield from rest
