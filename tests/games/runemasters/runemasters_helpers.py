"""Runemasters set-ups, positions and a scripted table shared by the tests.

The weak points and rewards printed on the monster cards are not public, so the tests teach
their own (``TAUGHT``): two weak points for most monsters (the card's colour and violet), three
for Trolls (colour, colour, violet) and Dragons (three of their colour), 1 Mana as reward. They
are test data, not claims about the real cards.
"""

from __future__ import annotations

import copy
from typing import Any

from sessiontools import play as play  # the same for every game
from sessiontools import refused as refused

from companion.engine import Event, Session, validate
from companion.games.runemasters import GAME
from companion.games.runemasters.catalog import DATA


def _taught(card: dict[str, Any]) -> dict[str, Any]:
    colour, kind = card["colour"], card["type"]
    points = {"troll": [colour, colour, "violet"], "dragon": [colour] * 3}.get(
        kind, [colour, "violet"])
    rewards = {"life": 1, "mana": 1} if kind == "dragon" else {"mana": 1}
    return {"weak_points": points, "rewards": rewards}


TAUGHT = {"monster": {cid: _taught(card) for cid, card in DATA["monster"].items()}}


def new_session(tmp_path) -> Session:
    """A session that knows Runemasters (it is registered as an entry point at integration)."""
    return Session(tmp_path / "data", games={"runemasters": GAME})


def setup_event(*seats: tuple[str, str], difficulty: str = "novice", taught: bool = True,
                **extra: Any) -> dict[str, Any]:
    """A setup event for guardians given as (guardian, path), in turn order."""
    event: dict[str, Any] = {"type": "setup", "game": "runemasters", "difficulty": difficulty,
                             "guardians": [{"guardian": g, "path": p} for g, p in seats],
                             **extra}
    if taught:
        event["definitions"] = copy.deepcopy(TAUGHT)
    return event


def card(card_id: str) -> dict[str, Any]:
    """A card revealed."""
    return {"type": "card", "id": card_id}


def dice(*faces: str) -> dict[str, Any]:
    """The runes rolled."""
    return {"type": "dice", "faces": list(faces)}


END = {"type": "end_turn"}


def said(step, key: str) -> list[dict[str, Any]]:
    """The parameters of every announcement of a step with this key."""
    return [m.params for m in step.announcements if m.key == key]


# -- positions built directly (the march and the powers are pure functions of the state) -------

def position(*seats: tuple[str, str], monsters: dict[str, dict[int, str]],
             active: str | None = None, event: str = "all_is_calm",
             difficulty: str = "novice", faces: tuple[str, ...] = ()) -> dict[str, Any]:
    """A state in the active guardian's actions phase with monsters on given spaces, e.g.
    ``monsters={"blue": {1: "shadow-blue", 2: "archer-blue"}}``, under an Event, with dice."""
    state = GAME.setup({"guardians": [{"guardian": g, "path": p} for g, p in seats],
                        "difficulty": difficulty, "definitions": copy.deepcopy(TAUGHT)}).state
    placed = [c for path in monsters.values() for c in path.values()]
    for path, row in monsters.items():
        for space, card_id in row.items():
            state["paths"][path]["spaces"][space - 1] = {"card": card_id, "wounds": []}
    active = active or seats[0][0]
    state["deck"].update(drawn=len(placed), seen=placed)
    state["events"].update(current=event, revealed=[event])
    state["round"] = {"number": 1, "index": state["order"].index(active)}
    state.update(phase="actions", active=active)
    state["turn"]["dice"] = [{"face": f, "used": False, "rerolled": False} for f in faces]
    return state


def apply(state: dict[str, Any], kind: str, **fields: Any):
    """Apply one event to a state through the game (validated like the session does)."""
    clean = validate(kind, fields, GAME.events[kind])
    return GAME.apply(state, Event(kind, clean))


def row(state: dict[str, Any], path: str) -> list[str | None]:
    """The cards on a path's five spaces."""
    return [None if m is None else m["card"] for m in state["paths"][path]["spaces"]]


# -- a scripted table for whole games ------------------------------------------------------------

def urgent_path(state: dict[str, Any]) -> str | None:
    """The path whose first monster is nearest its guardian (the active guardian's own path on a
    tie), or None when no monster is in play."""
    mine = state["guardians"][state["active"]]["path"]
    best = None
    for path, board in state["paths"].items():
        first = next((k for k, m in enumerate(board["spaces"]) if m), None)
        if first is not None and (best is None or (first, path != mine) < best[0]):
            best = ((first, path != mine), path)
    return None if best is None else best[1]


def strong_turn(session: Session) -> None:
    """The active guardian rolls exactly what kills the most urgent monsters: a rune to reach
    their path if needed, then the open weak points of its monsters, nearest first, as far as
    the dice go; then ends the turn."""
    state = session.state
    count = session.expects().count
    target = urgent_path(state)
    faces: list[str] = []
    events: list[dict[str, Any]] = []
    if target is not None:
        if target != state["guardians"][state["active"]]["path"]:
            faces.append("violet")
            events.append({"type": "move", "die": 0, "to": target})
        for monster in (m for m in state["paths"][target]["spaces"] if m):
            points = state["catalog"]["monster"][monster["card"]]["weak_points"]
            for rune in [r for k, r in enumerate(points) if k not in monster["wounds"]]:
                if len(faces) < count:
                    events.append({"type": "hit", "die": len(faces)})
                    faces.append(rune)
    faces += ["white"] * (count - len(faces))
    play(session, dice(*faces), *events, END)


def idle_turn(session: Session) -> None:
    """The active guardian rolls and does nothing."""
    play(session, dice(*["white"] * session.expects().count), END)


def play_game(session: Session, monsters: list[str], events: list[str], turn,
              until=lambda view: False) -> None:
    """Reveal the given cards as the table asks for them, each guardian playing ``turn``,
    until the game ends, the cards run out or ``until(view)`` holds."""
    monsters, events = list(monsters), list(events)
    while session.view()["status"] == "playing" and not until(session.view()):
        expects = session.expects()
        if expects.kind == "card" and expects.message.key == "expect.event":
            session.submit(card(events.pop(0)))
        elif expects.kind == "card":
            if not monsters:
                return
            session.submit(card(monsters.pop(0)))
        elif expects.kind == "choice":
            session.submit({"type": "angel", "guardian": expects.options[0]})
        else:
            turn(session)
