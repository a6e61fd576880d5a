"""Attack on Titan: The Last Stand set-ups and event builders shared by the tests.

Théo plays the Basic Titan; Corentin, Léa and Sam play Eren, Mikasa and Armin unless told
otherwise. The Tactic pile is given from the top.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from sessiontools import play as play  # the same for every game
from sessiontools import refused as refused

from companion.engine import Session
from companion.games.aot_last_stand import GAME

PLAYERS = ("Corentin", "Léa", "Sam", "Zoé")
PILE = ["sauvetage", "guerison", "tir-aveuglant", "mutilation", "chute-raide", "decapitation",
        "eradication"]


def new_session(tmp_path: Path) -> Session:
    """A session that knows this game (it is registered at integration)."""
    return Session(tmp_path / "data", games={"aot-last-stand": GAME})


def setup_event(heroes: tuple[tuple[str, int], ...] = (("eren", 0), ("mikasa", 0),
                                                       ("armin", 3)),
                tactics: list[str] | None = None, **extra: Any) -> dict[str, Any]:
    """A setup event for heroes given as (hero, starting level)."""
    return {"type": "setup", "game": "aot-last-stand",
            "titan": {"name": "Théo", "card": "basic"},
            "heroes": [{"name": name, "hero": hero, "level": level}
                       for name, (hero, level) in zip(PLAYERS, heroes, strict=False)],
            "tactics": PILE if tactics is None else tactics, **extra}


def rolls(**faces: list[str]) -> list[dict[str, Any]]:
    """First rolls of step 2, one per hero."""
    return [{"type": "roll", "hero": hero, "faces": f} for hero, f in faces.items()]


NEXT = {"type": "next"}


def commit(up: str = "pietinement", down: str = "frenesie") -> dict[str, Any]:
    """Step 1: the Titan's two cards."""
    return {"type": "commit", "up": up, "down": down}


def suffer(session: Session) -> None:
    """Step 5 with nothing countered: each card the heroes could counter is suffered; one they
    cannot counter applies by itself («Dans le cas contraire, le Titan applique l'effet»)."""
    while session.view()["step"] == 5 and "resolve" in session.expects().events:
        session.submit({"type": "resolve"})
