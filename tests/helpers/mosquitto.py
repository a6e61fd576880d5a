"""A real mosquitto broker for the tests and benchmarks, and a client that watches it.

:class:`Mosquitto` writes its own config file (a listener on a free loopback port, no
persistence, optionally a password file and an ACL) and runs the Debian ``mosquitto`` binary; it
can be stopped and started again on the same port. :class:`Watcher` is a paho client that keeps
every message it receives, retained ones included.
"""

from __future__ import annotations

import getpass
import json
import shutil
import socket
import subprocess
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import paho.mqtt.client as mqtt

if shutil.which("mosquitto") is None:  # a missing broker is a broken machine, never a skip
    raise RuntimeError("mosquitto is not installed: apt-get install mosquitto (.ci/run does it)")


def free_port() -> int:
    """A TCP port free on the loopback now."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


class Mosquitto:
    """A broker in ``folder``; ``users`` (name → password) and ``acl`` (the text of an ACL
    file) guard it when given; anonymous clients are allowed as far as the ACL lets them."""

    def __init__(self, folder: Path, users: dict[str, str] | None = None,
                 acl: str | None = None) -> None:
        self.folder, self.port = Path(folder), free_port()
        self.folder.mkdir(parents=True, exist_ok=True)
        self.log = self.folder / "mosquitto.log"
        lines = [f"listener {self.port} 127.0.0.1", "allow_anonymous true",
                 "persistence false", f"user {getpass.getuser()}",
                 f"log_dest file {self.log}", "log_type all", "max_queued_messages 100000"]
        if users:
            passwords = self.folder / "passwords"
            passwords.write_text("".join(f"{u}:{p}\n" for u, p in users.items()))
            subprocess.run(["mosquitto_passwd", "-U", str(passwords)], check=True)
            lines.append(f"password_file {passwords}")
        if acl is not None:
            (self.folder / "acl").write_text(acl)
            lines.append(f"acl_file {self.folder / 'acl'}")
        self.config = self.folder / "mosquitto.conf"
        self.config.write_text("\n".join(lines) + "\n")
        self.process: subprocess.Popen | None = None

    def start(self) -> Mosquitto:
        """Run the broker and wait until it takes connections."""
        self.process = subprocess.Popen(["mosquitto", "-c", str(self.config)],
                                        stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline:
            try:
                socket.create_connection(("127.0.0.1", self.port), 0.2).close()
                return self
            except OSError:
                if self.process.poll() is not None:
                    raise RuntimeError(f"mosquitto stopped: {self.process.stderr.read()}") from None
                time.sleep(0.02)
        raise RuntimeError(f"mosquitto does not answer on port {self.port}")

    def stop(self) -> None:
        """Stop the broker (its retained messages go with it: no persistence)."""
        if self.process is not None and self.process.poll() is None:
            self.process.terminate()
            self.process.wait(10)
        self.process = None

    @property
    def address(self) -> str:
        """``HOST:PORT``."""
        return f"127.0.0.1:{self.port}"


class Watcher:
    """A client that subscribes to ``topics`` and keeps every message, in arrival order."""

    def __init__(self, port: int, topics: tuple[str, ...] = ("#",), username: str = "",
                 password: str = "") -> None:
        self.messages: list[tuple[str, bytes, bool]] = []
        self.topics = topics
        self._changed = threading.Condition()
        self.client = mqtt.Client(mqtt.CallbackAPIVersion.VERSION2)
        if username:
            self.client.username_pw_set(username, password)
        self.client.on_connect = self._subscribe
        self.client.on_message = self._keep
        self.client.connect("127.0.0.1", port)
        self.client.loop_start()

    def _subscribe(self, client, userdata, flags, reason, properties) -> None:
        for topic in self.topics:
            client.subscribe(topic, qos=1)

    def _keep(self, client, userdata, message) -> None:
        with self._changed:
            self.messages.append((message.topic, message.payload, bool(message.retain)))
            self._changed.notify_all()

    def last(self, topic: str) -> bytes | None:
        """The last payload seen on ``topic``, or None."""
        with self._changed:
            return next((p for t, p, _ in reversed(self.messages) if t == topic), None)

    def last_json(self, topic: str) -> Any:
        """The last payload of ``topic`` as JSON, or None."""
        payload = self.last(topic)
        return None if payload is None else json.loads(payload)

    def wait(self, condition: Callable[[], object], timeout: float = 10.0) -> bool:
        """Wait until ``condition()`` is true (checked on each message) or ``timeout``."""
        deadline = time.monotonic() + timeout
        with self._changed:
            while not condition():
                left = deadline - time.monotonic()
                if left <= 0:
                    return False
                self._changed.wait(min(left, 0.1))
            return True

    def publish(self, topic: str, payload: Any) -> None:
        """Publish JSON (or text) at QoS 1 and wait until the broker has it."""
        data = payload if isinstance(payload, str | bytes) else json.dumps(payload)
        self.client.publish(topic, data, qos=1).wait_for_publish(5)

    def close(self) -> None:
        """Disconnect."""
        self.client.disconnect()
        self.client.loop_stop()
