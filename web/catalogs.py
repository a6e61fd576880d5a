"""What the host may pick from, per game: ``/api/games`` lists the installed games and
``/api/catalog?game=ID`` their known items (the packaged definitions completed by the owner's).

A game whose pickers need more than every kind's ids (Last Bastion: cards with colour and
resistance, heroes, tiles) declares its own shape in its capabilities (``pickers``).
"""

from __future__ import annotations

from typing import Any

from companion.engine import Session, find_game, installed_games


def ids_by_kind(definitions: dict[str, Any], seen: list[str]) -> dict[str, Any]:
    """Every kind of definition with its ids (the page names them from its texts)."""
    return {"ids": {kind: sorted(items) for kind, items in definitions.items()
                    if isinstance(items, dict) and not kind.startswith("_")
                    and all(isinstance(v, dict) for v in items.values())},
            "seen": seen}


def table_catalog(session: Session, game_id: str | None) -> dict[str, Any]:
    """The picker data of ``game_id`` (default: the current game, else the first listed): this
    game's catalog and the cards it has seen while it is played, else the known definitions."""
    game = find_game(game_id or (session.game.id if session.game else game_list()[0]))
    state = session.state if session.game is game else None
    if state is not None:
        definitions, seen = state["catalog"], list(state.get("deck", {}).get("seen", []))
    else:
        definitions, seen = game.known_definitions(session.definitions(game.id).load()), []
    return {"game": game.id, **(game.capabilities.pickers or ids_by_kind)(definitions, seen)}


def known_ids(session: Session) -> set[str]:
    """Every card (or other item) id the current game knows, else the first listed game's: a
    tag may only be named after one of them."""
    game = session.game or find_game(game_list()[0])
    definitions = (session.state["catalog"] if session.state is not None
                   else game.known_definitions(session.definitions(game.id).load()))
    return {item for items in definitions.values() if isinstance(items, dict) for item in items}


def game_list() -> list[str]:
    """The installed games' ids, the flagship first (see :func:`installed_games`)."""
    return list(installed_games())
