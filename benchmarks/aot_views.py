"""What an Attack on Titan view costs: the table's and the Titan's pictures, each of which tries
every one-tap move on a copy of the state to offer only what the rules take (issue 39). Seeded
random games, played from the offered controls as tests/games/aot_last_stand/
test_aot_offered_controls.py plays them; the median and maximum milliseconds per state.

    PYTHONPATH=$PWD .venv/bin/python benchmarks/aot_views.py [--seeds N]
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT), str(ROOT / "tests" / "games" / "aot_last_stand")]
from test_aot_offered_controls import advance, checked, offered, setup  # noqa: E402

from companion.games.aot_last_stand import GAME  # noqa: E402


def main() -> None:
    """Time both views at every state of ``--seeds`` games and print the figures."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seeds", type=int, default=5, help="games played (default 5)")
    args = parser.parse_args()
    costs: list[float] = []
    for seed in range(args.seeds):
        rng = random.Random(seed)
        state = GAME.setup(checked(setup(rng)).fields).state
        for _ in range(150):
            if state["status"] != "playing":
                break
            start = time.perf_counter()
            GAME.view(state)
            GAME.titan_view(state)
            costs.append((time.perf_counter() - start) * 1000)
            state = GAME.apply(state, checked(advance(state, rng, offered(state)))).state
    print(f"aot-last-stand views (table + Titan) at {len(costs)} states: median "
          f"{statistics.median(costs):.1f} ms, max {max(costs):.1f} ms")


if __name__ == "__main__":
    main()
