"""What runs the small networks: ONNX Runtime where it is installed, OpenCV's ``dnn`` elsewhere.

Both read the same ONNX bytes shipped in ``vision/models/`` and give the same outputs to float
rounding; only the speed differs (``companion doctor`` says which one runs, see :func:`engine`).
"""

from __future__ import annotations

import base64
import tempfile
import threading
from collections.abc import Callable
from pathlib import Path

import cv2
import numpy as np

from .onnx_legacy import for_opencv

Network = Callable[[np.ndarray], np.ndarray]  # an NCHW float32 batch in, the network's output out


def load_onnx(encoded: str) -> Network:
    """A network from base64 ONNX bytes, ready to run on a batch.

    ONNX Runtime runs it where it is installed (pyproject asks for it wherever PyPI has a wheel:
    laptops and 64-bit Raspberry Pi OS): on one core it runs these small networks in about half
    the time OpenCV's classic engine takes (detector 2.1 instead of 3.9 ms at 320 px, ten
    cut-outs 1.9 instead of 4.4 ms; outputs equal within 3e-6). Elsewhere (32-bit Pi OS has no
    wheel) OpenCV runs it: slower, the same readings. Either uses as many threads as OpenCV is
    given (``cv2.setNumThreads``; the benchmark gives one).
    """
    raw = base64.b64decode(encoded)
    onnxruntime = _onnxruntime()
    if onnxruntime is None:
        return _opencv_network(raw)
    options = onnxruntime.SessionOptions()
    options.intra_op_num_threads = max(1, cv2.getNumThreads())
    options.inter_op_num_threads = 1
    options.log_severity_level = 3  # errors only
    options.add_session_config_entry("session.intra_op.allow_spinning", "0")  # idle between frames
    session = onnxruntime.InferenceSession(raw, options, providers=["CPUExecutionProvider"])
    name = session.get_inputs()[0].name
    return lambda batch: session.run(None, {name: batch})[0]


def engine() -> tuple[str, str]:
    """Which library runs the networks in this process, and its version: ``("ONNX Runtime",
    ...)``, or ``("OpenCV", ...)`` where ONNX Runtime is not installed (``companion doctor``
    says so: dice then read about twice as slowly)."""
    onnxruntime = _onnxruntime()
    if onnxruntime is None:
        return "OpenCV", cv2.__version__
    return "ONNX Runtime", onnxruntime.__version__


def _onnxruntime():
    """The ``onnxruntime`` module, or ``None`` where it is not installed (32-bit Pi OS)."""
    try:
        import onnxruntime
    except ImportError:
        return None
    return onnxruntime


def _opencv_network(raw: bytes) -> Network:
    """The network run by OpenCV's own backend, with its classic engine.

    On one core OpenCV 5's classic engine reads these small networks faster than its new one
    (classifier 12 %, detector 27 %, outputs equal within 4e-6). OpenCV 5 honours the choice of
    engine only for a model read from a file, hence the temporary file; where none can be
    written (a full or read-only temporary folder) the model is read from memory by the default
    engine: slower, the same readings. OpenCV 4 (4.6 is Raspberry Pi OS Bookworm's, on 32-bit
    Pis) is first given the model in the forms it reads (:mod:`vision.onnx_legacy`); OpenCV 5
    reads the shipped forms, and it gets them as they are: its classic engine runs the rewritten
    classifier about 400 times more slowly.
    """
    if int(cv2.__version__.split(".")[0]) < 5:
        raw = for_opencv(raw)
    classic = getattr(cv2.dnn, "ENGINE_CLASSIC", None)  # OpenCV 4 has a single engine
    net = None
    if classic is not None:
        try:
            with tempfile.TemporaryDirectory() as folder:
                path = Path(folder) / "model.onnx"
                path.write_bytes(raw)
                net = cv2.dnn.readNetFromONNX(str(path), classic)
        except OSError:
            net = None
    if net is None:
        net = cv2.dnn.readNetFromONNX(np.frombuffer(raw, np.uint8))
    net.setPreferableBackend(cv2.dnn.DNN_BACKEND_OPENCV)
    lock = threading.Lock()  # an OpenCV network holds its input between two calls

    def run(batch: np.ndarray) -> np.ndarray:
        with lock:
            net.setInput(batch)
            return net.forward()

    return run
