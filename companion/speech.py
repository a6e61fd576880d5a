"""Saying aloud what happens: an announcer on its own thread, with a queue that respects the table.

The session calls the announcer's listener inside ``submit``; the listener only puts the lines on
a :class:`SpeechQueue`, so speech never delays the engine. The announcer's thread renders each
line in the configured language and speaks it with a voice (:mod:`companion.voices`).

When the table moves faster than the voice, the queue keeps what is said short and current:

- a line identical to one still waiting, or to the line being said (or just said, within
  ``merge_seconds``), is merged into it: twenty refused presses are one warning;
- phase chatter (whose turn it is, what is expected next) is dropped once the game has moved on;
- a warning (a refused press, an Evil grip, missing hardware) goes before every result and
  chatter line waiting, so it waits behind the line being said at most (and earlier warnings);
- at most ``limit`` lines wait: past that the oldest chatter goes first, then the oldest result
  that has waited ``patience`` seconds already (the voice is really behind, not a moment late;
  the phone page shows everything); four times ``limit`` is the hard bound, a warning goes last.

The line said last is therefore always the newest: what the table is now.
"""

from __future__ import annotations

import json
import logging
import threading
import time
from collections import deque
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from companion.engine import Game, Message, Session, Update
from companion.i18n import LANGUAGES, catalog, render
from companion.voices import Voice, VoiceError

log = logging.getLogger(__name__)

CHATTER = "chatter"
RESULT = "result"
WARNING = "warning"

#: Key prefixes of phase chatter: worth saying only while nothing newer happened.
CHATTER_PREFIXES = ("turn.", "phase.", "expect.", "prompt.")
#: Key prefixes of the companion's own warnings (the LEDs flash for them too); each game adds
#: its own in its capabilities (``warnings``).
WARNING_PREFIXES = ("game.lost", "hardware.", "tags.unknown", "tags.not_now", "press.", "camera.",
                    "warning.")


def urgency(key: str, game: Game | None = None) -> str:
    """How much a message matters: ``warning``, ``result`` or ``chatter`` (may be dropped); the
    warnings are the companion's and ``game``'s."""
    prefixes = WARNING_PREFIXES + (game.capabilities.warnings if game is not None else ())
    if key.startswith(prefixes) and not key.endswith("_freed"):
        return WARNING
    if key.startswith(CHATTER_PREFIXES):
        return CHATTER
    return RESULT


#: How many lines may wait to be said; a backlog longer than this is no longer worth hearing.
LIMIT = 3
#: A line identical to the one said less than this many seconds ago is not said again.
MERGE_SECONDS = 4.0
#: Past the limit, a result is dropped once it has waited this long (seconds).
PATIENCE = 1.0


@dataclass(frozen=True)
class Line:
    """One message waiting to be said, with the game and state to render it in."""

    message: Message
    level: str
    version: int
    game: Game | None = None
    state: Any = None
    queued: float = 0.0  # when the queue took it (its clock)

    @property
    def identity(self) -> str:
        """What makes two lines the same sentence: the message key and its parameters."""
        return json.dumps([self.message.key, self.message.params], sort_keys=True, default=str)


@dataclass(frozen=True)
class Said:
    """One sentence the announcer spoke, and the session version it was about."""

    at: float
    text: str
    urgency: str
    version: int = 0


class SpeechQueue:
    """The lines waiting to be said, under the merge, stale, warning-first and bound rules (see
    the module's docstring). Thread-safe: the session's and the sources' threads ``put``, the
    announcer's thread takes them (``get``) and says ``done``. ``merged`` and ``dropped`` count
    the lines that were not said."""

    def __init__(self, limit: int = LIMIT, merge_seconds: float = MERGE_SECONDS,
                 patience: float = PATIENCE, clock: Callable[[], float] = time.monotonic) -> None:
        self.limit, self.merge_seconds, self.patience = limit, merge_seconds, patience
        self.clock = clock
        self.latest = 0
        self.merged = self.dropped = 0
        self._lines: deque[Line] = deque()
        self._last: tuple[str, float] | None = None  # the line being (or last) said, and when
        self._busy = self._closed = False
        self._cond = threading.Condition()

    def __len__(self) -> int:
        with self._cond:
            return len(self._lines)

    def waiting(self) -> list[Line]:
        """The lines waiting, in the order they will be said."""
        with self._cond:
            return list(self._lines)

    def moved_on(self, version: int) -> None:
        """The session reached ``version``: the chatter of older versions is stale."""
        with self._cond:
            self.latest = max(self.latest, version)
            stale = [line for line in self._lines if self._stale(line)]
            for line in stale:
                self._lines.remove(line)
            self.dropped += len(stale)

    def _stale(self, line: Line) -> bool:
        return line.level == CHATTER and line.version < self.latest

    def put(self, line: Line) -> bool:
        """Queue a line; False when it was merged into an identical one or is already stale."""
        with self._cond:
            if self._stale(line):
                self.dropped += 1
                return False
            identity = line.identity
            for index, waiting in enumerate(self._lines):
                if waiting.identity == identity:  # same words, the newer state, same wait
                    self._lines[index] = replace(line, queued=waiting.queued)
                    self.merged += 1
                    return False
            if self._last is not None and self._last[0] == identity \
                    and self.clock() - self._last[1] < self.merge_seconds:
                self.merged += 1
                return False
            line = replace(line, queued=self.clock())
            if line.level == WARNING:
                before = next((i for i, w in enumerate(self._lines) if w.level != WARNING),
                              len(self._lines))
                self._lines.insert(before, line)
            else:
                self._lines.append(line)
            self._trim()
            self._cond.notify_all()
            return True

    def _trim(self) -> None:
        """Apply the bound (see the module's docstring)."""
        while len(self._lines) > self.limit and (victim := self._victim()) is not None:
            self._lines.remove(victim)
            self.dropped += 1

    def _victim(self) -> Line | None:
        now, lines = self.clock(), self._lines
        chatter = [line for line in lines if line.level == CHATTER]
        results = [line for line in lines if line.level == RESULT]
        late = [line for line in results if now - line.queued >= self.patience]
        if chatter or late:
            return (chatter or late)[0]
        if len(lines) > 4 * self.limit:
            return (results or list(lines))[0]
        return None

    def get(self) -> Line | None:
        """The next line to say (waiting for one), or None once closed and empty."""
        with self._cond:
            while True:
                while not self._lines and not self._closed:
                    self._cond.wait()
                if not self._lines:
                    return None
                self._trim()
                line = self._lines.popleft()
                if not self._stale(line):
                    break
                self.dropped += 1
            self._busy = True
            self._last = (line.identity, self.clock())
            return line

    def done(self) -> None:
        """The line from the last ``get`` has been said."""
        with self._cond:
            self._busy = False
            self._cond.notify_all()

    def close(self) -> None:
        """No more lines: ``get`` returns None once the waiting ones are said."""
        with self._cond:
            self._closed = True
            self._cond.notify_all()

    def wait_idle(self, timeout: float = 10.0) -> bool:
        """Wait until nothing waits and nothing is being said; False after ``timeout``."""
        with self._cond:
            return self._cond.wait_for(lambda: not self._lines and not self._busy, timeout)


def load_catalogs(folders: Iterable[Path], lang: str) -> dict[str, str]:
    """The texts of ``lang`` from extra message folders (an ``<lang>.json`` in each)."""
    texts: dict[str, str] = {}
    for folder in folders:
        path = Path(folder) / f"{lang}.json"
        if path.is_file():
            texts.update(json.loads(path.read_text(encoding="utf-8")))
    return texts


class Announcer:
    """Speaks the session's announcements and prompts, and the warnings it is given.

    ``attach(session)`` subscribes it; ``say(message)`` adds a sentence of its own (a refused
    press, an unknown tag). ``catalogs`` names extra message folders (the hardware's). ``said``
    keeps the last sentences spoken, for the tests and the benchmarks; ``dropped`` and ``merged``
    count the lines the queue did not say. ``failure`` is what stops the voice now (None while it
    speaks), logged once however many lines fail; ``on_failure`` (if set) is told each change
    (the text, or None when the voice works again), for the host page's status.
    """

    def __init__(self, voice: Voice, lang: str = "en", catalogs: Sequence[Path] = (),
                 keep: int = 100, limit: int = LIMIT, merge_seconds: float = MERGE_SECONDS) -> None:
        self.voice, self.lang = voice, lang
        self._extra = {code: load_catalogs(catalogs, code) for code in LANGUAGES}
        self.queue = SpeechQueue(limit, merge_seconds)
        self._session: Session | None = None
        self._thread: threading.Thread | None = None
        self.said: deque[Said] = deque(maxlen=keep)
        self.failure: str | None = None
        self.on_failure: Callable[[str | None], None] | None = None

    @property
    def dropped(self) -> int:
        """Lines not said because they were stale or past the queue's bound."""
        return self.queue.dropped

    @property
    def merged(self) -> int:
        """Lines not said because an identical one was waiting or had just been said."""
        return self.queue.merged

    # -- feeding (called from any thread; never blocks) -----------------------------------------

    def attach(self, session: Session) -> Callable[[], None]:
        """Speak every update of ``session``; returns the function that stops listening."""
        self._session = session
        self.queue.moved_on(session.version)
        return session.subscribe(self._on_update)

    def _on_update(self, update: Update) -> None:
        self.queue.moved_on(update.version)
        game = self._session and self._session.game
        for message in (*update.step.announcements,
                        *(Message(p.key, p.params) for p in update.step.prompts)):
            self.queue.put(Line(message, urgency(message.key, game), update.version, game,
                                update.step.state))

    def say(self, message: Message, level: str = WARNING) -> None:
        """Say a message of the companion's own (a warning unless ``level`` says otherwise)."""
        session = self._session
        self.queue.put(Line(message, level, self.queue.latest, session and session.game,
                            session and session.state))

    # -- speaking (the announcer's own thread) --------------------------------------------------

    def start(self) -> Announcer:
        """Start the speaking thread."""
        if self._thread is None:
            self._thread = threading.Thread(target=self._run, name="announcer", daemon=True)
            self._thread.start()
        return self

    def stop(self, timeout: float = 10.0) -> None:
        """Say what is queued, then stop the thread and the voice."""
        if self._thread is not None:
            self.queue.close()
            self._thread.join(timeout)
            self._thread = None
        self.voice.close()

    def wait_idle(self, timeout: float = 10.0) -> bool:
        """Wait until everything queued has been said (or dropped); for tests and benchmarks."""
        return self.queue.wait_idle(timeout)

    def _run(self) -> None:
        while (line := self.queue.get()) is not None:
            text = render(line.message, texts=self._texts(line))
            at = time.time()
            try:
                self.voice.speak(text, self.lang)
                self._failed(None)
            except VoiceError as exc:  # no player, no device: say so once, not on every line
                self._failed(str(exc))
            except Exception:  # a voice failing must not stop the announcer
                log.exception("speech failed for %r", text)
            self.said.append(Said(at, text, line.level, line.version))
            self.queue.done()

    def _failed(self, failure: str | None) -> None:
        if failure == self.failure:
            return
        if failure is not None:
            log.error("speech failed (%s); run companion doctor", failure)
        self.failure = failure
        if self.on_failure is not None:
            self.on_failure(failure)

    def _texts(self, line: Line) -> dict[str, str]:
        texts = catalog(self.lang, line.game, line.state)
        for key, value in self._extra[self.lang].items():
            texts.setdefault(key, value)
        return texts
