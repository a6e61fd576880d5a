"""What the web front end can be told: language, body limits, login limits, the simulated table."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class WebConfig:
    """Settings of one web app; every field has a default that suits a Pi at a table.

    ``lang`` is the page's first language (each phone may switch); ``simulate`` adds the "roll"
    and "draw" buttons of the simulated table, seeded by ``seed``; ``heartbeat`` is how often an
    idle stream is pinged (seconds), so dead phones are noticed and proxies keep it open;
    ``host_hours`` how long a host login lasts (an evening at the table); ``streams`` and
    ``streams_per_address`` how many live streams may be open in all and from one address
    (more are answered 503 with ``Retry-After``); ``hosts`` the names besides this machine's
    own under which the page may be reached (the ``Host`` header; others are refused).
    """

    lang: str = "en"
    simulate: bool = False
    seed: int | None = None
    max_body: int = 16 * 1024
    heartbeat: float = 15.0
    login_attempts: int = 5
    login_window: float = 60.0
    host_hours: float = 12.0
    stream_backlog: int = 256
    streams: int = 256
    streams_per_address: int = 8
    hosts: tuple[str, ...] = ()
