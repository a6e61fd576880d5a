"""Attack on Titan: The Last Stand's tests (rulebook:
../shared/rules/attack-on-titan-last-stand.fr.txt). The helpers (setup events, rolls,
play/refused) are in ``aot_helpers``."""

import pytest
from aot_helpers import new_session, setup_event


@pytest.fixture
def session(tmp_path):
    """A session on a fresh data directory that knows this game, no game yet."""
    s = new_session(tmp_path)
    yield s
    s.close()


@pytest.fixture
def table(tmp_path):
    """The standard game (three heroes, the Basic Titan), set up."""
    s = new_session(tmp_path)
    s.submit(setup_event())
    yield s
    s.close()
