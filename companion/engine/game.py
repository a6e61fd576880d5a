"""The contract every game fulfils, and how games are found."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Protocol, runtime_checkable

from .capabilities import Capabilities
from .errors import RuleError
from .events import Event, Schema
from .messages import Expectation, Message, Prompt

ENTRY_POINT_GROUP = "companion.games"


@dataclass
class Step:
    """What one accepted event produced: the new state, what to say, what to ask.

    ``label`` names the event in the history ("Gary fights Incube: won, spent 1 red");
    ``learned`` lists owner definitions the event taught (kind, id, definition), which the
    session also keeps for later games.
    """

    state: dict[str, Any]
    announcements: list[Message] = field(default_factory=list)
    prompts: list[Prompt] = field(default_factory=list)
    label: Message | None = None
    learned: list[tuple[str, str, dict[str, Any]]] = field(default_factory=list)


@dataclass(frozen=True)
class Tally:
    """Where a game stands, for the history's turn-by-turn charts.

    ``turn`` is the turn (or round) the state belongs to; ``charts`` maps a chart's title (a
    message key) to the value of each of its lines: a player's name, or ``""`` for a chart of a
    single line (named by the title). ``tops`` gives a chart's highest possible value when it is
    known (a deck's size), so a chart does not zoom in on small changes.
    """

    turn: int
    charts: dict[str, dict[str, float]]
    tops: dict[str, float] = field(default_factory=dict)


@runtime_checkable
class Game(Protocol):
    """One game's rules. ``apply`` is pure: no I/O, no clock, no randomness.

    ``events`` maps each event type the game accepts (``undo`` is the session's) to the schema of
    its fields. ``messages_dir`` holds the game's ``en.json`` and ``fr.json`` message catalogs.
    Everything else a game offers (a dice helper, charts, secret roles, its page renderer...) it
    declares in ``capabilities`` (:class:`~.capabilities.Capabilities`).
    """

    id: str
    events: Mapping[str, Schema]
    messages_dir: Path
    capabilities: Capabilities

    def setup(self, options: dict[str, Any]) -> Step:
        """Start a game from the ``setup`` event's fields (raise RuleError if they are wrong)."""

    def apply(self, state: dict[str, Any], event: Event) -> Step:
        """Apply one validated event; raise RuleError, changing nothing, if it is illegal now."""

    def view(self, state: dict[str, Any]) -> dict[str, Any]:
        """What the dashboard and ``--json`` output show; JSON-ready."""

    def expects(self, state: dict[str, Any]) -> Expectation:
        """What the table must provide next: complete event templates whose blanks the sensors
        or the phone fill, and the event of the "next" button."""

    def known_definitions(self, owner: Mapping[str, Any]) -> dict[str, dict[str, Any]]:
        """The package's definitions completed by the owner's, by kind and id."""

    def check_definition(self, kind: str, data: Mapping[str, Any]) -> dict[str, Any]:
        """Validate an owner's definition (``id`` included) and return it normalised."""


def check_accepted(state: Mapping[str, Any], event: Event, expected: tuple[str, ...],
                   after_end: tuple[str, ...], anytime: tuple[str, ...]) -> None:
    """Refuse (RuleError) an event a game does not take now: once the game is over only the
    ``after_end`` types (a definition taught, a correction); while it is played the ``expected``
    ones and the ``anytime`` ones, which expectations do not list."""
    if event.type not in after_end and state["status"] != "playing":
        raise RuleError("game.over", status=state["status"], reason=state["reason"])
    if event.type not in (*expected, *anytime):
        raise RuleError("event.not_expected", event=event.type, expected=list(expected))


def installed_games() -> dict[str, Game]:
    """Every game registered under the ``companion.games`` entry-point group that loads, by id,
    the flagship first, then by id (a broken plugin is set aside: see :mod:`.registry`)."""
    from .registry import registry  # the registry imports this module

    return registry().games


def find_game(game_id: Any, games: Mapping[str, Game] | None = None) -> Game:
    """The game with this id, or a RuleError listing the ones installed."""
    games = installed_games() if games is None else games
    if game_id is not None and not isinstance(game_id, str):  # e.g. a list: refused, no crash
        raise RuleError("event.bad_field", field="game", expected="a game id",
                        got=type(game_id).__name__)
    if game_id not in games:
        raise RuleError("game.unknown", game=game_id, known=sorted(games))
    return games[game_id]
