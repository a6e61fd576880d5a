"""Driving a session in tests, the same way for every game: submit a run of events, and submit
one that must be refused without changing anything."""

from __future__ import annotations

from typing import Any

import pytest

from companion.engine import RuleError, Session, Step


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
