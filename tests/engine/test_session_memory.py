"""Issue 40, finding 12: what a session holds does not grow with the work.

A 25-minute soak's memory rose 1.4 MB per 1,000 events. A session holds the current game's
frames only, and of those only the latest :data:`STATES_HELD` with their state (a Last Bastion
state is about 7 KB); older points and finished games are replayed from the journal when asked
for, and an undo further back than the states held still lands on the right state.
"""

from __future__ import annotations

from lastbastion import solo

from companion.engine import Session
from companion.engine.journal import CACHE_KB
from companion.engine.session import STATES_HELD


def life(n: int) -> dict:
    return {"type": "adjust", "hero": "kazgin", "life": 1 + n % 3}


def held_states(session: Session) -> int:
    return sum(frame.state is not None for frame in session.history())


def play_game(session: Session, events: int) -> list[dict]:
    """A game of ``events`` Life adjustments; the view after each event (setup first)."""
    session.submit(solo())
    views = [session.view()]
    for n in range(events):
        session.submit(life(n))
        views.append(session.view())
    return views


def test_a_long_game_holds_a_bounded_number_of_states(session):
    play_game(session, 3 * STATES_HELD)
    assert len(session.history()) == 3 * STATES_HELD + 1, "every point is still listed"
    assert held_states(session) == STATES_HELD
    assert session.history()[-1].state == session.state


def test_finished_games_are_not_held_and_replay_on_demand(session):
    first = play_game(session, 10)
    play_game(session, 5)
    records = session.past_games()
    assert len(session.history()) == 6, "the current game's frames only"
    frames = session.frames(records[0].id)  # read from the journal for the asking
    assert len(frames) == 11 and all(frame.state is not None for frame in frames)
    current = session.frames(records[1].id)
    assert all(frame.state is not None for frame in current)
    assert held_states(session) == 6, "asking did not make the session hold more"
    assert first[-1]["version"] == frames[-1].seq


def test_an_undo_further_back_than_the_states_held_replays_the_journal(session):
    views = play_game(session, 2 * STATES_HELD + 20)
    back = STATES_HELD + 10
    session.submit({"type": "undo", "steps": back})
    expected = {k: v for k, v in views[-1 - back].items() if k != "version"}
    assert {k: v for k, v in session.view().items() if k != "version"} == expected
    assert held_states(session) == STATES_HELD
    session.submit({"type": "undo", "steps": 5})  # and again, from the states now held
    expected = {k: v for k, v in views[-1 - back - 5].items() if k != "version"}
    assert {k: v for k, v in session.view().items() if k != "version"} == expected


def test_a_resumed_session_holds_the_same_bounded_states(session, data_dir):
    play_game(session, 2 * STATES_HELD)
    before = session.view()
    session.close()
    reopened = Session(data_dir)
    try:
        assert reopened.view() == before
        assert held_states(reopened) == STATES_HELD
    finally:
        reopened.close()


def test_the_journal_s_page_cache_is_bounded(session):
    """SQLite's own cache (outside Python's heap) grows with the journal up to its cap: the
    soak's last megabytes. The journal keeps it to CACHE_KB, a quarter of SQLite's default."""
    play_game(session, 10)
    pages = session._journal._db.execute("PRAGMA cache_size").fetchone()[0]
    assert pages == -CACHE_KB and CACHE_KB <= 512
