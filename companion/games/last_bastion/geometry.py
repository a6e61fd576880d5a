"""Where things are: sides, slots and tiles of the 3x3 Bastion, and which touch which.

Row 0 lies along side N and column 0 along side W. Slot k of the board on side N faces tile
[0, k], on E faces [k, 2], on S faces [2, 2-k], on W faces [2-k, 0] (issue #2, event contract).
"""

from __future__ import annotations

SIDES = ("N", "E", "S", "W")
CENTRE = (1, 1)
Position = tuple[int, int]


def tile_facing(side: str, k: int) -> Position:
    """The tile that slot ``k`` of the board on ``side`` faces."""
    return {"N": (0, k), "E": (k, 2), "S": (2, 2 - k), "W": (2 - k, 0)}[side]


def slots_facing(tile: Position) -> list[tuple[str, int]]:
    """The (side, k) slots a tile touches: none from the centre, one from an edge, two from a
    corner."""
    return [(side, k) for side in SIDES for k in range(3) if tile_facing(side, k) == tuple(tile)]


def adjacent(a: Position, b: Position) -> bool:
    """Whether two different tiles touch, diagonals included."""
    return a != b and max(abs(a[0] - b[0]), abs(a[1] - b[1])) == 1


def is_corner(tile: Position) -> bool:
    """Whether a tile is one of the four corners (it touches two slots)."""
    return tile[0] in (0, 2) and tile[1] in (0, 2)


def opposite(side: str) -> str:
    """The side across the Bastion."""
    return SIDES[(SIDES.index(side) + 2) % 4]


def clockwise_from(first: str) -> list[str]:
    """The turn order: N, E, S, W starting from ``first``."""
    start = SIDES.index(first)
    return [SIDES[(start + i) % 4] for i in range(4)]
