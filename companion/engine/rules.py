"""The part of ``apply`` every game shares, so that a game writes only what is its own: which
events it expects now, a handler per event type, and what happens on its own afterwards.

``apply`` refuses (RuleError) an event the game does not take now, changes a working copy of
the state through the event's handler, lets the game run what follows by itself, and returns
the Step: the given state is never touched. One policy for every game: teaching a definition
and a host's correction (``adjust``) are taken in any phase and after the end, since a finished
game's score may need fixing; a correction leads to the state the rules give for it.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from .catalog import OwnerTaught, working_copy
from .errors import RuleError
from .events import Event, validate
from .game import Step, check_accepted
from .messages import Message, Outcome, Prompt

State = dict[str, Any]
Handler = Callable[[State, dict[str, Any], Outcome], None]


class RulesGame(OwnerTaught):
    """A game's rules as a pure state machine over its ``handlers`` (event type → handler)."""

    handlers: Mapping[str, Handler]
    #: Event types taken in every phase and after the end, which expectations do not list.
    anytime: tuple[str, ...] = ("adjust", "teach")

    def apply(self, state: State, event: Event) -> Step:
        """Apply one event to a copy of the state; the given state is never modified."""
        check_accepted(state, event, self.expects(state).events, self.anytime, self.anytime)
        new = working_copy(state)
        out = Outcome()
        out.label = self.label(state, event)
        self.handlers[event.type](new, dict(event.fields), out)
        self.follow(new, out)
        return Step(new, out.messages, self.prompts(new), out.label, out.learned)

    def attempt(self, state: State, event: Mapping[str, Any],
                check: Callable[[State, Event], None] | None = None) -> Step:
        """``event`` (``{"type": ..., fields}``) validated and applied to a copy of the state
        (the table is not touched), after ``check`` (such as a secret role's own rule); raises
        the refusal."""
        fields = {k: v for k, v in event.items() if k != "type"}
        checked = Event(event["type"], validate(event["type"], fields,
                                                self.events[event["type"]]))
        if check is not None:
            check(state, checked)
        return self.apply(state, checked)

    def takes(self, state: State, event: Mapping[str, Any],
              check: Callable[[State, Event], None] | None = None) -> bool:
        """Whether the rules (and ``check``) take ``event`` now, tried on a copy: a page offers
        a control only when they do."""
        try:
            self.attempt(state, event, check)
        except RuleError:
            return False
        return True

    def label(self, state: State, event: Event) -> Message | None:
        """The event's history label read from the state before it (None: its handler labels
        it)."""
        return None

    def follow(self, state: State, out: Outcome) -> None:
        """What the game does by itself after an event (the default: nothing)."""

    def prompts(self, state: State) -> list[Prompt]:
        """The questions waiting for a person (the default: none)."""
        return []
