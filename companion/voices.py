"""The voices the announcer speaks with, and the sound device they play on.

A voice turns a sentence into audio and plays it on the configured ALSA device
(``[speech] device``, ``aplay -L`` lists them; empty: the system's default). The default engine
is espeak-ng: its WAV output is streamed to ``aplay`` as it is made, so the first sample plays a
few milliseconds after the sentence is given, however long it is. pyttsx3 can be chosen where it
is installed; it renders a whole sentence before playing it (slower to start), then plays it on
the same device. Piper (a neural voice, with a model file per language) streams like espeak-ng.
A voice that cannot play raises :class:`VoiceError` saying what is missing (the engine, the
player or the device): ``companion doctor`` turns that into its fix, and the announcer logs it
once instead of pretending to speak.

With ``wav_dir`` espeak-ng writes every sentence to ``0001.wav`` (and its text to ``0001.txt``)
instead of playing it: for a box without a speaker, and for the tests.
"""

from __future__ import annotations

import contextlib
import io
import json
import logging
import shutil
import subprocess
import tempfile
import time
import wave
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import IO, Any, Protocol

log = logging.getLogger(__name__)

#: What each kind of failure needs: the speech engine, the audio player, or the sound device.
ENGINE, PLAYER, DEVICE = "engine", "player", "device"
WAV_HEADER = 44
CHUNK = 4096


class VoiceError(OSError):
    """A voice cannot speak: ``missing`` is ``engine``, ``player`` or ``device``."""

    def __init__(self, missing: str, detail: str) -> None:
        super().__init__(detail)
        self.missing = missing


class Voice(Protocol):
    """A speech back end: ``speak`` blocks until the sentence is said (or written)."""

    def speak(self, text: str, lang: str) -> None:
        """Say one sentence in a language (``fr``, ``en``, ``es``); VoiceError when it cannot."""

    def close(self) -> None:
        """Release the back end."""


class SilentVoice:
    """Says nothing: for a box without a speaker, and for tests."""

    def speak(self, text: str, lang: str) -> None:
        """Do nothing."""

    def close(self) -> None:
        """Nothing to release."""


def _need(command: str, missing: str, package: str) -> None:
    if shutil.which(command) is None:
        raise VoiceError(missing, f"{command} is not installed (sudo apt install {package})")


class Player:
    """``aplay`` on an ALSA device, fed a WAV stream (or raw 16-bit mono samples) on its
    standard input."""

    def __init__(self, device: str = "", command: str = "aplay") -> None:
        _need(command, PLAYER, "alsa-utils")
        self.device, self.command = device, command

    def play(self, chunks: Callable[[], bytes], raw_rate: int | None = None) -> int:
        """Play the stream that ``chunks()`` gives piece by piece (b"" ends it): WAV, or raw
        signed 16-bit mono samples at ``raw_rate`` Hz; returns the bytes played. VoiceError when
        the device cannot be opened or the player stops."""
        form = ["-t", "wav"] if raw_rate is None else ["-t", "raw", "-f", "S16_LE", "-c", "1",
                                                       "-r", str(raw_rate)]
        args = [self.command, "-q", *form, *(["-D", self.device] if self.device else []), "-"]
        played = 0
        with subprocess.Popen(args, stdin=subprocess.PIPE, stdout=subprocess.DEVNULL,
                              stderr=subprocess.PIPE) as proc:
            try:
                while chunk := chunks():
                    proc.stdin.write(chunk)
                    proc.stdin.flush()
                    played += len(chunk)
                proc.stdin.close()
            except BrokenPipeError:  # the player stopped (no device): its stderr says why
                with contextlib.suppress(BrokenPipeError):
                    proc.stdin.close()
            error = proc.stderr.read().decode(errors="replace").strip()
            proc.wait()
        if proc.returncode != 0:
            where = self.device or "the default sound device"
            raise VoiceError(DEVICE, f"{self.command} cannot play on {where}: "
                                     f"{error.splitlines()[-1] if error else proc.returncode}")
        return played


class EspeakVoice:
    """espeak-ng, its audio streamed to the player as it is made (or written to WAV files).

    ``on_audio`` (if given) is called with ``time.perf_counter()`` when the first audio sample of
    a sentence leaves espeak-ng, which the benchmark uses.
    """

    def __init__(self, volume: float = 1.0, rate: int = 160, voice: str = "",
                 output_dir: Path | None = None, command: str = "espeak-ng", device: str = "",
                 on_audio: Callable[[float], None] | None = None) -> None:
        _need(command, ENGINE, "espeak-ng")
        self.command, self.volume, self.rate, self.voice = command, volume, rate, voice
        self.output_dir = output_dir
        self.player = Player(device) if output_dir is None else None
        self.on_audio = on_audio
        self.written: list[Path] = []

    def _args(self, lang: str) -> list[str]:
        return [self.command, "-v", self.voice or lang, "-s", str(int(self.rate)),
                "-a", str(int(max(0.0, min(self.volume, 1.0)) * 200)), "--stdout"]

    def speak(self, text: str, lang: str) -> None:
        """Say ``text`` on the device, or write it to the next WAV file."""
        with subprocess.Popen([*self._args(lang), "--", text], stdout=subprocess.PIPE,
                              stderr=subprocess.PIPE) as proc:
            chunks = self._chunks(proc.stdout)
            if self.player is not None:
                played = self.player.play(chunks)
            else:
                played = self._write(text, chunks)
            error = proc.stderr.read().decode(errors="replace").strip()
        if played <= WAV_HEADER:
            raise VoiceError(ENGINE, f"{self.command} produced no audio for {text!r} "
                                     f"({error or proc.returncode})")

    def _chunks(self, stdout: IO[bytes]) -> Callable[[], bytes]:
        told = False

        def next_chunk() -> bytes:
            nonlocal told
            chunk = stdout.read1(CHUNK)
            if chunk and not told and self.on_audio is not None:
                told = True
                self.on_audio(time.perf_counter())
            return chunk

        return next_chunk

    def _write(self, text: str, chunks: Callable[[], bytes]) -> int:
        data = bytearray()
        while chunk := chunks():
            data += chunk
        if len(data) <= WAV_HEADER:
            return len(data)
        self.output_dir.mkdir(parents=True, exist_ok=True)
        path = self.output_dir / f"{len(self.written) + 1:04d}.wav"
        header = bytes(data[:WAV_HEADER])
        with wave.open(str(path), "wb") as out:
            out.setnchannels(int.from_bytes(header[22:24], "little"))
            out.setframerate(int.from_bytes(header[24:28], "little"))
            out.setsampwidth(int.from_bytes(header[34:36], "little") // 8)
            out.writeframes(bytes(data[WAV_HEADER:]))
        path.with_suffix(".txt").write_text(text, encoding="utf-8")
        self.written.append(path)
        return len(data)

    def close(self) -> None:
        """Nothing to release: each sentence is its own process."""


class Pyttsx3Voice:
    """pyttsx3 (espeak-ng underneath on Linux): each sentence is rendered whole to a WAV file,
    then played on the device. Its engine is made on the first ``speak``, on the announcer's
    thread, because a pyttsx3 engine belongs to the thread that made it."""

    def __init__(self, volume: float = 1.0, rate: int = 160, voice: str = "",
                 device: str = "") -> None:
        try:
            import pyttsx3  # imported here: the other back ends must work without it
        except ImportError as exc:
            raise VoiceError(ENGINE, f"pyttsx3 is not installed ({exc})") from exc
        self._pyttsx3 = pyttsx3
        self.player = Player(device)
        self.volume, self.rate, self.voice = volume, rate, voice
        self._engine: Any = None
        self._lang: str | None = None

    def _voice_for(self, lang: str) -> str | None:
        for voice in self._engine.getProperty("voices"):
            languages = [str(code).lower() for code in (voice.languages or [])]
            if voice.id.rsplit("/", 1)[-1] == lang or any(c.startswith(lang) for c in languages):
                return voice.id
        return None

    def _ready(self, lang: str) -> None:
        if self._engine is None:
            try:
                self._engine = self._pyttsx3.init()
            except (RuntimeError, OSError) as exc:
                raise VoiceError(ENGINE, f"pyttsx3 cannot start ({exc})") from exc
            self._engine.setProperty("rate", self.rate)
            self._engine.setProperty("volume", self.volume)
        if lang != self._lang:
            voice = self.voice or self._voice_for(lang)
            if voice:
                self._engine.setProperty("voice", voice)
            self._lang = lang

    def speak(self, text: str, lang: str) -> None:
        """Render ``text`` in ``lang`` (the configured voice wins), then play it."""
        self._ready(lang)
        with tempfile.TemporaryDirectory(prefix="companion-voice-") as tmp:
            path = Path(tmp) / "said.wav"
            with contextlib.redirect_stdout(io.StringIO()):  # pyttsx3 prints "Audio saved"
                self._engine.save_to_file(text, str(path))
                self._engine.runAndWait()
            if not path.is_file() or path.stat().st_size <= WAV_HEADER:
                raise VoiceError(ENGINE, f"pyttsx3 produced no audio for {text!r}")
            with path.open("rb") as wav:
                self.player.play(lambda: wav.read(CHUNK))

    def close(self) -> None:
        """Stop the engine."""
        if self._engine is not None:
            self._engine.stop()


class PiperVoice:
    """Piper (a neural voice, ``pip install piper-tts`` plus a voice model): the sentence goes to
    ``piper --output-raw`` and its samples stream to the player as they come. ``voice`` is the
    model file (``fr_FR-siwis-medium.onnx``, with its ``.onnx.json`` beside it, which gives the
    sample rate); one model speaks one language. ``rate`` sets piper's length scale (160 words a
    minute is its natural pace); piper has no volume setting: use the device's mixer."""

    def __init__(self, voice: str = "", rate: int = 160, device: str = "",
                 command: str = "piper", volume: float = 1.0) -> None:
        _need(command, ENGINE, "piper: pip install piper-tts")
        model = Path(voice).expanduser()
        try:
            settings = json.loads(Path(f"{model}.json").read_text(encoding="utf-8"))
            self.sample_rate = int(settings["audio"]["sample_rate"])
        except (OSError, ValueError, KeyError, TypeError) as exc:
            raise VoiceError(ENGINE, f"piper needs a voice model: set [speech] voice to its "
                                     f".onnx file, with its .onnx.json beside it ({exc})") from exc
        self.command, self.model, self.rate = command, model, rate
        self.player = Player(device)

    def speak(self, text: str, lang: str) -> None:
        """Say ``text`` with the model (its own language, whatever ``lang`` is)."""
        args = [self.command, "--model", str(self.model), "--output-raw", "--length_scale",
                f"{160 / max(self.rate, 1):.3f}"]
        with subprocess.Popen(args, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                              stderr=subprocess.PIPE) as proc:
            proc.stdin.write(text.encode() + b"\n")
            proc.stdin.close()
            played = self.player.play(lambda: proc.stdout.read1(CHUNK), self.sample_rate)
            error = proc.stderr.read().decode(errors="replace").strip()
        if played == 0:
            raise VoiceError(ENGINE, f"piper produced no audio for {text!r} "
                                     f"({error.splitlines()[-1] if error else proc.returncode})")

    def close(self) -> None:
        """Nothing to release: each sentence is its own process."""


def open_voice(settings: Mapping[str, Any]) -> Voice:
    """The voice the ``[speech]`` settings name; VoiceError when it cannot speak here."""
    name = settings.get("backend", "espeak-ng") if settings.get("enabled", True) else "silent"
    options = {k: settings[k] for k in ("volume", "rate", "voice", "device") if k in settings}
    if name == "pyttsx3":
        return Pyttsx3Voice(**options)
    if name == "piper":
        return PiperVoice(**options)
    if name == "espeak-ng":
        wav_dir = settings.get("wav_dir")
        return EspeakVoice(**options, output_dir=Path(wav_dir).expanduser() if wav_dir else None)
    return SilentVoice()


def make_voice(settings: Mapping[str, Any]) -> Voice:
    """:func:`open_voice`, or a silent voice (with a logged reason) when it cannot speak here,
    so that a box without sound still plays; ``companion doctor`` says what to fix."""
    try:
        return open_voice(settings)
    except VoiceError as exc:
        log.error("speech cannot start (%s): the companion stays silent; run companion doctor",
                  exc)
    return SilentVoice()
