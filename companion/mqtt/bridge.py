"""The link between a session and an MQTT broker (paho-mqtt).

The session's listener only notes what happened (it runs inside the session's lock); one
publisher thread reads the session and publishes, so the state on the broker is always the
session's latest, never an older one overtaking it. The state is published retained at QoS 0
while connected and published again, whole, on every (re)connection: what happened while the
broker was away is in it as soon as the link is back. Events are published at QoS 1 and queued
by paho while the link is down (up to :data:`QUEUED` of them). paho reconnects by itself, waiting
``reconnect_min`` seconds, then twice as long each time up to ``reconnect_max``.
"""

from __future__ import annotations

import json
import logging
import threading
from collections import deque
from collections.abc import Mapping
from typing import Any

import paho.mqtt.client as mqtt

from companion.engine import Game, Session, Update
from companion.i18n import LANGUAGES, render

from . import commands, discovery
from .summary import FIELDS, summary
from .topics import Topics

log = logging.getLogger(__name__)

#: How many events paho keeps while the broker is away.
QUEUED = 1000
ONLINE, OFFLINE = "online", "offline"


def event_json(update: Update, game: Game | None) -> dict[str, Any]:
    """An accepted event as the broker gets it: what the shared page shows of it (its type, its
    source, its time and its history label in each language), never its fields, which may hold
    what a secret role hides."""
    event, label = update.event, update.step.label
    return {"seq": update.version, "type": event.type, "source": event.source, "at": event.at,
            "label": {lang: render(label, lang, game, update.step.state) for lang in LANGUAGES}
            if label else None}


class Bridge:
    """Publishes a session's state and events on ``topics`` and takes commands there.

    ``settings`` is the ``[mqtt]`` config section; ``name`` the table's name for people.
    """

    def __init__(self, session: Session, settings: Mapping[str, Any], topics: Topics,
                 name: str) -> None:
        self.session, self.settings, self.topics, self.name = session, settings, topics, name
        self.guard = commands.Guard(settings["command_secret"], topics.table) \
            if settings["command_secret"] else None
        if settings["username"] and settings["username"] != topics.table:
            log.warning("MQTT user %r is not the table's id %r: the broker ACL of "
                        "docs/hardware.md lets a companion write only the branch of its own "
                        "user", settings["username"], topics.table)
        self.client = mqtt.Client(mqtt.CallbackAPIVersion.VERSION2,
                                  client_id=f"companion-{topics.table}")
        if settings["username"]:
            self.client.username_pw_set(settings["username"], settings["password"] or None)
        if settings["tls"]:
            self.client.tls_set(ca_certs=settings["ca_file"] or None)
        self.client.will_set(topics.availability, OFFLINE, qos=1, retain=True)
        self.client.reconnect_delay_set(settings["reconnect_min"], settings["reconnect_max"])
        self.client.max_queued_messages_set(QUEUED)
        self.client.on_connect = self._on_connect
        self.client.on_disconnect = self._on_disconnect
        self.client.on_message = self._on_message
        self.connected = False
        self._wake = threading.Condition()
        self._events: deque[tuple[Update, Game | None]] = deque()
        self._dirty = self._announce = False
        self._at: float | None = None
        self._announced: set[str] = set()
        self._stopping = False
        self._thread = threading.Thread(target=self._run, daemon=True,
                                        name=f"mqtt {topics.base}")
        self._unsubscribe = session.subscribe(self._on_update)

    # -- running ---------------------------------------------------------------------------------

    def start(self) -> Bridge:
        """Connect in the background (retrying until the broker answers) and start publishing."""
        self.client.connect_async(self.settings["host"], self.settings["port"],
                                  self.settings["keepalive"])
        self.client.loop_start()
        self._thread.start()
        return self

    def stop(self, timeout: float = 3.0) -> None:
        """Say ``offline`` (a clean stop is not a lost link), disconnect, stop the threads; a
        second call does nothing."""
        with self._wake:
            if self._stopping:
                return
            self._stopping = True
            self._wake.notify()
        self._unsubscribe()
        self._thread.join(timeout)
        if self.connected:
            info = self.client.publish(self.topics.availability, OFFLINE, qos=1, retain=True)
            info.wait_for_publish(timeout)
        self.client.disconnect()
        self.client.loop_stop()

    # -- callbacks (paho's thread, and the session's) --------------------------------------------

    def _on_update(self, update: Update) -> None:
        event = update.event
        with self._wake:  # rendered by the publisher, not here under the session's lock
            self._events.append((update, self.session.game))
            self._at, self._dirty = event.at, True
            self._wake.notify()

    def _on_connect(self, client: mqtt.Client, userdata: Any, flags: Any,
                    reason: mqtt.ReasonCode, properties: Any) -> None:
        if reason.is_failure:
            log.warning("MQTT broker %s refused the connection: %s", self.settings["host"],
                        reason)
            return
        log.info("MQTT: connected to %s:%s", self.settings["host"], self.settings["port"])
        self.connected = True
        if self.guard is not None:
            client.subscribe(self.topics.command, qos=1)
        with self._wake:
            self._announce = self._dirty = True
            self._wake.notify()

    def _on_disconnect(self, client: mqtt.Client, userdata: Any, flags: Any,
                       reason: mqtt.ReasonCode, properties: Any) -> None:
        self.connected = False
        if not self._stopping:
            log.warning("MQTT: lost the broker (%s); reconnecting", reason)

    def _on_message(self, client: mqtt.Client, userdata: Any, message: mqtt.MQTTMessage) -> None:
        if message.topic != self.topics.command or self.guard is None:
            return
        reply = commands.handle(message.payload, self.session, self.guard)
        log.info("MQTT command %s: %s", reply.get("command"), "done" if reply["ok"]
                 else reply["error"]["key"])
        client.publish(self.topics.reply, json.dumps(reply, ensure_ascii=False), qos=1)

    # -- publishing ------------------------------------------------------------------------------

    def _run(self) -> None:
        while True:
            with self._wake:
                self._wake.wait_for(lambda: self._stopping or self._events or self._dirty)
                if self._stopping:
                    return
                events, self._events = list(self._events), deque()
                announce, dirty, at = self._announce, self._dirty, self._at
                self._dirty = self._announce = False
            try:
                self._publish(events, announce, dirty, at)
            except Exception:  # noqa: BLE001 - a bad view must not end the publishing
                log.exception("MQTT: publishing failed")

    def _publish(self, events: list[dict[str, Any]], announce: bool, dirty: bool,
                 at: float | None) -> None:
        for update, game in events:  # queued by paho while the broker is away
            self.client.publish(self.topics.event, json.dumps(event_json(update, game),
                                                              ensure_ascii=False), qos=1)
        if not (dirty and self.connected):
            return  # the next connection publishes the state then current
        state = {"table": self.name, **summary(self.session, at)}
        if announce:
            self.client.publish(self.topics.availability, ONLINE, qos=1, retain=True)
        if self.settings["discovery"]:
            self._discover(state, announce)
        for field in FIELDS:  # the fields first: the whole state, last, says all is there
            value = state[field]
            self.client.publish(self.topics.field(field), "" if value is None else str(value),
                                retain=True)
        self.client.publish(self.topics.state, json.dumps(state, ensure_ascii=False), retain=True)

    def _discover(self, state: dict[str, Any], again: bool) -> None:
        """Announce the sensors (all of them when ``again``, else those that appeared) and
        remove those of counts and scores the game no longer has."""
        counts = [f"{group}.{key}" for group in ("counts", "scores") for key in state[group]]
        configs = discovery.configs(self.settings["discovery_prefix"], self.topics, self.name,
                                    FIELDS, counts)
        for topic in self._announced - set(configs):
            self.client.publish(topic, b"", qos=1, retain=True)
        for topic, config in configs.items():
            if again or topic not in self._announced:
                self.client.publish(topic, json.dumps(config), qos=1, retain=True)
        self._announced = set(configs)


def reach(settings: Mapping[str, Any], timeout: float = 5.0) -> str | None:
    """Whether the broker of ``settings`` takes this companion's credentials: None when it
    does, else why not (``companion doctor``). The probe has a client id of its own, so a
    running companion keeps its connection."""
    answers: list[mqtt.ReasonCode] = []
    done = threading.Event()
    client = mqtt.Client(mqtt.CallbackAPIVersion.VERSION2)
    if settings["username"]:
        client.username_pw_set(settings["username"], settings["password"] or None)
    if settings["tls"]:
        client.tls_set(ca_certs=settings["ca_file"] or None)
    client.on_connect = lambda c, u, f, reason, p: (answers.append(reason), done.set())
    try:
        client.connect(settings["host"], settings["port"], settings["keepalive"])
    except (OSError, ValueError) as exc:
        return str(exc)
    client.loop_start()
    try:
        if not done.wait(timeout):
            return f"no answer within {timeout:g} s"
        return str(answers[0]) if answers[0].is_failure else None
    finally:
        client.disconnect()
        client.loop_stop()
