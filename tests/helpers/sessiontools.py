"""Driving a session in tests, the same way for every game: submit a run of events, submit one
that must be refused without changing anything, and play a random game checking its books."""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

import pytest

from companion.engine import Expectation, Game, RuleError, Session, Step


def play(session: Session, *events: dict[str, Any]) -> Step | None:
    """Submit events in order; return the last Step."""
    step = None
    for event in events:
        step = session.submit(event)
    return step


def refused(session: Session, event: dict[str, Any], key: str) -> RuleError:
    """Submit an event that must be refused with ``key``; check the view and the journal are
    unchanged (a refusal changes nothing)."""
    view, journal = session.view(), len(session.journal_entries())
    with pytest.raises(RuleError) as error:
        session.submit(event)
    assert error.value.key == key, error.value
    assert session.view() == view
    assert len(session.journal_entries()) == journal
    return error.value


Proposer = Callable[[dict[str, Any], Expectation, random.Random], dict[str, Any]]


def play_randomly(session: Session, propose: Proposer, check: Callable[[dict[str, Any]], None],
                  rng: random.Random, events: int = 300) -> None:
    """Submit up to ``events`` events from ``propose`` until the game ends: a refused one must
    leave the view and the journal as they were, and ``check`` holds after each accepted one."""
    for _ in range(events):
        if session.view()["status"] != "playing":
            return
        view, length = session.view(), len(session.journal_entries())
        event = propose(session.state, session.expects(), rng)
        try:
            session.submit(event)
        except RuleError:
            assert session.view() == view, f"refused {event} changed the view"
            assert len(session.journal_entries()) == length
            continue
        check(session.state)


def assert_rebuilt(session: Session, game: Game) -> None:
    """Close ``session``; its journal alone must rebuild the same state."""
    state, data_dir = session.state, session.data_dir
    session.close()
    again = Session(data_dir, games={game.id: game})
    assert again.state == state, "the journal rebuilds the same game"
    again.close()
