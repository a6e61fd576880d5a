"""Runemasters' tests (rulebook: ../shared/rules/runemasters.fr.txt). The helpers (setup
events, the opening, cards and dice) are in ``runemasters_helpers``."""

import pytest
from runemasters_helpers import new_session


@pytest.fixture
def session(tmp_path):
    """A session on a fresh data directory that knows this game, no game yet."""
    s = new_session(tmp_path)
    yield s
    s.close()
