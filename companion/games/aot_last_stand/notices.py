"""What the table should know is missing: the assumed health track and the hero powers that are
off until their symbols are taught, each with how to teach it from the page (the phones show no
terminal command: docs/cards.md has those)."""

from __future__ import annotations

from companion.engine import Message

from .board import State
from .dice import SYMBOL_POWERS, power_off


def warnings(state: State) -> list[Message]:
    """The warnings the shared view shows while something is assumed or off."""
    found = []
    track = state["catalog"]["track"]["health"]
    if track.get("assumed"):
        found.append(Message("warning.track_assumed", dict(state["track"])))
    for hero_id in state["heroes"]:
        if power_off(state, hero_id):
            power = state["catalog"]["hero"][hero_id]["power"]
            found.append(Message("warning.power_off", {"hero": hero_id,
                                                       "count": SYMBOL_POWERS[power]}))
    return found
