"""Helpers of the web tests (a module of its own: ``conftest`` is a name every test folder uses)."""

from __future__ import annotations

import http.cookiejar
import json
import os
import queue
import resource
import subprocess
import sys
import threading
import time
import urllib.error
import urllib.request
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]
SILENT = Path(__file__).with_name("silent.toml")
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


def refused_in_french_and_english(host: Host, path: str, body: Any, status: int,
                                  key: str) -> None:
    """``body`` posted to ``path`` is refused with ``status`` and ``key``, in words of each
    language (not the key itself)."""
    messages = {}
    for lang in ("fr", "en"):
        reply = host.post(path, body, headers={"X-Companion-Lang": lang})
        assert (reply.status_code, reply.json["error"]) == (status, key), reply.json
        messages[lang] = reply.json["message"]
    assert messages["fr"] != messages["en"] and key not in messages.values()


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


class RunningServer:
    """``companion run --simulate`` in a child process on the loopback (silent voice), for
    tests that need the real server: restarts, many connections, a real TCP peer. A thread
    reads its output as it comes (a full pipe would stop the server)."""

    def __init__(self, data_dir: Path, *extra: str, port: int = 0, config: Path = SILENT,
                 files: int | None = None) -> None:
        """``config`` is its config file; ``files``, when given, its open-file limit (soft and
        hard, as systemd's ``LimitNOFILE`` sets it)."""
        self.data_dir = data_dir

        def limit_files() -> None:
            if files is not None:
                resource.setrlimit(resource.RLIMIT_NOFILE, (files, files))

        self.process = subprocess.Popen(
            [sys.executable, "-m", "companion", "run", "--simulate", "--host", "127.0.0.1",
             "--port", str(port), "--data-dir", str(data_dir), *extra],
            cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
            preexec_fn=limit_files,
            env={**os.environ, "PYTHONUNBUFFERED": "1", "COMPANION_CONFIG": str(config)})
        self.output: queue.Queue[str] = queue.Queue()
        threading.Thread(target=self._read, daemon=True).start()
        self.url = self.output.get(timeout=30).split()[-1]
        self.port = int(self.url.rsplit(":", 1)[1].strip("/"))

    def _read(self) -> None:
        for line in self.process.stdout:
            self.output.put(line)

    def lines(self, until: str, timeout: float = 10.0) -> list[str]:
        """The server's next output lines, up to the first containing ``until`` (or whatever
        came within ``timeout`` seconds)."""
        seen: list[str] = []
        deadline = time.monotonic() + timeout
        while not seen or until not in seen[-1]:
            try:
                seen.append(self.output.get(timeout=max(0.0, deadline - time.monotonic())))
            except queue.Empty:
                break
        return seen

    def stop(self) -> None:
        """SIGTERM, and wait for a clean exit."""
        if self.process.poll() is None:
            self.process.terminate()
            self.process.wait(timeout=15)


class HttpHost:
    """A host over real HTTP: the cookie jar and the rotating CSRF token."""

    def __init__(self, url: str) -> None:
        self.url = url
        self.jar = http.cookiejar.CookieJar()
        self.opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(self.jar))
        self.csrf = ""

    def call(self, method: str, path: str, body: Any = None) -> tuple[int, dict]:
        """One request; returns the status and the JSON body (errors included)."""
        data = None if body is None else json.dumps(body).encode()
        request = urllib.request.Request(self.url + path, data, method=method, headers={
            "Content-Type": "application/json", "X-CSRF-Token": self.csrf})
        try:
            reply = self.opener.open(request, timeout=10)
        except urllib.error.HTTPError as error:
            reply = error
        with reply:
            self.csrf = reply.headers.get("X-CSRF-Token") or self.csrf
            return reply.status, json.loads(reply.read() or b"{}")

    def login(self, pin: str = PIN) -> HttpHost:
        """Log in with the PIN (keeping the first CSRF token)."""
        status, body = self.call("POST", "api/login", {"pin": pin})
        assert status == 200, body
        self.csrf = body["csrf"]
        return self
