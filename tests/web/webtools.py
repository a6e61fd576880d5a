"""Helpers of the web tests (a module of its own: ``conftest`` is a name every test folder uses)."""

from __future__ import annotations

from typing import Any

PIN = "4321"
TILES = [["market", "tomb", "inn"], ["trebuchet", "fountain", "quarry"],
         ["standard", "tower", "dispensary"]]


def setup_event(hero: str = "teagaan", mode: str = "normal") -> dict[str, Any]:
    """One player, Gary, on the South (yellow) board."""
    return {"type": "setup", "game": "last-bastion", "mode": mode,
            "boards": {"N": "red", "E": "blue", "S": "yellow", "W": "green"},
            "players": [{"name": "Gary", "hero": hero, "side": "S"}], "tiles": TILES,
            "first": "S"}


class Host:
    """A logged-in host browser: its test client and its current CSRF token."""

    def __init__(self, client: Any, csrf: str) -> None:
        self.client, self.csrf = client, csrf

    def post(self, url: str, body: Any = None, **kwargs: Any) -> Any:
        """POST JSON with the current token; keep the next one."""
        headers = {"X-CSRF-Token": self.csrf, **kwargs.pop("headers", {})}
        response = self.client.post(url, json=body if body is not None else {}, headers=headers,
                                    **kwargs)
        self.csrf = response.headers.get("X-CSRF-Token", self.csrf)
        return response

    def send(self, event: dict[str, Any], based_on: int | None = None) -> Any:
        """Submit one event."""
        body: dict[str, Any] = {"event": event}
        if based_on is not None:
            body["based_on"] = based_on
        return self.post("/api/events", body)


def login(app, pin: str = PIN) -> Host:
    """A new browser that logs in (choosing the PIN if none is set yet)."""
    client = app.test_client()
    pins = app.extensions["companion"].pins
    if not pins.is_set():
        pins.set(pin)
    response = client.post("/api/login", json={"pin": pin})
    assert response.status_code == 200, response.json
    return Host(client, response.json["csrf"])


GAME_SETUPS: dict[str, dict[str, Any]] = {
    "runemasters": {"type": "setup", "game": "runemasters", "difficulty": "novice",
                    "guardians": [{"guardian": "kulak", "path": "blue", "player": "Ann"},
                                  {"guardian": "kyreas", "path": "red", "player": "Ben"}],
                    "elder": "kulak"},
    "aot-last-stand": {"type": "setup", "game": "aot-last-stand",
                       "titan": {"name": "Théo", "card": "basic"},
                       "heroes": [{"name": "Corentin", "hero": "eren", "level": 0},
                                  {"name": "Léa", "hero": "mikasa", "level": 3}],
                       "tactics": ["sauvetage", "guerison", "tir-aveuglant"]},
    "last-heroes": {"type": "setup", "game": "last-heroes",
                    "players": [{"name": "Ana", "hero": "blind"}, {"name": "Ben", "hero": "echo"},
                                {"name": "Cleo", "hero": "ace"}],
                    "weapons": ["flamethrower", "crossbow", "pistol"], "first": "blind",
                    "battlefield": [["rat", "spider", "dragon"], ["bat", "wolf", "snake"],
                                    ["imp", "ghoul", "hydra"]],
                    "artefacts": ["joker", "impact", "adrenaline"]},
}
"""A setup event of each game besides Last Bastion (docs/events.md's examples)."""
