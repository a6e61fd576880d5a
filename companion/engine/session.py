"""The session: the only writer. Validate, apply, journal, then tell the listeners."""

from __future__ import annotations

import copy
import logging
import threading
import time
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from . import backup
from .definitions import DefinitionStore, merge_taught
from .errors import RuleError, StoreError
from .events import Event, Field, integer, text, validate
from .files import check_writable, ensure_dir, sweep_temp
from .game import Game, Step, find_game, installed_games
from .journal import ChainBreak, Entry, GameRecord, Journal, Learned
from .lock import DataLock
from .messages import Expectation, Message
from .paths import DataPaths
from .upcast import Upcasting

log = logging.getLogger(__name__)

DEFINITIONS = "definitions"
"""The name of the derived definitions files in the journal's ``derived`` table."""
REPLAY_ERRORS = (RuleError, KeyError, TypeError, ValueError, IndexError)
"""What replaying an event written by other rules (or altered by hand) may raise."""

UNDO_SCHEMA = {"steps": Field(integer(1), required=False), "to": Field(integer(1), required=False)}


@dataclass(frozen=True)
class Frame:
    """One point of the effective history: the event that led there, and the state it made
    (``None`` in the older frames a session holds: :data:`STATES_HELD`)."""

    seq: int
    event: Event
    state: dict[str, Any] | None
    label: dict[str, Any] | None


STATES_HELD = 64
"""How many of the current game's latest frames a session holds with their state: an undo that
far back is immediate. Older frames keep their event and label only (a state is several
kilobytes, a game thousands of events); a deeper undo and :meth:`Session.frames` replay the
game from the journal."""


def held(frames: list[Frame]) -> list[Frame]:
    """``frames`` with the states of all but the latest :data:`STATES_HELD` let go."""
    cut = len(frames) - STATES_HELD
    return [replace(f, state=None) if i < cut and f.state is not None else f
            for i, f in enumerate(frames)]


@dataclass(frozen=True)
class Update:
    """What listeners receive after each accepted event."""

    version: int
    event: Event
    step: Step


Listener = Callable[[Update], None]


@dataclass(frozen=True)
class Replayed:
    """A game's journal replayed: its effective frames up to the first event the rules refuse
    (``refused``, with the ``error``), or all of them."""

    frames: list[Frame]
    refused: Entry | None = None
    error: Exception | None = None

    def problem(self, path: Path, game_id: int) -> StoreError:
        """The refusal as the error that points to ``companion repair``."""
        assert self.refused is not None
        error = self.error
        reason = (Message(error.key, error.params).to_json() if isinstance(error, RuleError)
                  else f"{type(error).__name__}: {error}")
        return StoreError("store.needs_repair", path=str(path), game=game_id,
                          seq=self.refused.seq, event=self.refused.event.type, reason=reason)


def replay(game: Game, entries: Iterable[Entry]) -> Replayed:
    """Replay a game's journal entries into its effective frames (undone events left out),
    stopping at the first event the rules refuse. Entries written in an older event format
    reach the rules as today's events (:class:`~.upcast.Upcasting`)."""
    frames: list[Frame] = []
    upcasting = Upcasting()
    for entry in entries:
        try:
            state = frames[-1].state if frames else None
            for event in upcasting.feed(entry.format, entry.event, game, state, entry.seq):
                frames = _replay_one(game, frames, entry, event)
        except REPLAY_ERRORS as error:
            return Replayed(frames, entry, error)
    return Replayed(frames)


def _replay_one(game: Game, frames: list[Frame], entry: Entry, event: Event) -> list[Frame]:
    """The frames after one of today's events of a journal entry (``frames`` changed in place,
    or a new list for a setup)."""
    if event.type == "setup":
        options = {k: v for k, v in event.fields.items() if k != "game"}
        return [Frame(entry.seq, event, game.setup(options).state, entry.label)]
    if event.type == "undo":
        del frames[-undo_depth(frames, event.fields):]
    else:
        frames.append(Frame(entry.seq, event, game.apply(frames[-1].state, event).state,
                            entry.label))
    return frames


def fold(game: Game, entries: Iterable[Entry]) -> list[Frame]:
    """Replay a game's journal entries into its effective frames; raise the first refusal."""
    replayed = replay(game, entries)
    if replayed.error is not None:
        raise replayed.error
    return replayed.frames


def summary_of(view: Mapping[str, Any]) -> dict[str, Any]:
    """What the journal keeps about how a game stands (its list of games shows it), from the
    game's view."""
    return {key: view.get(key) for key in ("status", "reason", "score", "mode", "players")}


def chain_problem(path: Path, broken: ChainBreak) -> StoreError:
    """A broken checksum chain as the error that says what is wrong and the way out."""
    if broken.seq is None:
        return StoreError("store.tail_lost", path=str(path), last=broken.last_seq,
                          head=broken.head_seq, first=broken.last_seq + 1)
    return StoreError("store.chain_broken", path=str(path), seq=broken.seq)


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


PICTURES = "picture"
"""The kind of what a teaching learned that is a picture (a card taught from a photo: its
straightened image as JPEG bytes in base64): journaled with the event that taught it, and
written into its own files (:mod:`companion.cardphotos`), never into ``definitions/``."""

BOX_EVENTS = {"card_photo": {"id": Field(text)}}
"""The events of the box itself, outside every game (docs/events.md, «Session events»):
``card_photo``, a card taught from a photo on the command line (its picture journaled with it,
:data:`PICTURES`)."""

IMAGINARY = frozenset({"simulator"})
"""Sources whose inventions (the simulated table's cards) live in their game only, never in the
owner's definitions."""

class Session:
    """Holds the current game of a data directory and is the only way to change it.

    Every event is validated against the game's schema, applied by the pure rules, written to the
    journal in its own committed transaction, and only then published to listeners. State is a fold
    of the journal: opening the same data directory again resumes exactly where it stopped.

    A writing session holds the data directory's lock (:mod:`.lock`) from opening to
    :meth:`close`: a second writer is refused with the process that holds it. On opening it
    sweeps away temporary files a crash left, checks the checksum chain and that the current game
    replays (else it refuses, pointing to ``companion repair``), and brings the derived
    definitions files up to date. A ``readonly`` session (``history``) takes no lock and writes
    nothing: it shows what replays and lists what is wrong in :attr:`problems`.
    """

    def __init__(
        self, data_dir: DataPaths | Path | str | None = None,
        games: Mapping[str, Game] | None = None, readonly: bool = False,
    ) -> None:
        self.paths = data_dir if isinstance(data_dir, DataPaths) else DataPaths.resolve(data_dir)
        self.data_dir = ensure_dir(self.paths.root)
        self.readonly = readonly
        self._games = dict(installed_games() if games is None else games)
        self._lock = threading.RLock()
        self._listeners: list[Listener] = []
        self.record: GameRecord | None = None
        self.game: Game | None = None
        self.status: str | None = None
        self._frames: list[Frame] = []
        self._last_view: tuple[Game, dict[str, Any], dict[str, Any]] | None = None
        self.problems: list[StoreError] = []
        self._recorded = Upcasting()
        self._writer = None if readonly else DataLock(self.data_dir)
        try:
            if not readonly:
                sweep_temp(self.data_dir)
            self._journal = Journal(self.paths.journal, readonly=readonly, create=True)
            try:
                self.version = self._journal.last_seq()
                self._open()
            except BaseException:
                self._journal.close()
                raise
        except BaseException:
            if self._writer is not None:
                self._writer.release()
            raise

    def _open(self) -> None:
        broken = self._journal.check_chain()
        if broken is not None:
            self.problems.append(chain_problem(self._journal.path, broken))
        self._resume()
        if self.problems and not self.readonly:
            raise self.problems[0]
        if not self.readonly:
            self.sync_definitions()

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
            data = self._game_view(self.game, self.state)
            data["version"] = self.version
            if "expects" not in data:  # every packaged game's view says it already
                data["expects"] = self.game.expects(self.state).to_json()
            return data

    def history(self) -> list[Frame]:
        """The effective history of the current game (undone events left out), oldest first;
        only the latest :data:`STATES_HELD` frames carry their state (:meth:`frames` gives
        every state)."""
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

    def owner_definitions(self, game_id: str) -> dict[str, dict[str, dict[str, Any]]]:
        """Everything the owner taught for a game: the definitions file completed by what the
        journal taught that the file does not hold yet (a write that failed after a commit)."""
        data = self.definitions(game_id).load()
        merge_taught(data, [(kind, item, definition) for _seq, game, kind, item, definition
                            in self._journal.learned_since(DEFINITIONS)
                            if game == game_id and kind != PICTURES])
        return data

    def pictures_since(self, name: str) -> list[tuple[int, str, dict[str, Any]]]:
        """The pictures the events taught (:data:`PICTURES`) after derived folder ``name``
        last caught up: seq, id, body, oldest first."""
        with self._lock:
            return [(seq, item, body) for seq, _game, kind, item, body
                    in self._journal.learned_since(name) if kind == PICTURES]

    def caught_up(self, name: str, seq: int) -> None:
        """Record that derived folder ``name`` holds what the events taught up to ``seq``."""
        with self._lock:
            self._journal.set_derived(name, seq)

    def sync_definitions(self) -> bool:
        """Write into ``definitions/`` what the journal taught that they do not hold yet; say
        whether they are now up to date. A failure (full disk, read-only folder) is logged and
        retried after the next event and on the next start: the journal keeps the truth."""
        pending = self._journal.learned_since(DEFINITIONS)
        if not pending:
            return True
        by_game: dict[str, list[tuple[str, str, dict[str, Any]]]] = {}
        for _seq, game, kind, item, definition in pending:
            if kind != PICTURES:
                by_game.setdefault(game, []).append((kind, item, definition))
        try:
            for game, items in by_game.items():
                self.definitions(game).save_all(items)
            self._journal.set_derived(DEFINITIONS, pending[-1][0])
        except (OSError, StoreError) as error:
            log.warning("definitions not yet written from the journal: %s", error)
            return False
        return True

    # -- writing -------------------------------------------------------------------------------

    def submit(self, event: Event | Mapping[str, Any], source: str | None = None,
               based_on: int | None = None, taught: Sequence[Learned] = ()) -> Step:
        """Validate, apply and journal one event; return its Step once it is safely on disk.
        ``taught``: what the event taught besides what its rules say (a card's picture,
        :data:`PICTURES`), journaled in the same transaction.

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
            summary = self._summary(step.state)
            self._check_storage()
            learned = [*step.learned, *taught] if clean.source not in IMAGINARY else []
            entry = self._journal.append(self.record.id, clean, label, summary, learned,
                                         self.game.id)
            self._frames.append(Frame(entry.seq, clean, step.state, label))
            if len(self._frames) > STATES_HELD:
                let_go = self._frames[-STATES_HELD - 1]
                self._frames[-STATES_HELD - 1] = replace(let_go, state=None)
            return self._accepted(entry, step, summary)

    def submit_box(self, event: Event | Mapping[str, Any], taught: Sequence[Learned] = ()) -> int:
        """Validate and journal an event of the box itself (:data:`BOX_EVENTS`) with what it
        taught, in one transaction; return its journal position. It is no step of any game: the
        game's history and undo never see it, as an undo never takes back what a teaching taught
        (docs/journal.md). Listeners are not told: no game changed."""
        if not isinstance(event, Event):
            event = Event.from_json(event)
        schema = BOX_EVENTS.get(event.type)
        if schema is None:
            raise RuleError("event.unknown_type", event=event.type, expected=sorted(BOX_EVENTS))
        clean = Event(event.type, validate(event.type, event.fields, schema), event.source,
                      event.at or time.time())
        with self._lock:
            self._check_storage()
            entry = self._journal.append_box(clean, taught)
            self.version = entry.seq
            return entry.seq

    def submit_recorded(self, event: Event, version: int, source: str = "replay") -> list[Step]:
        """Submit one event of a recorded file written in event format ``version``: turned into
        today's events as a resumed journal's are (:class:`~.upcast.Upcasting`), each submitted.
        Their Steps: none for an event this version does by itself."""
        with self._lock:
            game = (find_game(event.fields.get("game"), self._games) if event.type == "setup"
                    else self.game)
            events = self._recorded.feed(version, event, game, self.state)
            return [self.submit(today, source=source) for today in events]

    def _check_storage(self) -> None:
        """Refuse an event before it is written when the data directory cannot take it."""
        if self.readonly:
            raise StoreError("store.readonly_session", path=str(self.data_dir))
        check_writable(self.data_dir)

    def _start(self, event: Event) -> Step:
        fields = dict(event.fields)
        game = find_game(fields.pop("game", None), self._games)
        if "definitions" not in fields:
            fields["definitions"] = self.owner_definitions(game.id)
        schema = game.events["setup"]
        clean = Event("setup", {"game": game.id, **validate("setup", fields, schema)},
                      event.source, event.at)
        step = game.setup({k: v for k, v in clean.fields.items() if k != "game"})
        label = step.label.to_json() if step.label else None
        summary = self._summary(step.state, game)
        self._check_storage()
        entry = self._journal.start_game(game.id, clean, label, summary, step.learned)
        self.game = game
        self.record = self._journal.latest_game()
        self.status = None
        self._frames = [Frame(entry.seq, clean, step.state, label)]
        return self._accepted(entry, step, summary)

    def _undo(self, event: Event) -> Step:
        fields = validate("undo", event.fields, UNDO_SCHEMA)
        steps = undo_depth(self._frames, fields)
        undone = self._frames[-steps:]
        if self._frames[-steps - 1].state is None:  # further back than the states held
            self._frames = held(fold(self.game, self._journal.entries(self.record.id))[
                :len(self._frames) - steps]) + undone
        target = self._frames[-steps - 1]
        clean = Event("undo", fields, event.source, event.at)
        label = Message("history.undo", {"count": steps, "labels": [f.label for f in undone]})
        step = Step(target.state, [Message("undo.done", label.params)], [], label)
        summary = self._summary(target.state)
        self._check_storage()
        entry = self._journal.append(self.record.id, clean, label.to_json(), summary)
        del self._frames[-steps:]
        return self._accepted(entry, step, summary)

    def _accepted(self, entry: Entry, step: Step, summary: dict[str, Any]) -> Step:
        """The event is committed: from here on nothing may fail it. Derived files follow
        (a failure is repaired from the journal later), a game that just ended is backed up,
        and the listeners are told."""
        self.version = entry.seq
        if step.learned:
            self.sync_definitions()
        ended = self.status == "playing" and summary.get("status") not in (None, "playing")
        self.status = summary.get("status")
        if ended:
            try:
                backup.rotate(self._journal, self.paths)
            except (OSError, StoreError) as error:
                log.warning("the backup at the end of game %s failed: %s", self.record.id, error)
        update = Update(entry.seq, entry.event, step)
        for listener in list(self._listeners):
            try:
                listener(update)
            except Exception:  # a page, a voice or a LED must not fail a committed event
                log.exception("a listener failed on event %s", entry.seq)
        return step

    def _summary(self, state: dict[str, Any], game: Game | None = None) -> dict[str, Any]:
        return summary_of(self._game_view(game or self.game, state))

    def _game_view(self, game: Game, state: dict[str, Any]) -> dict[str, Any]:
        """``game``'s view of ``state`` (a copy the caller may change), worked out once per
        state: a state is never changed once an event has made it, and a view tries a score of
        events on copies of it to say what the page may offer, so the summary journaled with an
        event and every page that then asks share one."""
        last = self._last_view
        if last is None or last[0] is not game or last[1] is not state:
            last = self._last_view = (game, state, game.view(state))
        return copy.deepcopy(last[2])

    # -- resuming ------------------------------------------------------------------------------

    def _resume(self) -> None:
        record = self._journal.latest_game()
        if record is None:
            return
        game = find_game(record.game, self._games)
        self.record, self.game, self.status = record, game, record.status
        replayed = replay(game, self._journal.entries(record.id))
        self._frames = held(replayed.frames)
        if replayed.refused is not None:
            self.problems.append(replayed.problem(self._journal.path, record.id))

    def frames(self, game_id: int) -> list[Frame]:
        """The effective history of any game of the journal, every frame with its state,
        replayed from the journal on demand (nothing of it stays in memory)."""
        with self._lock:
            record = next((r for r in self._journal.games() if r.id == game_id), None)
            if record is None:
                raise RuleError("game.no_such_record", game_id=game_id)
            game, entries = find_game(record.game, self._games), self._journal.entries(game_id)
            if self.record is not None and game_id == self.record.id:
                return replay(game, entries).frames  # up to a refusal, as the session holds it
            return fold(game, entries)

    # -- listening -----------------------------------------------------------------------------

    def subscribe(self, listener: Listener) -> Callable[[], None]:
        """Call ``listener`` after every accepted event; return a function that stops it."""
        self._listeners.append(listener)
        return lambda: self._listeners.remove(listener)

    def close(self) -> None:
        """Close the journal and let another writer in."""
        self._journal.close()
        if self._writer is not None:
            self._writer.release()
            self._writer = None
