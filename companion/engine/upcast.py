"""Event-format versions: an older sequence of events turned into today's, as event stores do.

Every journaled event and every recorded file carries the event format it was written in
(:data:`~.events.FORMAT` today; a journal row or a file without one is format 1, everything
written before formats were recorded). When the meaning of an event changes, the format goes
up by one and the game that changed declares an :data:`Upcaster` from the old format to the new
one in its :class:`~.capabilities.Capabilities` (``upcasters``). Resuming a journal and
``companion replay`` of a file both read through one :class:`Upcasting`: what was written in an
older format reaches the rules as the events this version would have been sent.

An ``undo`` of an older format counted the events of its time: when an upcaster turns one old
event into none or several, the undo is recounted so that it still takes back the same moments
of the game.
"""

from __future__ import annotations

import copy
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from .errors import RuleError
from .events import FORMAT, Event

if TYPE_CHECKING:
    from .game import Game

State = dict[str, Any]

Upcaster = Callable[["Game", State | None, Event, dict[str, Any]], list[Event]]
"""Turns one event written in format N into the events of format N + 1 it means: ``(game, the
state just before it, event, memory) -> events`` (``[event]`` keeps it, ``[]`` drops it).
``memory`` is the upcaster's own notes on the older events before this one (what a state of
today cannot tell, such as how many of a step's events the old table sent); an ``undo`` takes
its notes back with the moments it takes back. Pure otherwise: the same old event in the same
state with the same notes always gives the same events."""


def inferred(*types: str) -> Upcaster:
    """The upcaster of a change that made the game do by itself what the table once sent: an
    event of one of ``types`` that the game does not take now (it already did the step, or the
    game is over) is dropped; one it still takes is kept."""

    def upcast(game: Game, state: State | None, event: Event, memory: dict[str, Any]) \
            -> list[Event]:
        if event.type in types and state is not None and \
                event.type not in game.expects(state).events:
            return []
        return [event]

    return upcast


@dataclass
class _Mark:
    """One moment of the history as its writer counted it, how many of today's frames it
    became (0: an event today's rules do by themselves), and the upcasters' notes after it."""

    seq: int | None
    frames: int
    memory: dict[str, Any]


@dataclass
class Upcasting:
    """Turns a stream of recorded events, each with its format, into today's events.

    One per replayed sequence (a game's journal, a recorded file). While the events are of an
    older format it keeps the moments of the history as their writer counted them, to recount an
    older ``undo``; once today's format comes (a game goes on after the upgrade, and no older
    event can follow a newer one) there is nothing to recount, and it keeps nothing.
    """

    marks: list[_Mark] = field(default_factory=list)
    memory: dict[str, Any] = field(default_factory=dict)

    def feed(self, version: int, event: Event, game: Game | None, state: State | None,
             seq: int | None = None) -> list[Event]:
        """Today's events for ``event``, written in format ``version``, given the ``game`` it
        belongs to and the state just before it (``seq``: its journal point, if any)."""
        if not isinstance(version, int) or isinstance(version, bool) or version < 1:
            raise RuleError("event.bad_format", format=version, current=FORMAT)
        if version > FORMAT:
            raise RuleError("event.format_newer", format=version, current=FORMAT)
        if version == FORMAT:
            self.marks.clear()
            return [event]
        if event.type == "undo":
            return self._undo(event)
        if event.type == "setup":
            self.marks, self.memory = [], {}
        events = [event]
        upcasters: Mapping[int, Upcaster] = game.capabilities.upcasters if game else {}
        for step in range(version, FORMAT):
            if step in upcasters:
                notes = self.memory.setdefault(str(step), {})
                events = [new for old in events
                          for new in upcasters[step](game, state, old, notes)]
        self.marks.append(_Mark(seq, len(events), copy.deepcopy(self.memory)))
        return events

    def _undo(self, event: Event) -> list[Event]:
        """An older ``undo``, counted in the moments of its writer, in today's frames."""
        seqs = [mark.seq for mark in self.marks]
        to = event.fields.get("to")
        if to is None:
            steps = event.fields.get("steps", 1)
        elif to in seqs:
            steps = len(seqs) - 1 - seqs.index(to)
        else:
            return [event]  # not a point of the history: the rules refuse it
        if isinstance(steps, bool) or not isinstance(steps, int) \
                or not 1 <= steps < len(self.marks):
            return [event]  # the rules refuse it, as its writer's rules would have
        frames = sum(mark.frames for mark in self.marks[-steps:])
        del self.marks[-steps:]
        self.memory = copy.deepcopy(self.marks[-1].memory)
        return [Event("undo", {"steps": frames}, event.source, event.at)] if frames else []
