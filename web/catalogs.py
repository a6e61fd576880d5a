"""What the host may pick from, per game: ``/api/games`` lists the installed games and
``/api/catalog?game=ID`` their known items (the packaged definitions completed by the owner's).

Last Bastion keeps its richer card picker shape (cards with colour and resistance, heroes,
tiles); the other games get every kind's ids, which their setup and event forms offer.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from companion.engine import Game, Session, find_game, installed_games

Shaper = Callable[[Game, dict[str, Any], list[str]], dict[str, Any]]
CARD_FIELDS = ("name", "type", "colour", "resistance", "complete")


def last_bastion(_game: Game, definitions: dict[str, Any], seen: list[str]) -> dict[str, Any]:
    """Cards (with those seen this game), heroes and tiles for Last Bastion's pickers."""
    return {
        "cards": {cid: {k: c.get(k) for k in CARD_FIELDS}
                  for cid, c in definitions["card"].items()},
        "seen": seen,
        "heroes": {hid: h.get("name", hid) for hid, h in definitions["hero"].items()},
        "tiles": {tid: t.get("name", tid) for tid, t in definitions["tile"].items()}}


def ids_by_kind(_game: Game, definitions: dict[str, Any], seen: list[str]) -> dict[str, Any]:
    """Every kind of definition with its ids (the page names them from its texts)."""
    return {"ids": {kind: sorted(items) for kind, items in definitions.items()
                    if isinstance(items, dict) and not kind.startswith("_")
                    and all(isinstance(v, dict) for v in items.values())},
            "seen": seen}


SHAPERS: dict[str, Shaper] = {"last-bastion": last_bastion}


def table_catalog(session: Session, game_id: str | None) -> dict[str, Any]:
    """The picker data of ``game_id`` (default: the current game, else Last Bastion): this
    game's catalog and the cards it has seen while it is played, else the known definitions."""
    game = find_game(game_id or (session.game.id if session.game else "last-bastion"))
    state = session.state if session.game is game else None
    if state is not None:
        definitions, seen = state["catalog"], list(state.get("deck", {}).get("seen", []))
    else:
        definitions, seen = game.known_definitions(session.definitions(game.id).load()), []
    return {"game": game.id, **SHAPERS.get(game.id, ids_by_kind)(game, definitions, seen)}


def known_ids(session: Session) -> set[str]:
    """Every card (or other item) id the current game knows, else Last Bastion's: a tag may
    only be named after one of them."""
    game = session.game or find_game("last-bastion")
    definitions = (session.state["catalog"] if session.state is not None
                   else game.known_definitions(session.definitions(game.id).load()))
    return {item for items in definitions.values() if isinstance(items, dict) for item in items}


def game_list() -> list[str]:
    """The installed games' ids, Last Bastion first (the flagship), then by id."""
    return list(installed_games())
