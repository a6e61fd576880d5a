"""The games' dice handed to vision: ``vision`` takes die profiles as data and names no game, so
the app layer hands in what each game's folder declares (:mod:`companion.gamedice`) before
anything reads dice: ``companion run``, ``companion dice``, ``companion doctor``, the benchmarks
and the tests.

    .venv/bin/python -m companion.dicehandoff defaults   # rebuild the defaults from renders
"""

from __future__ import annotations

import sys
from collections.abc import Iterable

from vision.profile import use_profiles

from .engine import Game
from .engine.registry import registry
from .gamedice import dice_file, game_dice


def declare_dice(games: Iterable[Game] | None = None) -> list[str]:
    """Hand the dice of ``games`` (every installed game by default) to vision; returns the
    profile ids handed in."""
    names = []
    for game in registry().games.values() if games is None else games:
        path = dice_file(game)
        if path is not None:
            names += use_profiles(game_dice(game), path)
    return names


def main(argv: list[str] | None = None) -> int:
    """``python -m companion.dicehandoff defaults``: rebuild every learned profile's defaults
    (after the face embedder was retrained), in the files they came from."""
    args = sys.argv[1:] if argv is None else argv
    if args != ["defaults"]:
        print("usage: python -m companion.dicehandoff defaults", file=sys.stderr)
        return 2
    from vision.defaults import rebuild  # OpenCV and the renderer: only for this

    declare_dice()
    for name in rebuild():
        print("rebuilt", name)
    return 0


if __name__ == "__main__":
    sys.exit(main())
