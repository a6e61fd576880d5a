"""What a game offers beyond the :class:`~.game.Game` protocol, declared in one place.

The web page, the voice, the simulated table and the hardware read a game's
:class:`Capabilities` instead of asking it with ``getattr`` or keeping tables of game ids: a
game (or a plugin package) adds a dice helper, secret roles or its own page renderer by filling
in its declaration, and nothing outside its folder changes.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from .events import Event, Schema
from .upcast import Upcaster

if TYPE_CHECKING:
    from .game import Tally

State = dict[str, Any]


@dataclass(frozen=True)
class Roles:
    """Players who see more than the table (Attack on Titan's Titan): their names, the picture
    each one sees, and the check that refuses (RuleError) an event that is not theirs to send."""

    names: tuple[str, ...]
    view: Callable[[str, State], dict[str, Any]]
    check: Callable[[str, State, Event], None]


@dataclass(frozen=True)
class Capabilities:
    """A game's optional parts; each left empty means the game does not offer it.

    - ``flagship``: listed first wherever games are listed (``companion games``, the host's menu).
    - ``page``: the script that draws the game's table on the phone page (in the game's folder).
    - ``helper(state)``: the dice helper shown beside a roll (exact odds, cheapest win), or None.
    - ``tally(state)``: where the game stands, for the history's charts.
    - ``names(lang, state)``: how the game's ids read (tiles, heroes, this table's players).
    - ``roles``: secret roles, see :class:`Roles`.
    - ``warnings``: key prefixes of the game's announcements that are warnings (said even when
      the table has moved on, and flashed on the LEDs).
    - ``schemas``: what the owner may teach, by kind (the teach forms are built from them).
    - ``pickers(definitions, seen)``: the host page's card picker data, when the generic list of
      ids by kind is not enough.
    - ``dice``: the die profiles the game reads with the camera (the host's dice teaching offers
      these, not every profile installed).
    - ``invent(state, rng)``: a card made up for the simulated table when the owner has taught
      none the deck can give (its ``card`` event fields), or None.
    - ``upcasters``: for each event format N in which the game's events meant something else,
      the :data:`~.upcast.Upcaster` that turns an event of format N into format N + 1 (Attack on
      Titan's format 1 sent a ``resolve`` for a card nobody can counter, which the game now
      resolves by itself): journals and recorded files of earlier versions replay (docs/events.md,
      «Event formats»).
    """

    flagship: bool = False
    page: Path | None = None
    helper: Callable[[State], dict[str, Any] | None] | None = None
    tally: Callable[[State], Tally] | None = None
    names: Callable[[str, State | None], dict[str, str]] | None = None
    roles: Roles | None = None
    warnings: tuple[str, ...] = ()
    schemas: Mapping[str, Schema] = field(default_factory=dict)
    pickers: Callable[[dict[str, Any], list[str]], dict[str, Any]] | None = None
    invent: Callable[[State, random.Random], dict[str, Any]] | None = None
    dice: tuple[str, ...] = ()
    upcasters: Mapping[int, Upcaster] = field(default_factory=dict)
