"""The networks in the forms OpenCV 4.6 reads (Raspberry Pi OS Bookworm's, on 32-bit Pis).

Issue 42: on armhf the reader runs on apt's OpenCV 4.6, whose dnn refused the dice classifier
("Clip" with its bounds as inputs; then the division of a picture by one number per sample,
"axis != outShape.size()"). :func:`vision.onnx_legacy.for_opencv` rewrites the model in memory;
these tests hold the rewrite to the forms 4.6 reads and to the outputs ONNX Runtime gives on
the shipped bytes. (Debian's OpenCV 4.6 itself reads the rewritten model in `make pi-check`'s
armhf userland, and on x86 it gave the same faces and boxes on 40 photos.)
"""

from __future__ import annotations

import base64
import struct

import cv2
import numpy as np
import onnxruntime
import pytest
from dice_fixtures import byler

from vision.net import CROP_SCALE, crop, read_model_file, to_blob
from vision.onnx_legacy import for_opencv
from vision.protowire import BYTES, VARINT, decode, encode, text, value, values


def _model(name: str, key: str) -> bytes:
    return base64.b64decode(read_model_file(name)[key])


def _nodes(model: bytes) -> list[dict]:
    graph = decode(value(decode(model), 7))
    return [{"op": text(node, 4), "inputs": [i.decode() for i in values(node, 1)],
             "attributes": {text(a, 1): a for a in map(decode, values(node, 5))}}
            for node in map(decode, values(graph, 1))]


def _cut_outs() -> np.ndarray:
    return to_blob([crop(image, ((t.box[0] + t.box[2]) / 2, (t.box[1] + t.box[3]) / 2),
                         max(t.box[2] - t.box[0], t.box[3] - t.box[1]) * CROP_SCALE)
                    for _, image, truths in byler()[:4] for t in truths])


def test_the_wire_format_reads_and_writes_a_model_byte_for_byte():
    """Decoding then encoding gives the shipped bytes back: what is not rewritten is kept."""
    for name, key in [("dice.json", "classifier"), ("dice.json", "detector"),
                      ("faces.json", "embedder")]:
        model = _model(name, key)
        assert encode(decode(model)) == model


def test_the_classifier_is_put_in_the_forms_opencv_4_6_reads():
    """The shipped classifier has both forms 4.6 refuses; rewritten, each Clip has one input
    and its bounds (0 below; -2.5 and 2.5) as attributes, and the subtraction and division of
    the standardisation read the per-sample number spread over the picture (1×3×40×40)."""
    shipped = _nodes(_model("dice.json", "classifier"))
    assert [len(n["inputs"]) for n in shipped if n["op"] == "Clip"] == [3, 3]
    rewritten = _nodes(for_opencv(_model("dice.json", "classifier")))
    clips = [n for n in rewritten if n["op"] == "Clip"]
    assert [len(n["inputs"]) for n in clips] == [1, 1]
    bounds = [{name: struct.unpack("<f", value(a, 2))[0] for name, a in n["attributes"].items()}
              for n in clips]
    assert bounds == [{"min": 0.0}, {"min": -2.5, "max": 2.5}]
    spreads = [n for n in rewritten if n["op"] == "ConvTranspose"]
    assert len(spreads) == 2
    readers = [n for n in rewritten if n["op"] != "ConvTranspose"
               and any("/spread/" in i for i in n["inputs"])]
    assert [n["op"] for n in readers] == ["Sub", "Div"]
    assert all(values(n["attributes"]["kernel_shape"], 8) == [40, 40] for n in spreads)


def test_models_without_those_forms_are_left_as_they_are():
    """The detector and the face embedder have neither form: their bytes are unchanged."""
    for name, key in [("dice.json", "detector"), ("faces.json", "embedder")]:
        assert for_opencv(_model(name, key)) == _model(name, key)


def test_the_rewritten_classifier_gives_onnx_runtimes_outputs_on_real_cut_outs():
    """OpenCV's dnn on the rewritten classifier gives the probabilities ONNX Runtime gives on
    the shipped one (to float rounding), for batches of 1 and of many cut-outs (4.6 read the
    per-sample numbers wrongly when the batch size was not the number of channels)."""
    shipped = _model("dice.json", "classifier")
    session = onnxruntime.InferenceSession(shipped, providers=["CPUExecutionProvider"])
    net = cv2.dnn.readNetFromONNX(np.frombuffer(for_opencv(shipped), np.uint8))
    batch = _cut_outs()
    for cut_outs in (batch[:1], batch[:5], batch):
        expected = session.run(None, {session.get_inputs()[0].name: cut_outs})[0]
        net.setInput(cut_outs)
        assert np.allclose(net.forward(), expected, atol=1e-5)


def _clip_model(high: str) -> bytes:
    """x → Clip(x, lo, high): lo a Constant node, ``high`` a Constant or Relu output."""
    def node(op, inputs, output, attributes=()):
        return (1, BYTES, encode([*[(1, BYTES, i.encode()) for i in inputs],
                                  (2, BYTES, output.encode()), (4, BYTES, op.encode()),
                                  *[(5, BYTES, a) for a in attributes]]))

    def constant(output, number):
        tensor = encode([(2, VARINT, 1), (9, BYTES, struct.pack("<f", number))])
        return node("Constant", [], output, [encode([(1, BYTES, b"value"), (5, BYTES, tensor),
                                                     (20, VARINT, 4)])])
    graph = [constant("lo", -1.0), constant("top", 1.0), node("Relu", ["x"], "relu"),
             node("Clip", ["x", "lo", high], "y")]
    return encode([(1, VARINT, 8), (7, BYTES, encode(graph))])


def test_a_clip_with_a_computed_bound_is_left_as_it_is():
    """Only constant bounds can become attributes: a bound the network computes is kept as an
    input (the model is then as readable as before), a constant one is folded."""
    computed = _clip_model("relu")
    assert for_opencv(computed) == computed
    folded = [n for n in _nodes(for_opencv(_clip_model("top"))) if n["op"] == "Clip"]
    assert folded[0]["inputs"] == ["x"] and set(folded[0]["attributes"]) == {"min", "max"}


@pytest.mark.parametrize("junk", [b"\x0a\xff\x01", b"\x0f", b"not a model at all"])
def test_bytes_that_are_not_a_model_are_refused_by_name(junk):
    """Bytes that are not an ONNX model raise a ValueError saying so, not a crash."""
    with pytest.raises(ValueError, match="not a protobuf message|not an ONNX model"):
        for_opencv(junk)


@pytest.mark.parametrize(("version", "rewritten"), [("4.6.0", True), ("4.10.0", True),
                                                    ("5.0.0", False)])
def test_only_opencv_4_runs_the_rewritten_model(monkeypatch, version, rewritten):
    """The rewrite is for OpenCV 4, which cannot read the shipped forms. OpenCV 5 reads the
    shipped bytes as they are, and it must get them: its classic engine runs the rewritten
    classifier about 400 times slower (its spread of a per-sample number, a ConvTranspose:
    6.7 s instead of 16 ms for 23 cut-outs here), which made a photo take 14 s to read."""
    from vision import runtime

    given = []
    monkeypatch.setattr(cv2, "__version__", version)
    monkeypatch.setattr(runtime, "for_opencv", lambda raw: given.append(raw) or raw)
    shipped = _model("dice.json", "classifier")
    runtime._opencv_network(shipped)
    assert given == ([shipped] if rewritten else [])
