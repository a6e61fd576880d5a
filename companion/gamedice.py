"""The dice the games read, as their folders declare them.

Each game declares the dice it reads in its folder's ``dice.json`` (``{"profiles": [...]}``: per
die its profile id, faces, threshold, how its dice look and the default examples). This module
reads them as plain data (the simulated table and the web may use it: it imports no vision);
:mod:`companion.dicehandoff` hands them to vision. A profile id never changes once shipped:
owners' taught faces and table examples are stored under it.
"""

from __future__ import annotations

import importlib
import json
from importlib import resources
from pathlib import Path
from typing import Any

from .engine import Game, StoreError
from .engine.registry import registry

DICE_FILE = "dice.json"


def dice_file(game: Game) -> Path | None:
    """The ``dice.json`` of ``game``'s folder (None: the game reads no dice by camera)."""
    package = importlib.import_module(type(game).__module__).__package__
    entry = resources.files(package) / DICE_FILE if package else None
    return Path(str(entry)) if entry is not None and entry.is_file() else None


def game_dice(game: Game) -> list[dict[str, Any]]:
    """The die profiles ``game`` declares (none: an empty list); :class:`StoreError` naming
    the file when it cannot be read."""
    path = dice_file(game)
    if path is None:
        return []
    try:
        return list(json.loads(path.read_text(encoding="utf-8"))["profiles"])
    except (OSError, ValueError, KeyError, TypeError) as exc:
        raise StoreError(f"{path}: not a list of die profiles ({exc})") from None


def declared(profile: str) -> dict[str, Any] | None:
    """The data of ``profile`` as an installed game declares it (None: no game does)."""
    for game in registry().games.values():
        for data in game_dice(game):
            if data.get("name") == profile:
                return data
    return None
