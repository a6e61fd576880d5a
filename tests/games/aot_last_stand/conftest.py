"""Attack on Titan: The Last Stand's tests (rulebook:
../shared/rules/attack-on-titan-last-stand.fr.txt). The helpers (setup events, rolls,
play/refused) are in ``aot_helpers``."""

import pytest
from aot_helpers import new_session


@pytest.fixture
def session(tmp_path):
    """A session on a fresh data directory that knows this game, no game yet."""
    s = new_session(tmp_path)
    yield s
    s.close()
