"""Saying aloud what happens: an announcer on its own thread and queue, and its voices.

The session calls the announcer's listener inside ``submit``; the listener only puts the update
on a queue, so speech never delays the engine. The announcer's thread renders each message in the
configured language and speaks it. When the table moves faster than the voice, stale phase chatter
(whose turn it is, what is expected next) is dropped; a result (a card drawn, a fight won) or a
warning (a refused press, an Evil grip, missing hardware) is always said.

Back ends: :class:`Pyttsx3Voice` (the default; espeak-ng underneath), :class:`EspeakVoice` (the
``espeak-ng`` command, which can also write WAV files) and :class:`SilentVoice`.
"""

from __future__ import annotations

import json
import logging
import queue
import shutil
import subprocess
import threading
import time
import wave
from collections import deque
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Protocol

from companion.engine import Game, Message, Session, Update
from companion.i18n import catalog, render

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


class Voice(Protocol):
    """A speech back end: ``speak`` blocks until the sentence is said (or written)."""

    def speak(self, text: str, lang: str) -> None:
        """Say one sentence in a language (``fr`` or ``en``)."""

    def close(self) -> None:
        """Release the back end."""


class SilentVoice:
    """Says nothing: for a box without a speaker, and for tests."""

    def speak(self, text: str, lang: str) -> None:
        """Do nothing."""

    def close(self) -> None:
        """Nothing to release."""


class EspeakVoice:
    """The ``espeak-ng`` command: plays on the default sound card, or writes numbered WAV files.

    With ``output_dir`` every sentence becomes ``0001.wav``, ``0002.wav``... streamed from
    ``espeak-ng --stdout``, with its text beside it (``0001.txt``): a box without a speaker, or a
    test, can then check both what was said and that it was spoken. ``on_audio`` (if given) is
    called with ``time.perf_counter()`` when the first audio sample of a sentence arrives, which
    the benchmark uses.
    """

    def __init__(self, volume: float = 1.0, rate: int = 160, voice: str = "",
                 output_dir: Path | None = None, command: str = "espeak-ng",
                 on_audio: Callable[[float], None] | None = None) -> None:
        if shutil.which(command) is None:
            raise OSError(f"{command} is not installed (sudo apt install espeak-ng)")
        self.command, self.volume, self.rate, self.voice = command, volume, rate, voice
        self.output_dir = output_dir
        self.on_audio = on_audio
        self.written: list[Path] = []

    def _args(self, lang: str) -> list[str]:
        return [self.command, "-v", self.voice or lang, "-s", str(int(self.rate)),
                "-a", str(int(max(0.0, min(self.volume, 1.0)) * 200))]

    def speak(self, text: str, lang: str) -> None:
        """Say ``text`` with espeak-ng, or write it to the next WAV file."""
        if self.output_dir is None:
            subprocess.run([*self._args(lang), "--", text], check=False,
                           stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
            return
        self.output_dir.mkdir(parents=True, exist_ok=True)
        path = self.output_dir / f"{len(self.written) + 1:04d}.wav"
        with subprocess.Popen([*self._args(lang), "--stdout", "--", text],
                              stdout=subprocess.PIPE, stderr=subprocess.DEVNULL) as proc:
            header, pcm = self._stream(proc.stdout)
        if len(header) < 44:
            raise OSError(f"{self.command} produced no audio for {text!r}")
        with wave.open(str(path), "wb") as out:
            out.setnchannels(int.from_bytes(header[22:24], "little"))
            out.setframerate(int.from_bytes(header[24:28], "little"))
            out.setsampwidth(int.from_bytes(header[34:36], "little") // 8)
            out.writeframes(pcm)
        path.with_suffix(".txt").write_text(text, encoding="utf-8")
        self.written.append(path)

    def _stream(self, stdout: Any) -> tuple[bytes, bytes]:
        data = bytearray()
        told = False
        while chunk := stdout.read1(65536):
            data += chunk
            if not told and len(data) > 44:
                told = True
                if self.on_audio is not None:
                    self.on_audio(time.perf_counter())
        return bytes(data[:44]), bytes(data[44:])

    def close(self) -> None:
        """Nothing to release: each sentence is its own process."""


class Pyttsx3Voice:
    """pyttsx3 (espeak-ng underneath on Linux). Its engine is created on the first ``speak``, on
    the announcer's thread, because a pyttsx3 engine belongs to the thread that made it."""

    def __init__(self, volume: float = 1.0, rate: int = 160, voice: str = "") -> None:
        import pyttsx3  # imported here: the other back ends must work without it

        self._pyttsx3 = pyttsx3
        self.volume, self.rate, self.voice = volume, rate, voice
        self._engine: Any = None
        self._lang: str | None = None

    def _voice_for(self, lang: str) -> str | None:
        for voice in self._engine.getProperty("voices"):
            languages = [str(code).lower() for code in (voice.languages or [])]
            if voice.id.rsplit("/", 1)[-1] == lang or any(c.startswith(lang) for c in languages):
                return voice.id
        return None

    def speak(self, text: str, lang: str) -> None:
        """Say ``text`` in ``lang``; the configured voice wins over the language's default."""
        if self._engine is None:
            self._engine = self._pyttsx3.init()
            self._engine.setProperty("rate", self.rate)
            self._engine.setProperty("volume", self.volume)
        if lang != self._lang:
            voice = self.voice or self._voice_for(lang)
            if voice:
                self._engine.setProperty("voice", voice)
            self._lang = lang
        self._engine.say(text)
        self._engine.runAndWait()

    def close(self) -> None:
        """Stop the engine."""
        if self._engine is not None:
            self._engine.stop()


def make_voice(settings: Mapping[str, Any]) -> Voice:
    """The back end named by the ``[speech]`` settings; silent (with a logged reason) when it
    cannot start, so that a box without sound still plays. ``wav_dir`` makes ``espeak-ng`` write
    WAV files there instead of playing them."""
    name = settings.get("backend", "pyttsx3") if settings.get("enabled", True) else "silent"
    options = {k: settings[k] for k in ("volume", "rate", "voice") if k in settings}
    try:
        if name == "pyttsx3":
            return Pyttsx3Voice(**options)
        if name == "espeak-ng":
            wav_dir = settings.get("wav_dir")
            output = Path(wav_dir).expanduser() if wav_dir else None
            return EspeakVoice(**options, output_dir=output)
    except (ImportError, OSError, RuntimeError) as exc:
        log.warning("speech back end %s cannot start (%s): the companion stays silent", name, exc)
    return SilentVoice()


@dataclass(frozen=True)
class _Item:
    version: int
    messages: tuple[Message, ...]
    urgency: str | None  # None: each message's own
    game: Game | None
    state: Any


@dataclass(frozen=True)
class Said:
    """One sentence the announcer spoke."""

    at: float
    text: str
    urgency: str


def load_catalogs(folders: Iterable[Path], lang: str) -> dict[str, str]:
    """The texts of ``lang`` from extra message folders (``en.json``, ``fr.json`` in each)."""
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
    keeps the last sentences spoken, for the host page and the tests; ``dropped`` counts the
    chatter skipped because newer events came.
    """

    def __init__(self, voice: Voice, lang: str = "en", catalogs: Sequence[Path] = (),
                 keep: int = 100) -> None:
        self.voice, self.lang = voice, lang
        self._extra = {code: load_catalogs(catalogs, code) for code in ("fr", "en")}
        self._queue: queue.Queue[_Item | None] = queue.Queue()
        self._latest = 0
        self._session: Session | None = None
        self._thread: threading.Thread | None = None
        self.said: deque[Said] = deque(maxlen=keep)
        self.dropped = 0

    # -- feeding (called from any thread; never blocks) -----------------------------------------

    def attach(self, session: Session) -> Callable[[], None]:
        """Speak every update of ``session``; returns the function that stops listening."""
        self._session = session
        self._latest = session.version
        return session.subscribe(self._on_update)

    def _on_update(self, update: Update) -> None:
        self._latest = update.version
        session = self._session
        messages = (*update.step.announcements,
                    *(Message(p.key, p.params) for p in update.step.prompts))
        self._put(_Item(update.version, messages, None, session and session.game,
                        update.step.state))

    def say(self, message: Message, level: str = WARNING) -> None:
        """Say a message of the companion's own (never dropped unless ``level`` is chatter)."""
        session = self._session
        self._put(_Item(self._latest, (message,), level, session and session.game,
                        session and session.state))

    def _put(self, item: _Item) -> None:
        self._queue.put(item)

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
            self._queue.put(None)
            self._thread.join(timeout)
            self._thread = None
        self.voice.close()

    def wait_idle(self, timeout: float = 10.0) -> bool:
        """Wait until everything queued has been said (or dropped); for tests and benchmarks."""
        done = self._queue.all_tasks_done
        with done:
            return done.wait_for(lambda: not self._queue.unfinished_tasks, timeout)

    def _run(self) -> None:
        while (item := self._queue.get()) is not None:
            texts = self._texts(item)
            for message in item.messages:
                level = item.urgency or urgency(message.key, item.game)
                if level == CHATTER and item.version < self._latest:
                    self.dropped += 1
                    continue
                text = render(message, texts=texts)
                try:
                    self.voice.speak(text, self.lang)
                except Exception:  # a voice failing must not stop the announcer
                    log.exception("speech failed for %r", text)
                self.said.append(Said(time.time(), text, level))
            self._queue.task_done()
        self._queue.task_done()

    def _texts(self, item: _Item) -> dict[str, str]:
        texts = catalog(self.lang, item.game, item.state)
        for key, value in self._extra[self.lang].items():
            texts.setdefault(key, value)
        return texts
