"""The child process of ``test_crash.py``: plays random events into a data directory.

Usage: ``python tests/helpers/crash_writer.py DATA_DIR SEED [SECONDS]``

It resumes whatever game the data directory holds (or sets one up), then submits random legal
events from ``lastbastion_driver.py`` and prints the journal sequence number of each one right after
``Session.submit`` returned, flushed: a printed number is an acknowledged event. When a game is
over it sets up a new one. The parent kills it with SIGKILL at a random moment; should the
parent die first, it stops on its own (parent gone, or SECONDS elapsed).
"""

from __future__ import annotations

import os
import random
import sys
import time
from pathlib import Path

from lastbastion_driver import Style, play_one, random_setup

from companion.engine import Session

# "undo to <seq>" is left out: sequence numbers differ in the parent's clean replay
STYLE = Style(undo_to=False)


def write(data_dir: Path, seed: int, seconds: float, style: Style = STYLE) -> int:
    """Write events until killed (or ``seconds``, or the parent gone); print ``resumed
    <version>`` first, then one seq per acknowledged event."""
    rnd = random.Random(seed)
    parent = os.getppid()
    session = Session(data_dir)
    print(f"resumed {session.version}", flush=True)
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline and os.getppid() == parent:
        if play_one(session, rnd, style) is None:
            session.submit(random_setup(rnd))
        print(session.version, flush=True)
    session.close()
    return 0


def main(argv: list[str]) -> int:
    """``crash_writer.py DATA_DIR SEED [SECONDS]``: :func:`write` with the test's style."""
    return write(Path(argv[1]), int(argv[2]), float(argv[3]) if len(argv) > 3 else 30.0)


if __name__ == "__main__":
    sys.exit(main(sys.argv))
