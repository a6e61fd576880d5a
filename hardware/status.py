"""What the hardware is doing, for the host page and ``companion doctor``.

A device that is configured but missing or failing is reported once (not on every retry), and
once more when it comes back; the last of these changes are kept, with their time, for the host
page. A problem is a :class:`~companion.engine.Message` of the hardware catalog and a device is
named by an id shown through its ``name.<id>`` entry there, so the host page and the voice say
both in the table's language; what a driver or the system reported stays in a ``detail``
parameter, as it was written. The last raw tag UID seen is kept with its time and written to
``DATA_DIR/hardware-status.json``: "the reader works but the card never shows up" is the most
common trouble with RFID boxes, and this answers it even from another process.
"""

from __future__ import annotations

import json
import logging
import os
import threading
import time
from collections import deque
from collections.abc import Callable
from functools import cache
from pathlib import Path
from typing import Any

from companion.engine import DataPaths, Message
from companion.i18n import catalog, render
from companion.speech import load_catalogs

from . import MESSAGES_DIR

log = logging.getLogger(__name__)

#: How many device changes (missing, back) the host page can see.
EVENTS_KEPT = 20

Listener = Callable[[str, Message | None], None]
"""Called with (device, problem) when a device fails, and (device, None) when it is back."""


class Status:
    """Problems by device, reported once each, the recent changes, and the last tag seen.

    ``held`` names the devices the running companion holds open (:func:`hardware.build.start`
    fills it): ``companion doctor`` on the host page reads their state here instead of opening
    them a second time.
    """

    def __init__(self, data_dir: Path | None = None, listener: Listener | None = None) -> None:
        self.path = DataPaths(Path(data_dir)).hardware_status if data_dir is not None else None
        self.listener = listener
        self.problems: dict[str, Message] = {}
        self.events: deque[dict[str, Any]] = deque(maxlen=EVENTS_KEPT)
        self.held: set[str] = set()
        self.last_tag: dict[str, Any] | None = None
        self._lock = threading.Lock()

    def problem(self, device: str, problem: Message) -> bool:
        """Report that ``device`` fails; True the first time (later calls only log at debug)."""
        with self._lock:
            first = device not in self.problems
            self.problems[device] = problem
            if first:
                self.events.append({"device": device, "problem": problem, "at": time.time()})
        if first:
            log.warning("%s: %s", device, self.text(device, "en"))
            if self.listener is not None:
                self.listener(device, problem)
        else:
            log.debug("%s still failing: %s", device, self.text(device, "en"))
        return first

    def resolved(self, device: str) -> None:
        """Report that ``device`` works (again)."""
        with self._lock:
            was = self.problems.pop(device, None)
            if was is not None:
                self.events.append({"device": device, "problem": None, "at": time.time()})
        if was is not None:
            log.warning("%s: working again", device)
            if self.listener is not None:
                self.listener(device, None)

    def tag_seen(self, uid: str, reader: str, card: str | None = None) -> None:
        """Remember the last raw UID read, whether or not it is a known card."""
        self.last_tag = {"uid": uid, "reader": reader, "card": card, "at": time.time()}
        if self.path is not None:
            tmp = self.path.with_suffix(".tmp")
            tmp.write_text(json.dumps({"last_tag": self.last_tag}), encoding="utf-8")
            os.replace(tmp, self.path)

    def text(self, device: str, lang: str = "en") -> str:
        """What is wrong with ``device`` now, in ``lang`` ("" when nothing is)."""
        problem = self.problems.get(device)
        return "" if problem is None else render(problem, texts=texts(lang))

    def snapshot(self, lang: str = "en") -> dict[str, Any]:
        """Problems by device name, recent changes (``problem`` None: back) and the last tag, as
        JSON-ready data with every text in ``lang``."""
        words = texts(lang)

        def say(problem: Message | None) -> str | None:
            return None if problem is None else render(problem, texts=words)

        with self._lock:
            return {"problems": {device_name(d, lang): say(p) for d, p in self.problems.items()},
                    "events": [{**e, "device": device_name(e["device"], lang),
                                "problem": say(e["problem"])} for e in self.events],
                    "last_tag": self.last_tag}


@cache
def texts(lang: str) -> dict[str, str]:
    """The common catalog completed by the hardware's, in ``lang`` (read once)."""
    return {**catalog(lang), **load_catalogs([MESSAGES_DIR], lang)}


def device_name(device: str, lang: str = "en") -> str:
    """A device's name for people: its ``name.<id>`` entry, or the id itself (a reader's or a
    camera's own name, such as ``MFRC522 on /dev/spidev0.0``)."""
    return texts(lang).get(f"name.{device}", device)


def last_tag(data_dir: Path) -> dict[str, Any] | None:
    """The last tag another process saw, from its status file, or None."""
    try:
        path = DataPaths(Path(data_dir)).hardware_status
        return json.loads(path.read_text(encoding="utf-8"))["last_tag"]
    except (OSError, ValueError, KeyError):
        return None
