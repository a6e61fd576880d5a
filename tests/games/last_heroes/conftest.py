"""Last Heroes' tests (rulebook: ../shared/rules/last-heroes.fr.txt). The helpers (setup
events, the standard table, play/refused) are in ``lastheroes_helpers``."""

import pytest
from lastheroes_helpers import open_session, start


@pytest.fixture
def session(tmp_path):
    """A session on a fresh data directory that knows Last Heroes, no game yet."""
    s = open_session(tmp_path)
    yield s
    s.close()


@pytest.fixture
def table(tmp_path):
    """The standard table, Ana's first turn."""
    s = open_session(tmp_path)
    start(s)
    yield s
    s.close()
