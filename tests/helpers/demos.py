"""The games' demos (examples/<game>-demo.jsonl) as events, for scripts that replay them."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from companion.engine.events import header_format

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"


def demo(game: str) -> list[dict[str, Any]]:
    """The events of the game's demo, in order (its comment lines and its event-format header
    left out)."""
    lines = (EXAMPLES / f"{game}-demo.jsonl").read_text(encoding="utf-8").splitlines()
    objects = [json.loads(line) for line in lines if line.startswith("{")]
    return [data for data in objects if header_format(data) is None]
