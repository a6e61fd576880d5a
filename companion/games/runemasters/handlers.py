"""Runemasters: what each accepted event does to the state (one handler per event type, the
guardian's actions in :mod:`.actions`) and how the history labels it."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from companion.engine import Message, RuleError
from companion.engine.catalog import learn

from . import actions, adjust, powers
from .catalog import check_definition
from .flow import draw_monster, give_angel, next_turn, reveal_event
from .table import Out, State

Handler = Callable[[State, dict[str, Any], Out], None]


def on_card(state: State, fields: dict[str, Any], out: Out) -> None:
    """A card is revealed: the round's Event, or a monster (taught on the spot with
    ``define`` the first time the owner sees it)."""
    card_id = fields["id"]
    if state["phase"] == "event":
        reveal_event(state, card_id, out)
        return
    if "define" in fields:
        learn(state, "monster", card_id,
              check_definition("monster", card_id, fields["define"]), out)
    draw_monster(state, card_id, out)


def on_angel(state: State, fields: dict[str, Any], out: Out) -> None:
    """The Guardian Angel marker goes to a living guardian; the turns begin."""
    give_angel(state, fields["guardian"], out)
    next_turn(state, out)


def on_teach(state: State, fields: dict[str, Any], out: Out) -> None:
    """The owner completes a card: its weak points, rewards, type or colour."""
    definition = check_definition(fields["kind"], fields["id"], fields["definition"])
    old = state["catalog"]["monster"].get(fields["id"], {})
    changed = [k for k in ("type", "colour") if old.get(k) not in (None, definition.get(k, old[k]))]
    if fields["id"] in state["deck"]["seen"] and changed:
        raise RuleError("teach.in_play", card=fields["id"], fields=changed)
    learn(state, "monster", fields["id"], definition, out)
    out.say("card.taught", card=fields["id"])


HANDLERS: dict[str, Handler] = {
    "card": on_card, "angel": on_angel, "teach": on_teach,
    "dice": actions.on_dice, "hit": actions.on_hit,
    "move": actions.on_move, "block": actions.on_block,
    "charge": actions.on_charge, "reroll": actions.on_reroll,
    "release": actions.on_release, "end_turn": actions.on_end_turn,
    "mark": powers.on_mark, "ultimate": powers.on_ultimate, "adjust": adjust.on_adjust,
}


def _face(state: State, fields: dict[str, Any], name: str = "die") -> Any:
    dice = state["turn"]["dice"]
    index = fields.get(name)
    return dice[index]["face"] if index is not None and index < len(dice) else None


LABELS: dict[str, Callable[[State, dict[str, Any]], Message]] = {
    "card": lambda s, f: Message("history.card", {"card": f["id"]}),
    "angel": lambda s, f: Message("history.angel", {"guardian": f["guardian"]}),
    "dice": lambda s, f: Message("history.dice", {"guardian": s["active"], "faces": f["faces"]}),
    "hit": lambda s, f: Message("history.hit", {"guardian": s["active"], "rune": _face(s, f)}),
    "move": lambda s, f: Message("history.move", {"guardian": s["active"], "to": f["to"]}),
    "block": lambda s, f: Message("history.block", {"guardian": s["active"]}),
    "charge": lambda s, f: Message("history.charge", {"guardian": s["active"],
                                                      "count": len(f["dice"])}),
    "reroll": lambda s, f: Message("history.reroll", {"guardian": s["active"],
                                                      "count": len(f["dice"])}),
    "release": lambda s, f: Message("history.release", {"guardian": s["active"]}),
    "mark": lambda s, f: Message("history.mark", {"guardian": s["active"]}),
    "ultimate": lambda s, f: Message("history.ultimate", {"guardian": s["active"]}),
    "end_turn": lambda s, f: Message("history.end_turn", {"guardian": s["active"]}),
    "teach": lambda s, f: Message("history.teach", {"card": f["id"]}),
    "adjust": lambda s, f: adjust.label(f),
}
