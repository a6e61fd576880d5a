"""The announcer: its own thread, FR/EN, stale chatter dropped, warnings and results kept,
and espeak-ng writing WAV files that hold speech of a plausible length."""

import ast
import re
import threading
import time
import wave
from pathlib import Path

import hwtools
import pytest

import hardware
from companion import speech
from companion.engine import Message, find_game
from companion.i18n import render
from companion.speech import (
    CHATTER,
    RESULT,
    WARNING,
    Announcer,
    Line,
    SpeechQueue,
    load_catalogs,
    urgency,
)
from companion.voices import EspeakVoice, Pyttsx3Voice, SilentVoice, make_voice
from hardware import MESSAGES_DIR


def test_urgency_of_keys():
    assert urgency("turn.start") == CHATTER and urgency("expect.card") == CHATTER
    assert urgency("card.drawn") == RESULT and urgency("game.won") == RESULT
    bastion = find_game("last-bastion")
    assert urgency("grip.tile", bastion) == WARNING
    assert urgency("grip.tile_freed", bastion) == RESULT and urgency("grip.tile") == RESULT
    assert urgency("hardware.missing") == WARNING


@pytest.mark.parametrize("lang", ["en", "fr", "es"])
def test_announcements_are_spoken_in_the_configured_language(tmp_path, lang):
    voice = hwtools.RecordingVoice()
    announcer = Announcer(voice, lang).start()
    session = hwtools.Session(tmp_path)
    announcer.attach(session)
    step = session.submit(hwtools.solo(hero="elmer"))
    step2 = session.submit({"type": "card", "id": "incube"})
    assert announcer.wait_idle()
    expected = [render(m, lang, session.game, step.state)
                for m in step.announcements] + [
                render(m, lang, session.game, step2.state) for m in step2.announcements]
    spoken = [text for text, _ in voice.lines]
    assert [t for t in spoken if t in expected] == [t for t in expected if t in spoken]
    assert expected[-1] in spoken and all(code == lang for _, code in voice.lines)
    assert ("Drawn: Incube" if lang == "en" else "Incube") in spoken[-1]


def test_speech_never_delays_the_engine_and_drops_only_stale_chatter(tmp_path):
    gate = threading.Event()
    voice = hwtools.RecordingVoice(gate)
    announcer = Announcer(voice, "en", catalogs=[MESSAGES_DIR]).start()
    session = hwtools.started_game(tmp_path)
    announcer.attach(session)
    start = time.perf_counter()
    session.submit({"type": "card", "id": "incube"})       # result + chatter behind a slow voice
    session.submit({"type": "place", "slot": "red.1"})     # its prompt: chatter, soon stale
    session.submit({"type": "answer", "effects": []})
    announcer.say(Message("press.game_over"))               # a warning of the companion's own
    assert time.perf_counter() - start < 1.0                 # the voice is blocked all along
    gate.set()
    assert announcer.wait_idle()
    spoken = [text for text, _ in voice.lines]
    assert "Drawn: Incube, red, resistance 2." in spoken
    assert "The game is over." in spoken
    assert "Gary's Hero phase." in spoken  # chatter of the latest event is still said
    levels = [s.urgency for s in announcer.said]
    assert announcer.dropped >= 1 and levels.count(WARNING) == 1
    announcer.stop()


def test_extra_catalogs_are_rendered(tmp_path):
    voice = hwtools.RecordingVoice()
    announcer = Announcer(voice, "fr", catalogs=[MESSAGES_DIR]).start()
    announcer.say(Message("tags.unknown", {"uid": "04A1B2C3"}))
    assert announcer.wait_idle()
    assert voice.lines == [("Badge de carte inconnu : indiquez sur le téléphone de quelle carte "
                            "il s'agit.", "fr")]


def wav_seconds(path):
    with wave.open(str(path)) as wav:
        assert wav.getnchannels() == 1 and wav.getsampwidth() == 2
        return wav.getnframes() / wav.getframerate()


@pytest.mark.parametrize("lang", ["en", "fr"])
def test_espeak_writes_wav_files_of_plausible_length(tmp_path, lang):
    voice = EspeakVoice(rate=160, output_dir=tmp_path)
    announcer = Announcer(voice, lang).start()
    session = hwtools.Session(tmp_path / "data")
    announcer.attach(session)
    session.submit(hwtools.solo(hero="elmer"))
    assert announcer.wait_idle(30)  # else the turn's chatter is stale by the next event
    session.submit({"type": "card", "id": "incube"})
    assert announcer.wait_idle(30)
    announcer.stop()
    assert len(voice.written) == len(announcer.said) >= 3
    for path, said in zip(voice.written, announcer.said, strict=True):
        words = len(said.text.split())
        seconds = wav_seconds(path)
        # 160 words a minute is 0.375 s a word; pauses and long names stretch it, never by 3x
        assert 0.15 * words < seconds < 1.2 * words + 0.5, (said.text, seconds)


def test_espeak_speed_and_missing_command(tmp_path):
    slow = EspeakVoice(rate=100, output_dir=tmp_path / "slow")
    fast = EspeakVoice(rate=250, output_dir=tmp_path / "fast")
    for voice in (slow, fast):
        voice.speak("The dice are red, white and yellow.", "en")
    assert wav_seconds(slow.written[0]) > 1.5 * wav_seconds(fast.written[0])
    with pytest.raises(OSError, match="not installed"):
        EspeakVoice(command="no-such-espeak")
    assert isinstance(make_voice({"backend": "espeak-ng", "enabled": False}), SilentVoice)
    assert isinstance(make_voice({"backend": "espeak-ng"}), EspeakVoice)


def test_pyttsx3_picks_a_voice_of_the_language_and_plays_on_the_device(tmp_path):
    played = tmp_path / "played.raw"
    voice = Pyttsx3Voice(rate=200, device=f"file:FILE={played}")
    voice.speak("Bonjour la table.", "fr")
    assert "fr" in voice._engine.getProperty("voice")
    assert played.stat().st_size > 22050  # over half a second of 22 kHz 16-bit samples
    voice.close()


def test_every_hardware_message_key_has_a_text_in_both_languages():
    keys = set()
    for path in [*Path(hardware.__file__).parent.rglob("*.py"), Path(speech.__file__)]:
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.Constant) and isinstance(node.value, str) \
                    and re.fullmatch(r"(press|tags|hardware|camera)\.[a-z_]+", node.value) \
                    and node.value != "tags.json":  # the tag map's file name, not a key
                keys.add(node.value)
    assert {"tags.unknown", "hardware.config", "press.cannot_confirm"} <= keys
    for lang in ("fr", "en", "es"):  # same keys in each: tests/engine/test_i18n.py
        texts = load_catalogs([MESSAGES_DIR], lang)
        assert sorted(keys - set(texts)) == [], lang
    assert set(load_catalogs([MESSAGES_DIR], "fr")) == set(load_catalogs([MESSAGES_DIR], "en"))


class Clock:
    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


def line(key: str, version: int = 1, level: str | None = None, **params) -> Line:
    """A Last Bastion line (its warnings are the game's: ``grip.tile``...)."""
    return Line(Message(key, params), level or urgency(key, find_game("last-bastion")), version)


def keys(queue: SpeechQueue) -> list[str]:
    return [waiting.message.key for waiting in queue.waiting()]


def test_identical_lines_are_merged_within_a_few_seconds():
    clock = Clock()
    queue = SpeechQueue(limit=10, merge_seconds=4.0, clock=clock)
    assert queue.put(line("press.cannot_confirm"))
    assert not queue.put(line("press.cannot_confirm"))           # the same line, still waiting
    assert queue.put(line("press.cannot_confirm", expected="x"))  # other words: a new line
    assert queue.get().message.key == "press.cannot_confirm"
    queue.done()
    clock.now += 3.9
    assert not queue.put(line("press.cannot_confirm"))           # just said
    queue.get()
    queue.done()  # another line was said since: the first one is worth saying again
    assert queue.put(line("press.cannot_confirm"))
    assert queue.merged == 2


def test_a_merged_line_takes_the_newer_state():
    queue = SpeechQueue(limit=10)
    queue.put(line("card.drawn", 3, card="incube"))
    queue.put(line("card.drawn", 5, card="incube"))
    assert [w.version for w in queue.waiting()] == [5]


def test_stale_phase_chatter_is_dropped_when_the_game_moves_on():
    queue = SpeechQueue(limit=10)
    queue.moved_on(1)
    queue.put(line("turn.start", 1))
    queue.put(line("card.drawn", 1))
    queue.moved_on(2)
    assert keys(queue) == ["card.drawn"] and queue.dropped == 1  # a result is kept
    assert not queue.put(line("expect.card", 1))                  # already stale when it comes
    assert queue.put(line("expect.card", 2))


def test_warnings_wait_behind_the_line_being_said_at_most():
    queue = SpeechQueue(limit=10)
    for key in ("card.drawn", "turn.start", "fight.won"):
        queue.put(line(key))
    assert queue.get().message.key == "card.drawn"        # being said
    queue.put(line("press.cannot_confirm"))
    queue.put(line("grip.tile"))
    assert keys(queue) == ["press.cannot_confirm", "grip.tile", "turn.start", "fight.won"]


def test_the_queue_is_bounded_chatter_first_then_late_results_warnings_last():
    clock = Clock()
    queue = SpeechQueue(limit=3, patience=1.0, clock=clock)
    queue.put(line("turn.start", 1))
    for n in range(3):
        queue.put(line("card.drawn", 1, card=n))
    assert keys(queue) == ["card.drawn"] * 3 and queue.dropped == 1  # chatter first
    queue.put(line("card.drawn", 1, card=3))  # the voice is only a moment late: all kept
    assert len(queue) == 4
    clock.now += 1.5                          # now it is really behind
    queue.put(line("card.drawn", 1, card=4))
    assert [w.message.params["card"] for w in queue.waiting()] == [2, 3, 4]
    for n in range(14):
        queue.put(line("press.refused", 1, n=n))
    assert len(queue) == 12 and all(w.level == WARNING for w in queue.waiting())  # hard bound
    assert [w.message.params["n"] for w in queue.waiting()][-1] == 13 and queue.dropped == 8


def test_a_voice_a_moment_late_drops_nothing():
    """A table faster than a starved thread for a moment: every result is still said."""
    clock = Clock()
    queue = SpeechQueue(limit=3, patience=1.0, clock=clock)
    for n in range(6):
        queue.put(line("card.drawn", n, card=n))
        clock.now += 0.1
    said = []
    while len(queue):
        said.append(queue.get().message.params["card"])
        queue.done()
    assert said == [0, 1, 2, 3, 4, 5] and queue.dropped == 0


def test_a_burst_of_refused_presses_is_said_once_and_the_state_last(tmp_path):
    """20 presses of next in a second while the game waits for a card: before, 20 identical
    warnings queued (77 s of speech); now the voice says one."""
    from hardware.inputs import Press
    from hardware.table import Table

    gate = threading.Event()
    voice = hwtools.RecordingVoice(gate)
    announcer = Announcer(voice, "en", catalogs=[MESSAGES_DIR]).start()
    session = hwtools.started_game(tmp_path)
    announcer.attach(session)
    table = Table(session, announcer)
    for _ in range(20):
        table.press(Press("next", "next", False))
        time.sleep(0.05)
    gate.set()
    assert announcer.wait_idle()
    table.stop()
    announcer.stop()
    refused = [text for text, _ in voice.lines if "card" in text.lower()]
    assert len(voice.lines) <= 2 and len(refused) == 1, voice.lines
    assert announcer.merged >= 18
