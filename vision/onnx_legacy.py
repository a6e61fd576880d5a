"""A network's ONNX bytes rewritten into the forms OpenCV 4.6's ``dnn`` reads.

OpenCV 4.6 is what Raspberry Pi OS Bookworm's apt gives 32-bit Pis, where the reader runs on
OpenCV (PyPI has no ONNX Runtime or OpenCV wheel there). Two forms PyTorch exports and ONNX
Runtime reads are beyond it, both in the dice classifier's colour standardisation:

- ``Clip`` with its bounds as inputs (opset 11 and later): 4.6 reads only the opset-6 form,
  bounds as ``min``/``max`` attributes ("Check failed: node_proto.input_size() == 1");
- an element-wise operation of a picture and one number per sample (``x - mean``,
  ``x / deviation``, shapes ``N×C×H×W`` and ``N×1×1×1``): 4.6 refuses the division
  ("axis != outShape.size()") and subtracts the wrong numbers when N is not C.

:func:`for_opencv` gives each ``Clip`` whose bounds are constants its attributes, and spreads
each such per-sample number over the picture's shape first (a ``ConvTranspose`` with a kernel
of ones: every output is the number times 1.0, exactly), so the operation sees two equal
shapes. The shapes come from a small shape inference over the operations the companion's
networks use; where a shape is unknown nothing is changed. The rewritten model gives ONNX
Runtime's outputs to float rounding; ONNX Runtime itself keeps the shipped bytes.
"""

from __future__ import annotations

import math
import struct

from .protowire import (
    BYTES,
    FIXED32,
    VARINT,
    Field,
    decode,
    encode,
    packed_varints,
    text,
    value,
    values,
)

# Field numbers of onnx.proto
MODEL_GRAPH = 7
GRAPH_NODE, GRAPH_INITIALIZER, GRAPH_INPUT = 1, 5, 11
NODE_INPUT, NODE_OUTPUT, NODE_NAME, NODE_OP_TYPE, NODE_ATTRIBUTE = 1, 2, 3, 4, 5
ATTRIBUTE_NAME, ATTRIBUTE_FLOAT, ATTRIBUTE_INT, ATTRIBUTE_TENSOR = 1, 2, 3, 5
ATTRIBUTE_INTS, ATTRIBUTE_TYPE = 8, 20
ATTRIBUTE_TYPE_FLOAT, ATTRIBUTE_TYPE_INTS = 1, 7
TENSOR_DIMS, TENSOR_DATA_TYPE, TENSOR_FLOAT_DATA, TENSOR_NAME, TENSOR_RAW_DATA = 1, 2, 4, 8, 9
TENSOR_FLOAT, TENSOR_INT64 = 1, 7
VALUE_TYPE, TYPE_TENSOR, TENSOR_TYPE_SHAPE, SHAPE_DIM, DIM_VALUE = 2, 1, 2, 1, 1

SAME_SHAPE = {"Relu", "Sigmoid", "Sqrt", "Clip", "Neg", "Exp", "Log", "Abs", "Softmax"}
ELEMENT_WISE = {"Add", "Sub", "Mul", "Div"}
POOLS = {"AveragePool", "MaxPool"}

Shape = list[int]


class Constant:
    """A constant tensor of the graph: its shape and its numbers."""

    def __init__(self, dims: Shape, numbers: list[float]) -> None:
        self.dims, self.numbers = dims, numbers


def for_opencv(model: bytes) -> bytes:
    """The ONNX ``model`` in the forms OpenCV 4.6 reads (see the module): constant ``Clip``
    bounds as attributes, per-sample numbers spread over the picture they combine with.
    Raises ``ValueError`` on bytes that are not an ONNX model."""
    fields = decode(model)
    graphs = values(fields, MODEL_GRAPH)
    if len(graphs) != 1:
        raise ValueError("not an ONNX model: it has no graph")
    graph = _rewritten_graph(decode(graphs[0]))
    return encode([(number, wire, encode(graph) if number == MODEL_GRAPH else field)
                   for number, wire, field in fields])


def _rewritten_graph(graph: list[Field]) -> list[Field]:
    """The graph's fields with its nodes rewritten and the kernels they need added."""
    constants = _initializers(graph)
    shapes = _input_shapes(graph)
    rewritten, kernels = [], []
    for number, wire, field in graph:
        if number != GRAPH_NODE:
            rewritten.append((number, wire, field))
            continue
        node = decode(field)
        op, inputs = text(node, NODE_OP_TYPE), [name.decode() for name in values(node, NODE_INPUT)]
        attributes = _attributes(node)
        if op == "Constant" and isinstance(attributes.get("value"), Constant):
            constants[text(node, NODE_OUTPUT)] = attributes["value"]
        if op == "Clip":
            node = _clip_with_attributes(node, inputs, constants)
        elif op in ELEMENT_WISE:
            spread = _spread(node, inputs, shapes, constants)
            if spread is not None:
                spread_node, kernel, node = spread
                rewritten.append((GRAPH_NODE, BYTES, spread_node))
                kernels.append((GRAPH_INITIALIZER, BYTES, kernel))
        shape = _output_shape(op, inputs, attributes, shapes, constants)
        if shape is not None:
            shapes[text(node, NODE_OUTPUT)] = shape
        rewritten.append((GRAPH_NODE, BYTES, encode(node)))
    return rewritten + kernels


def _clip_with_attributes(node: list[Field], inputs: list[str],
                          constants: dict[str, Constant]) -> list[Field]:
    """A ``Clip`` with constant bounds in the opset-6 form; as it was otherwise."""
    named = zip(("min", "max"), inputs[1:], strict=False)  # a Clip may give one bound or none
    bounds = {bound: name for bound, name in named if name}
    if len(inputs) < 2 or any(_scalar(constants.get(name)) is None for name in bounds.values()):
        return node
    attributes = [(NODE_ATTRIBUTE, BYTES, encode([
        (ATTRIBUTE_NAME, BYTES, bound.encode()),
        (ATTRIBUTE_FLOAT, FIXED32, struct.pack("<f", _scalar(constants[name]))),
        (ATTRIBUTE_TYPE, VARINT, ATTRIBUTE_TYPE_FLOAT)])) for bound, name in bounds.items()]
    kept = [field for field in node if field[0] != NODE_INPUT]
    return [(NODE_INPUT, BYTES, inputs[0].encode()), *kept, *attributes]


def _spread(node: list[Field], inputs: list[str], shapes: dict[str, Shape],
            constants: dict[str, Constant]) -> tuple[bytes, bytes, list[Field]] | None:
    """For an element-wise node of a picture (N×C×H×W) and a number per sample (N×1×1×1):
    the ``ConvTranspose`` node that spreads the number over C×H×W, its kernel of ones, and the
    node reading the spread number instead. ``None`` for any other node."""
    if len(inputs) != 2 or any(name in constants or name not in shapes for name in inputs):
        return None
    picture = next((i for i, name in enumerate(inputs) if len(shapes[name]) == 4
                    and math.prod(shapes[name][1:]) > 1), None)
    if picture is None:
        return None
    number, (channels, height, width) = inputs[1 - picture], shapes[inputs[picture]][1:]
    if shapes[number] != [shapes[inputs[picture]][0], 1, 1, 1]:
        return None
    spread = f"{number}/spread/{text(node, NODE_OUTPUT)}"
    kernel = encode([
        *[(TENSOR_DIMS, VARINT, dim) for dim in (1, channels, height, width)],
        (TENSOR_DATA_TYPE, VARINT, TENSOR_FLOAT), (TENSOR_NAME, BYTES, f"{spread}/ones".encode()),
        (TENSOR_RAW_DATA, BYTES, struct.pack("<f", 1.0) * (channels * height * width))])
    spread_node = encode([
        (NODE_INPUT, BYTES, number.encode()), (NODE_INPUT, BYTES, f"{spread}/ones".encode()),
        (NODE_OUTPUT, BYTES, spread.encode()), (NODE_NAME, BYTES, spread.encode()),
        (NODE_OP_TYPE, BYTES, b"ConvTranspose"),
        (NODE_ATTRIBUTE, BYTES, encode([
            (ATTRIBUTE_NAME, BYTES, b"kernel_shape"),
            *[(ATTRIBUTE_INTS, VARINT, side) for side in (height, width)],
            (ATTRIBUTE_TYPE, VARINT, ATTRIBUTE_TYPE_INTS)]))])
    new_inputs = [spread if i != picture else name for i, name in enumerate(inputs)]
    kept = [field for field in node if field[0] != NODE_INPUT]
    return spread_node, kernel, [*[(NODE_INPUT, BYTES, n.encode()) for n in new_inputs], *kept]


def _output_shape(op: str, inputs: list[str], attributes: dict, shapes: dict[str, Shape],
                  constants: dict[str, Constant]) -> Shape | None:
    """A node's output shape from its inputs', for the operations the companion's networks
    use before their last per-sample number; ``None`` where it is not known."""
    known = [shapes.get(name) or (constants[name].dims if name in constants else None)
             for name in inputs if name]
    if not known or known[0] is None:
        return None
    if op in SAME_SHAPE:
        return known[0]
    if op in ELEMENT_WISE:
        return _broadcast(known) if None not in known else None
    if op == "Slice":
        return _sliced(known[0], [constants.get(name) for name in inputs[1:]])
    if op in POOLS or op == "Conv":
        kernel = attributes.get("kernel_shape")
        channels = known[0][1]
        if op == "Conv":
            weights = constants.get(inputs[1])
            if weights is None:
                return None
            channels, kernel = weights.dims[0], kernel or weights.dims[2:]
        return [known[0][0], channels, *_pooled(known[0][2:], kernel, attributes)]
    return None


def _broadcast(shapes: list[Shape]) -> Shape:
    """numpy's broadcast of shapes (ONNX's multidirectional broadcasting)."""
    rank = max(len(shape) for shape in shapes)
    padded = [[1] * (rank - len(shape)) + shape for shape in shapes]
    return [max(sides) for sides in zip(*padded, strict=True)]


def _sliced(shape: Shape, arguments: list[Constant | None]) -> Shape | None:
    """The shape ``Slice`` leaves, from its constant starts, ends, axes and steps."""
    if any(argument is None for argument in arguments[:2]):
        return None
    starts, ends = (arguments[0].numbers, arguments[1].numbers)
    axes = arguments[2].numbers if len(arguments) > 2 and arguments[2] else range(len(starts))
    steps = arguments[3].numbers if len(arguments) > 3 and arguments[3] else [1] * len(starts)
    out = list(shape)
    for start, end, axis, step in zip(starts, ends, axes, steps, strict=True):
        axis = int(axis) % len(shape)
        out[axis] = len(range(*slice(int(start), int(end), int(step)).indices(shape[axis])))
    return out


def _pooled(sides: Shape, kernel: list[int] | None, attributes: dict) -> Shape:
    """The spatial sides a pooling or a convolution leaves."""
    kernel = kernel or [1] * len(sides)
    strides = attributes.get("strides", [1] * len(sides))
    pads = attributes.get("pads", [0] * 2 * len(sides))
    dilations = attributes.get("dilations", [1] * len(sides))
    rounding = math.ceil if attributes.get("ceil_mode") else math.floor
    return [rounding((side + pads[i] + pads[i + len(sides)] - dilations[i] * (kernel[i] - 1) - 1)
                     / strides[i]) + 1 for i, side in enumerate(sides)]


def _attributes(node: list[Field]) -> dict:
    """A node's attributes by name: ints, lists of ints, floats and constant tensors."""
    found = {}
    for attribute in values(node, NODE_ATTRIBUTE):
        attribute = decode(attribute)
        name = text(attribute, ATTRIBUTE_NAME)
        if value(attribute, ATTRIBUTE_TENSOR) is not None:
            found[name] = _constant(decode(value(attribute, ATTRIBUTE_TENSOR)))
        elif value(attribute, ATTRIBUTE_FLOAT) is not None:
            found[name] = struct.unpack("<f", value(attribute, ATTRIBUTE_FLOAT))[0]
        elif value(attribute, ATTRIBUTE_INT) is not None:
            found[name] = _signed(value(attribute, ATTRIBUTE_INT))
        else:
            found[name] = _ints(attribute, ATTRIBUTE_INTS)
    return found


def _initializers(graph: list[Field]) -> dict[str, Constant]:
    """The graph's initializers (its weights and constants) by name."""
    found = {}
    for initializer in values(graph, GRAPH_INITIALIZER):
        tensor = decode(initializer)
        constant = _constant(tensor)
        if constant is not None:
            found[text(tensor, TENSOR_NAME)] = constant
    return found


def _input_shapes(graph: list[Field]) -> dict[str, Shape]:
    """The graph inputs' shapes, a free side (the batch) taken as 1."""
    shapes = {}
    for info in values(graph, GRAPH_INPUT):
        info = decode(info)
        tensor = decode(value(decode(value(info, VALUE_TYPE, b"")), TYPE_TENSOR, b""))
        dims = [decode(dim) for dim in values(decode(value(tensor, TENSOR_TYPE_SHAPE, b"")),
                                                 SHAPE_DIM)]
        shapes[text(info, 1)] = [value(dim, DIM_VALUE, 1) for dim in dims]
    return shapes


def _constant(tensor: list[Field]) -> Constant | None:
    """A float or int64 tensor's shape and numbers; ``None`` for another type."""
    kind, raw = value(tensor, TENSOR_DATA_TYPE, TENSOR_FLOAT), value(tensor, TENSOR_RAW_DATA)
    if kind == TENSOR_FLOAT:
        raw = raw if raw is not None else b"".join(values(tensor, TENSOR_FLOAT_DATA))
        numbers = list(struct.unpack(f"<{len(raw) // 4}f", raw))
    elif kind == TENSOR_INT64 and raw is not None:
        numbers = list(struct.unpack(f"<{len(raw) // 8}q", raw))
    else:
        return None
    return Constant(_ints(tensor, TENSOR_DIMS), numbers)


def _scalar(constant: Constant | None) -> float | None:
    """The number of a one-number float constant, else ``None``."""
    return constant.numbers[0] if constant and len(constant.numbers) == 1 else None


def _ints(fields: list[Field], number: int) -> list[int]:
    """A repeated int64 field's numbers, packed or one by one."""
    numbers = []
    for _, wire, item in (field for field in fields if field[0] == number):
        if wire == BYTES:
            numbers += packed_varints(item)
        else:
            numbers.append(item)
    return [_signed(n) for n in numbers]


def _signed(number: int) -> int:
    """A varint read as a signed 64-bit integer."""
    return number - (1 << 64) if number >= 1 << 63 else number
