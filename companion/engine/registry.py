"""The games the companion knows: each is a package registered under the ``companion.games``
entry-point group (the four games of this package, and any third-party plugin).

A plugin that cannot be loaded (its import fails, or what it registers is not a game) must not
take the companion down with it: :func:`registry` sets it aside as :class:`Broken`, with its
error, and every other game runs. ``companion games`` and ``companion doctor`` list the broken
ones.
"""

from __future__ import annotations

import logging
from collections.abc import Iterable
from dataclasses import dataclass, field
from functools import cache
from importlib.metadata import EntryPoint, entry_points

from .game import ENTRY_POINT_GROUP, Game

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class Broken:
    """A registered game that cannot be loaded: its entry point, its package, and why."""

    name: str
    target: str
    package: str
    error: str


@dataclass(frozen=True)
class Registry:
    """The games that loaded, by id, and the entry points that did not."""

    games: dict[str, Game] = field(default_factory=dict)
    broken: list[Broken] = field(default_factory=list)


def load(points: Iterable[EntryPoint]) -> Registry:
    """Load every entry point; a failure of any kind is recorded, never raised."""
    registry = Registry()
    for point in points:
        try:
            game = point.load()
            if not isinstance(game, Game):
                raise TypeError(f"{point.value} is a {type(game).__name__}, not a game (it needs "
                                "id, events, setup, apply, view, expects...)")
        except Exception as exc:  # a plugin's own bug: any exception at all
            package = point.dist.name if point.dist is not None else "?"
            broken = Broken(point.name, point.value, package, f"{type(exc).__name__}: {exc}")
            log.error("game plugin %s (%s) is broken: %s", point.name, package, broken.error)
            registry.broken.append(broken)
            continue
        registry.games[game.id] = game
    ordered = sorted(registry.games.values(), key=lambda g: (not g.capabilities.flagship, g.id))
    return Registry({game.id: game for game in ordered}, registry.broken)


@cache
def registry() -> Registry:
    """The installed games (loaded once)."""
    return load(entry_points(group=ENTRY_POINT_GROUP))
