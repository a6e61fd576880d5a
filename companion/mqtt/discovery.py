"""Home Assistant MQTT discovery: the sensors of a table appear without configuration.

Each sensor is announced by a retained config message on
``<discovery_prefix>/sensor/companion_<table>/<field>/config`` that reads its value from the
table's ``state`` JSON, marks it unavailable with the table's availability topic, and groups the
table's sensors under one device. The counts and scores depend on the game being played: their
sensors are announced when they appear and removed (an empty retained config) when they go.

Commands are not announced: a command must be signed when it is sent (:mod:`.sign`), which a
discovered button cannot do. docs/hardware.md shows how Home Assistant signs and sends them.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from .topics import Topics

#: Sensor names for people (Home Assistant shows them), by summary field.
NAMES = {"game": "Game", "status": "Status", "phase": "Phase", "round": "Round",
         "active": "Active hero", "waiting_en": "Waiting for", "waiting_fr": "En attente de",
         "waiting_es": "Esperando", "version": "Events", "at": "Last event"}
ICONS = {"game": "mdi:dice-multiple", "phase": "mdi:timer-sand", "active": "mdi:account",
         "waiting_en": "mdi:hand-back-right", "waiting_fr": "mdi:hand-back-right",
         "waiting_es": "mdi:hand-back-right"}


def config_topic(prefix: str, topics: Topics, field: str) -> str:
    """Where the discovery config of one sensor is published."""
    return f"{prefix}/sensor/companion_{topics.table}/{field}/config"


def sensor(topics: Topics, name: str, field: str, template: str) -> dict[str, Any]:
    """The discovery config of one sensor of table ``name`` reading ``template`` from its
    state."""
    config: dict[str, Any] = {
        "name": NAMES.get(field, field.replace("_", " ").capitalize()),
        "unique_id": f"companion_{topics.table}_{field}",
        "object_id": f"companion_{topics.table}_{field}",
        "state_topic": topics.state,
        "value_template": template,
        "availability_topic": topics.availability,
        "payload_available": "online",
        "payload_not_available": "offline",
        "device": {"identifiers": [f"companion_{topics.table}"],
                   "name": f"Table Companion {name}", "manufacturer": "Table Companion",
                   "model": "companion"},
    }
    if field in ICONS:
        config["icon"] = ICONS[field]
    if field == "at":
        config["device_class"] = "timestamp"
    elif field == "version" or field.startswith(("counts_", "scores_")):
        config["state_class"] = "measurement"
    return config


def configs(prefix: str, topics: Topics, name: str, fields: Iterable[str],
            counts: Iterable[str]) -> dict[str, dict[str, Any]]:
    """The discovery configs by topic: one sensor per summary field, and one per count or score
    (``counts`` are their names, such as ``counts.deck_remaining``)."""
    templates = {field: f"{{{{ value_json.{field} }}}}" for field in fields}
    if "at" in templates:  # seconds since 1970 in the state; Home Assistant wants a date
        templates["at"] = ("{{ value_json.at | int | timestamp_custom('%Y-%m-%dT%H:%M:%S+00:00',"
                           " false) if value_json.at else none }}")
    for path in counts:
        group, key = path.split(".", 1)
        templates[f"{group}_{key}"] = f"{{{{ value_json.{group}['{key}'] }}}}"
    return {config_topic(prefix, topics, field): sensor(topics, name, field, template)
            for field, template in templates.items()}
