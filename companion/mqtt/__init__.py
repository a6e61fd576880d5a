"""MQTT, the way Home Assistant expects it: a table's state and events on a broker.

Optional: it runs when ``[mqtt] host`` is set and paho-mqtt is installed (``pip install
table-companion[mqtt]``). The companion publishes a retained summary of its game (game, status,
phase, round, active hero, what it waits for, draw pile counts, scores; see :mod:`.summary`) and
each event under ``<topic_root>/<table>/`` (:mod:`.topics`), announces its sensors to Home
Assistant (:mod:`.discovery`), keeps an availability topic with a last will, and takes the
"next" and undo commands on a topic guarded by the broker's ACL and signed with a shared
secret that no command carries (:mod:`.commands`, :mod:`.sign`). The broker is the only link
between tables: a café page reads them all from it (:mod:`web.cafe`). docs/hardware.md,
"MQTT", documents the topic tree.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from companion.config import Config
from companion.engine import Message, Session

from .topics import Topics, table_id, table_name

if TYPE_CHECKING:
    from .bridge import Bridge

__all__ = ["Unavailable", "start"]


class Unavailable(Exception):
    """MQTT is configured but cannot run; ``message`` says why (shown in the user's language)."""

    def __init__(self, message: Message) -> None:
        super().__init__(message.key)
        self.message = message


def start(session: Session, config: Config) -> Bridge | None:
    """Connect the session to the broker of ``[mqtt]`` (in the background, retrying); None when
    no broker is configured. Raises :class:`Unavailable` when one is but MQTT cannot run."""
    settings = config["mqtt"]
    if not settings["host"]:
        return None
    name = table_name(config["table"]["name"])
    try:
        topics = Topics(settings["topic_root"], table_id(name))
    except ValueError:
        raise Unavailable(Message("mqtt.bad_table", {"name": name})) from None
    try:
        from .bridge import Bridge
    except ImportError as exc:
        raise Unavailable(Message("mqtt.no_paho", {"detail": str(exc)})) from None
    return Bridge(session, settings, topics, name).start()
