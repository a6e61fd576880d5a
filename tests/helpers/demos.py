"""The games' demos (examples/<game>-demo.jsonl) as events, for scripts that replay them."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"


def demo(game: str) -> list[dict[str, Any]]:
    """The events of the game's demo, in order (its comment lines left out)."""
    lines = (EXAMPLES / f"{game}-demo.jsonl").read_text(encoding="utf-8").splitlines()
    return [json.loads(line) for line in lines if line.startswith("{")]
