"""What the table should know is missing: the assumed health track and the hero powers that are
off until their symbols are taught, each with how to teach it (page and terminal)."""

from __future__ import annotations

import json

from companion.engine import Message

from .board import State
from .dice import SYMBOL_POWERS, power_off

COMMAND = "companion cards add {id} --game aot-last-stand --kind {kind} --json '{json}'"


def command(kind: str, item: str, example: dict) -> str:
    """The terminal command that teaches a definition, with an example of its fields."""
    return COMMAND.format(id=item, kind=kind, json=json.dumps(example, ensure_ascii=False))


def warnings(state: State) -> list[Message]:
    """The warnings the shared view shows while something is assumed or off."""
    found = []
    track = state["catalog"]["track"]["health"]
    if track.get("assumed"):
        found.append(Message("warning.track_assumed", {
            **state["track"], "cli": command("track", "health", dict(state["track"]))}))
    for hero_id in state["heroes"]:
        if power_off(state, hero_id):
            power = state["catalog"]["hero"][hero_id]["power"]
            example = {"symbols": ["<face>"] * SYMBOL_POWERS[power]}
            found.append(Message("warning.power_off", {
                "hero": hero_id, "count": SYMBOL_POWERS[power],
                "cli": command("hero", hero_id, example)}))
    return found
