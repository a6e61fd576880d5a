"""What phones receive: the game's view with its version, every text they need in every language,
and the combat helper; built once per accepted event and shared by every stream."""

from __future__ import annotations

from typing import Any

from companion.engine import Expectation, Game, Message, Update

from .texts import all_texts, say

NO_GAME = Expectation("setup", ("setup",), Message("expect.setup"))


def describe(game: Game | None, state: dict[str, Any] | None, version: int) -> dict[str, Any]:
    """The full picture at ``version``: view, rendered texts and helper."""
    catalogs = all_texts(game, state)
    if game is None or state is None:
        expects = NO_GAME.to_json()
        return {"version": version,
                "view": {"game": None, "version": version, "expects": expects},
                "texts": {"expects": say(expects["message"], catalogs), "prompts": []},
                "helper": None}
    view = game.view(state)
    view["version"] = version
    message = view["expects"].get("message")
    helper = game.capabilities.helper
    return {"version": version, "view": view,
            "texts": {"expects": say(message, catalogs) if message else None,
                      "prompts": [say(p, catalogs) for p in view.get("prompts", [])],
                      "warnings": [say(w, catalogs) for w in view.get("warnings", [])]},
            "helper": helper(state) if helper else None}


def update(game: Game, change: Update) -> dict[str, Any]:
    """The picture after one accepted event, with what was said and its history label."""
    catalogs = all_texts(game, change.step.state)
    data = describe(game, change.step.state, change.version)
    data["said"] = [say(m, catalogs) for m in change.step.announcements]
    data["label"] = say(change.step.label, catalogs) if change.step.label else None
    data["event"] = change.event.type
    return data
