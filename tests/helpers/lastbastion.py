"""Last Bastion set-ups and event builders shared by the tests.

Tiles are laid out so that the Market is in a corner, the Dispensary on an edge and the centre
is the Fountain; boards are red N, blue E, yellow S, green W as in the issue's example.
"""

from __future__ import annotations

from typing import Any

from sessiontools import play as play  # the same for every game

from companion.engine import Session

BOARDS = {"N": "red", "E": "blue", "S": "yellow", "W": "green"}
TILES = [["market", "tomb", "inn"], ["trebuchet", "fountain", "quarry"],
         ["standard", "tower", "dispensary"]]


def setup_event(players: list[tuple[str, str, str]], mode: str = "normal",
                first: str | None = None, **extra: Any) -> dict[str, Any]:
    """A setup event for players given as (name, hero, side)."""
    return {"type": "setup", "game": "last-bastion", "mode": mode, "boards": BOARDS,
            "players": [{"name": n, "hero": h, "side": s} for n, h, s in players],
            "tiles": TILES, "first": first or players[0][2], **extra}


def card(card_id: str, colour: str, resistance: int, kind: str = "monster",
         slot: str | None = None, **timings: Any) -> dict[str, Any]:
    """A card event that teaches the card as it is drawn (the owner's first sight of it)."""
    event: dict[str, Any] = {"type": "card", "id": card_id, "define": {
        "name": card_id.replace("-", " ").title(), "type": kind, "colour": colour,
        "resistance": resistance, **timings}}
    if slot:
        event["slot"] = slot
    return event


def known(*card_ids: str) -> list[dict[str, Any]]:
    """Teach events saying these package cards have no effect besides those already known."""
    return [{"type": "teach", "kind": "card", "id": c, "definition": {"complete": True}}
            for c in card_ids]


def solo(mode: str = "novice", hero: str = "kazgin", **extra: Any) -> dict[str, Any]:
    """One player, Gary, on the South (yellow) board."""
    return setup_event([("Gary", hero, "S")], mode=mode, **extra)


def clear_turn(session: Session, card_id: str, colour: str = "black", resistance: int = 0,
               kind: str = "monster", faces: tuple[str, ...] = ("black", "black", "black"),
               move_to: list[int] | None = None, **timings: Any) -> None:
    """One solo turn from the SW corner [2, 0]: draw a card onto yellow.2 and fight it.

    Gary must stand on [2, 0] (or reach it with ``move_to``); the card is taught as it is
    drawn. Dice are given as ``faces`` (Kazgin adds a grey black face). The fight's outcome is
    the companion's suggestion.
    """
    session.submit(card(card_id, colour, resistance, kind=kind, slot="yellow.2", **timings))
    if move_to:
        session.submit({"type": "move", "hero": "kazgin", "to": move_to})
    session.submit({"type": "fight", "targets": ["yellow.2"]})
    session.submit({"type": "dice", "faces": list(faces), "grey": "black"})
    session.submit({"type": "resolve"})
