"""Protobuf messages read and written field by field, without a generated class or library.

Enough of the wire format (https://protobuf.dev/programming-guides/encoding/) to rewrite a few
nodes of an ONNX model (:mod:`vision.onnx_legacy`) without the ``onnx`` package, which the
companion does not depend on: a message is a list of ``(number, wire type, value)`` fields in
their order, nested messages left as bytes, and :func:`encode` gives back the bytes
:func:`decode` read.
"""

from __future__ import annotations

VARINT, FIXED64, BYTES, FIXED32 = 0, 1, 2, 5

Field = tuple[int, int, "int | bytes"]  # field number, wire type, value


def decode(data: bytes) -> list[Field]:
    """A message's fields in order. Raises ``ValueError`` on bytes that are not a message."""
    fields, at = [], 0
    while at < len(data):
        tag, at = _varint(data, at)
        number, wire = tag >> 3, tag & 7
        if wire == VARINT:
            value, at = _varint(data, at)
        elif wire in (FIXED64, FIXED32):
            size = 8 if wire == FIXED64 else 4
            value, at = data[at:at + size], at + size
        elif wire == BYTES:
            size, at = _varint(data, at)
            value, at = data[at:at + size], at + size
        else:
            raise ValueError(f"not a protobuf message: wire type {wire}")
        if at > len(data):
            raise ValueError("not a protobuf message: it ends inside a field")
        fields.append((number, wire, value))
    return fields


def encode(fields: list[Field]) -> bytes:
    """The bytes of a message's fields (the inverse of :func:`decode`)."""
    out = bytearray()
    for number, wire, value in fields:
        out += _varint_bytes(number << 3 | wire)
        if wire == VARINT:
            out += _varint_bytes(value)
        elif wire == BYTES:
            out += _varint_bytes(len(value)) + value
        else:
            out += value
    return bytes(out)


def values(fields: list[Field], number: int) -> list:
    """The values of every occurrence of a field (a repeated field's items)."""
    return [value for n, _, value in fields if n == number]


def value(fields: list[Field], number: int, default=None):
    """The value of a field (its last occurrence, as protobuf reads it), or ``default``."""
    found = values(fields, number)
    return found[-1] if found else default


def text(fields: list[Field], number: int) -> str:
    """A string field's text ("" when absent)."""
    return value(fields, number, b"").decode()


def packed_varints(data: bytes) -> list[int]:
    """The numbers of a packed repeated integer field's bytes."""
    numbers, at = [], 0
    while at < len(data):
        number, at = _varint(data, at)
        numbers.append(number)
    return numbers


def _varint(data: bytes, at: int) -> tuple[int, int]:
    """The base-128 integer that starts at ``at``, and where the next field starts."""
    result = shift = 0
    while True:
        if at >= len(data):
            raise ValueError("not a protobuf message: it ends inside a number")
        byte = data[at]
        at += 1
        result |= (byte & 0x7F) << shift
        shift += 7
        if byte < 0x80:
            return result, at


def _varint_bytes(number: int) -> bytes:
    """``number`` in base-128, low group first (a negative one in protobuf's 64-bit form)."""
    number &= (1 << 64) - 1
    out = bytearray()
    while True:
        low, number = number & 0x7F, number >> 7
        if not number:
            return bytes(out + bytes([low]))
        out.append(low | 0x80)
