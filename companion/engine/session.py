"""The session: the only writer. Validate, apply, journal, then tell the listeners."""

from __future__ import annotations

import os
import threading
import time
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from .definitions import DefinitionStore
from .errors import RuleError, StoreError
from .events import Event, Field, integer, validate
from .game import Game, Step, find_game, installed_games
from .journal import Entry, GameRecord, Journal
from .messages import Expectation, Message

UNDO_SCHEMA = {"steps": Field(integer(1), required=False), "to": Field(integer(1), required=False)}


def default_data_dir() -> Path:
    """Where the journal and the owner's definitions live unless told otherwise."""
    if "COMPANION_DATA_DIR" in os.environ:
        return Path(os.environ["COMPANION_DATA_DIR"])
    base = os.environ.get("XDG_DATA_HOME") or Path.home() / ".local" / "share"
    return Path(base) / "companion"


@dataclass(frozen=True)
class Frame:
    """One point of the effective history: the event that led there, and the state it made."""

    seq: int
    event: Event
    state: dict[str, Any]
    label: dict[str, Any] | None


@dataclass(frozen=True)
class Update:
    """What listeners receive after each accepted event."""

    version: int
    event: Event
    step: Step


Listener = Callable[[Update], None]


def fold(game: Game, entries: Iterable[Entry]) -> list[Frame]:
    """Replay a game's journal entries into its effective frames (undone events left out)."""
    frames: list[Frame] = []
    for entry in entries:
        event = entry.event
        if event.type == "setup":
            options = {k: v for k, v in event.fields.items() if k != "game"}
            frames = [Frame(entry.seq, event, game.setup(options).state, entry.label)]
        elif event.type == "undo":
            del frames[-undo_depth(frames, event.fields):]
        else:
            frames.append(Frame(entry.seq, event, game.apply(frames[-1].state, event).state,
                                entry.label))
    return frames


def undo_depth(frames: list[Frame], fields: Mapping[str, Any]) -> int:
    """How many frames an undo removes: ``steps`` of them, or back ``to`` a journal point.

    The setup frame can never be undone: a new game starts with a new setup.
    """
    if "to" in fields:
        seqs = [f.seq for f in frames]
        if fields["to"] not in seqs:
            raise RuleError("undo.unknown_point", to=fields["to"], known=seqs)
        steps = len(seqs) - 1 - seqs.index(fields["to"])
    else:
        steps = fields.get("steps", 1)
    if steps < 1 or steps > len(frames) - 1:
        raise RuleError("undo.too_far", steps=steps, possible=len(frames) - 1)
    return steps


IMAGINARY = frozenset({"simulator"})
"""Sources whose inventions (the simulated table's cards) live in their game only, never in the
owner's definitions."""

class Session:
    """Holds the current game of a data directory and is the only way to change it.

    Every event is validated against the game's schema, applied by the pure rules, written to the
    journal in its own committed transaction, and only then published to listeners. State is a fold
    of the journal: opening the same data directory again resumes exactly where it stopped.
    """

    def __init__(
        self, data_dir: Path | str | None = None, games: Mapping[str, Game] | None = None
    ) -> None:
        self.data_dir = Path(data_dir) if data_dir is not None else default_data_dir()
        self.data_dir.mkdir(parents=True, exist_ok=True)
        self._games = dict(installed_games() if games is None else games)
        self._journal = Journal(self.data_dir / "journal.sqlite3")
        self._lock = threading.RLock()
        self._listeners: list[Listener] = []
        self.record: GameRecord | None = None
        self.game: Game | None = None
        self._frames: list[Frame] = []
        self.version = self._journal.last_seq()
        self._resume()

    # -- reading -------------------------------------------------------------------------------

    @property
    def state(self) -> dict[str, Any] | None:
        """The current rule state, or None before the first setup."""
        return self._frames[-1].state if self._frames else None

    def expects(self) -> Expectation:
        """What the table must provide next."""
        if self.game is None or self.state is None:
            return Expectation("setup", ("setup",), Message("expect.setup"))
        return self.game.expects(self.state)

    def view(self) -> dict[str, Any]:
        """The game's view plus the journal version and what is expected."""
        with self._lock:
            if self.game is None or self.state is None:
                return {"game": None, "version": self.version, "expects": self.expects().to_json()}
            data = self.game.view(self.state)
            data["version"] = self.version
            data["expects"] = self.game.expects(self.state).to_json()
            return data

    def history(self) -> list[Frame]:
        """The effective history of the current game (undone events left out), oldest first."""
        with self._lock:
            return list(self._frames)

    def journal_entries(self, game_id: int | None = None) -> list[Entry]:
        """Every journaled event of a game (the current one by default), undos included."""
        with self._lock:
            gid = game_id if game_id is not None else (self.record.id if self.record else None)
            return [] if gid is None else list(self._journal.entries(gid))

    def past_games(self) -> list[GameRecord]:
        """Every game of this data directory."""
        with self._lock:
            return self._journal.games()

    def definitions(self, game_id: str) -> DefinitionStore:
        """The owner's definitions for a game."""
        return DefinitionStore(self.data_dir, game_id)

    # -- writing -------------------------------------------------------------------------------

    def submit(self, event: Event | Mapping[str, Any], source: str | None = None,
               based_on: int | None = None) -> Step:
        """Validate, apply and journal one event; return its Step once it is safely on disk.

        Raises RuleError (and changes nothing, in memory or on disk) if the event is malformed,
        unknown, illegal or not expected now, or if ``based_on`` (the version the sender saw) is
        older than the current version: a stale client never overwrites newer state.
        """
        if not isinstance(event, Event):
            event = Event.from_json(event)
        if source is not None:
            event = Event(event.type, event.fields, source, event.at)
        with self._lock:
            if based_on is not None and based_on != self.version:
                raise RuleError("event.stale", based_on=based_on, version=self.version)
            stamped = Event(event.type, event.fields, event.source, event.at or time.time())
            if stamped.type == "setup":
                return self._start(stamped)
            if self.game is None or self.state is None:
                raise RuleError("event.no_game", event=stamped.type, expected=["setup"])
            if stamped.type == "undo":
                return self._undo(stamped)
            schema = self.game.events.get(stamped.type)
            if schema is None:
                raise RuleError(
                    "event.unknown_type", event=stamped.type,
                    expected=sorted([*self.game.events, "undo"]),
                )
            clean = Event(stamped.type, validate(stamped.type, stamped.fields, schema),
                          stamped.source, stamped.at)
            step = self.game.apply(self.state, clean)
            label = step.label.to_json() if step.label else None
            entry = self._journal.append(self.record.id, clean, label, self._summary(step.state))
            self._frames.append(Frame(entry.seq, clean, step.state, label))
            return self._accepted(entry, step)

    def _start(self, event: Event) -> Step:
        fields = dict(event.fields)
        game = find_game(fields.pop("game", None), self._games)
        if "definitions" not in fields:
            fields["definitions"] = DefinitionStore(self.data_dir, game.id).load()
        schema = game.events["setup"]
        clean = Event("setup", {"game": game.id, **validate("setup", fields, schema)},
                      event.source, event.at)
        step = game.setup({k: v for k, v in clean.fields.items() if k != "game"})
        label = step.label.to_json() if step.label else None
        entry = self._journal.start_game(game.id, clean, label, self._summary(step.state, game))
        self.game = game
        self.record = self._journal.latest_game()
        self._frames = [Frame(entry.seq, clean, step.state, label)]
        return self._accepted(entry, step)

    def _undo(self, event: Event) -> Step:
        fields = validate("undo", event.fields, UNDO_SCHEMA)
        steps = undo_depth(self._frames, fields)
        undone = self._frames[-steps:]
        target = self._frames[-steps - 1]
        clean = Event("undo", fields, event.source, event.at)
        label = Message("history.undo", {"count": steps, "labels": [f.label for f in undone]})
        step = Step(target.state, [Message("undo.done", label.params)], [], label)
        entry = self._journal.append(self.record.id, clean, label.to_json(),
                                     self._summary(target.state))
        del self._frames[-steps:]
        return self._accepted(entry, step)

    def _accepted(self, entry: Entry, step: Step) -> Step:
        self.version = entry.seq
        if step.learned and self.game is not None and entry.event.source not in IMAGINARY:
            store = DefinitionStore(self.data_dir, self.game.id)
            for kind, item_id, definition in step.learned:
                store.save(kind, item_id, definition)
        update = Update(entry.seq, entry.event, step)
        for listener in list(self._listeners):
            listener(update)
        return step

    def _summary(self, state: dict[str, Any], game: Game | None = None) -> dict[str, Any]:
        view = (game or self.game).view(state)
        return {key: view.get(key) for key in ("status", "reason", "score", "mode", "players")}

    # -- resuming ------------------------------------------------------------------------------

    def _resume(self) -> None:
        record = self._journal.latest_game()
        if record is None:
            return
        game = find_game(record.game, self._games)
        self.record, self.game = record, game
        try:
            self._frames = fold(game, self._journal.entries(record.id))
        except (RuleError, KeyError, TypeError, ValueError) as error:  # written by other rules
            raise StoreError(
                f"{self._journal.path}: game {record.id} cannot be replayed by this version of "
                f"{game.id} ({error}); the journal was left untouched"
            ) from None

    def frames(self, game_id: int) -> list[Frame]:
        """The effective history of any game of the journal (the current one is not refolded)."""
        with self._lock:
            if self.record is not None and game_id == self.record.id:
                return list(self._frames)
            record = next((r for r in self._journal.games() if r.id == game_id), None)
            if record is None:
                raise RuleError("game.no_such_record", game_id=game_id)
            return fold(find_game(record.game, self._games), self._journal.entries(game_id))

    # -- listening -----------------------------------------------------------------------------

    def subscribe(self, listener: Listener) -> Callable[[], None]:
        """Call ``listener`` after every accepted event; return a function that stops it."""
        self._listeners.append(listener)
        return lambda: self._listeners.remove(listener)

    def close(self) -> None:
        """Close the journal."""
        self._journal.close()
