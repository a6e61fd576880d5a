"""Telling systemd how the service is doing: ready, alive, stopping (``Type=notify``).

The unit (``systemd/companion.service``) waits for ``READY=1`` before it counts the companion as
started, and restarts it when ``WATCHDOG=1`` stops coming for ``WatchdogSec=``. ``companion run``
sends ``READY=1`` once the journal is open and the page's socket listens, then a heartbeat thread
sends ``WATCHDOG=1`` every third of the watchdog period, but only while the page really answers
(a request through the web server, its worker threads and the session): a hung server or a
deadlocked session stops the heartbeat, and systemd restarts the service. Away from systemd
(``NOTIFY_SOCKET`` unset) every call does nothing.
"""

from __future__ import annotations

import logging
import os
import threading
import urllib.request
from collections.abc import Callable

import sdnotify

log = logging.getLogger(__name__)


def page_answers(url: str, timeout: float = 5.0) -> bool:
    """Whether ``url`` answers 200 within ``timeout`` seconds (the heartbeat's probe)."""
    try:
        with urllib.request.urlopen(url, timeout=timeout) as reply:
            return reply.status == 200
    except OSError:
        return False


class Heartbeat:
    """A thread that sends ``WATCHDOG=1`` every ``period`` seconds while ``alive()`` is true."""

    def __init__(self, send: Callable[[str], None], period: float,
                 alive: Callable[[], bool]) -> None:
        self._send, self.period, self._alive = send, period, alive
        self._stop = threading.Event()
        self.missed = 0
        self._thread = threading.Thread(target=self._run, name="watchdog", daemon=True)
        self._thread.start()

    def _run(self) -> None:
        while not self._stop.wait(self.period):
            if self._alive():
                self._send("WATCHDOG=1")
            else:
                self.missed += 1
                log.warning("the page does not answer: no watchdog ping (%d missed)", self.missed)

    def stop(self) -> None:
        """Stop pinging (the service is stopping)."""
        self._stop.set()
        self._thread.join(self.period + 1)


class ServiceNotifier:
    """The service's side of systemd's notify protocol (nothing happens outside systemd).

    ``watchdog`` is the period systemd expects pings within (``WATCHDOG_USEC``), in seconds, or
    None when the unit has no watchdog or it is meant for another process (``WATCHDOG_PID``).
    Everything is read from the environment systemd gives the service.
    """

    def __init__(self) -> None:
        self.enabled = bool(os.environ.get("NOTIFY_SOCKET"))
        self._notifier = sdnotify.SystemdNotifier() if self.enabled else None
        usec, pid = os.environ.get("WATCHDOG_USEC", ""), os.environ.get("WATCHDOG_PID", "")
        mine = not pid or pid == str(os.getpid())
        self.watchdog = int(usec) / 1e6 if usec.isdigit() and int(usec) > 0 and mine else None
        self._heartbeat: Heartbeat | None = None

    def send(self, message: str) -> None:
        """Send one notify line (``READY=1``, ``STATUS=...``) if systemd listens."""
        if self._notifier is not None:
            self._notifier.notify(message)

    def ready(self, status: str, alive: Callable[[], bool]) -> None:
        """The companion serves: say so (with a status line) and start the heartbeat, which
        pings only while ``alive()``."""
        self.send(f"READY=1\nSTATUS={status}")
        if self.enabled and self.watchdog is not None and self._heartbeat is None:
            self._heartbeat = Heartbeat(self.send, self.watchdog / 3, alive)

    def stopping(self) -> None:
        """The companion is stopping: end the heartbeat and tell systemd."""
        if self._heartbeat is not None:
            self._heartbeat.stop()
            self._heartbeat = None
        self.send("STOPPING=1")
