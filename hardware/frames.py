"""The last frame a camera gave, kept for the host page's camera view.

:func:`hardware.build.start` puts a :class:`FrameTap` between the camera and the dice watcher: it
is the camera for the watcher (same ``open``, ``read``, ``close``), and keeps a reference to the
last frame read, so the preview shows exactly what the dice reader sees, without opening the
camera a second time (a Pi camera can only be opened once).
"""

from __future__ import annotations

import threading

import numpy as np

from .cameras import Camera, Frame


class FrameTap:
    """A camera that remembers its last frame (see the module's docstring)."""

    def __init__(self, camera: Camera) -> None:
        self.camera = camera
        self.name = camera.name
        self._last: Frame | None = None
        self._lock = threading.Lock()

    def open(self) -> None:
        """Open the camera."""
        self.camera.open()

    def read(self) -> Frame:
        """The camera's next frame, remembered."""
        frame = self.camera.read()
        with self._lock:
            self._last = frame
        return frame

    def close(self) -> None:
        """Close the camera; its last frame is forgotten (it no longer shows the tray)."""
        with self._lock:
            self._last = None
        self.camera.close()

    def last(self) -> tuple[float, np.ndarray] | None:
        """The last frame read and its time, or None before the first (or after a close)."""
        with self._lock:
            return self._last
