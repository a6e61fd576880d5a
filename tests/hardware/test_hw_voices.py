"""Sound that is heard: the voice plays on the configured ALSA device (ALSA's ``file`` device
stands for a sound card here: aplay and alsa-lib really write the samples), and a missing player
or device is a loud failure with its fix, never an announcement that returns as if spoken."""

import logging
import os
from pathlib import Path

import hwtools
import pytest

from companion import config as settings
from companion.engine import Message
from companion.speech import Announcer
from companion.voices import DEVICE, PLAYER, EspeakVoice, SilentVoice, VoiceError, make_voice
from hardware import MESSAGES_DIR, doctor


@pytest.fixture
def no_aplay(tmp_path, monkeypatch):
    """A PATH with espeak-ng but without aplay (Raspberry Pi OS Lite before alsa-utils)."""
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    (bin_dir / "espeak-ng").symlink_to("/usr/bin/espeak-ng")
    monkeypatch.setenv("PATH", str(bin_dir))


def speech_config(tmp_path: Path, **speech: str) -> settings.Config:
    conf = tmp_path / "speech.toml"
    conf.write_text("[speech]\n" + "".join(f'{k} = "{v}"\n' for k, v in speech.items()))
    return settings.load([conf])


@pytest.mark.parametrize("lang", ["en", "fr"])
def test_espeak_streams_to_the_configured_device(tmp_path, lang):
    played = tmp_path / "played.raw"
    voice = EspeakVoice(rate=200, device=f"file:FILE={played}")
    voice.speak("The dice are red, white and yellow." if lang == "en"
                else "Les dés sont rouge, blanc et jaune.", lang)
    seconds = played.stat().st_size / (22050 * 2)  # espeak-ng: 22050 Hz, 16-bit mono
    assert 1.0 < seconds < 4.0


def test_without_aplay_doctor_fails_with_the_fix_and_nothing_pretends_to_speak(
        tmp_path, no_aplay, caplog):
    for backend in ("espeak-ng", "pyttsx3"):
        check = doctor.check_speech(speech_config(tmp_path, backend=backend))
        assert check.ok is False and "aplay is not installed" in check.detail
        assert check.fix.startswith("sudo apt install alsa-utils")
    with pytest.raises(VoiceError) as raised:
        EspeakVoice()
    assert raised.value.missing == PLAYER
    with caplog.at_level(logging.ERROR):
        assert isinstance(make_voice({"backend": "espeak-ng"}), SilentVoice)
    assert "aplay is not installed" in caplog.text and "companion doctor" in caplog.text


def test_a_missing_sound_device_fails_loudly(tmp_path, caplog):
    check = doctor.check_speech(speech_config(tmp_path, device="hw:CARD=NoSuchCard"))
    assert check.ok is False and "cannot play on hw:CARD=NoSuchCard" in check.detail
    assert "aplay -L" in check.fix and "[speech] device" in check.fix
    voice = EspeakVoice(device="hw:CARD=NoSuchCard")
    with pytest.raises(VoiceError) as raised:
        voice.speak("Hello.", "en")
    assert raised.value.missing == DEVICE
    announcer = Announcer(voice, "en", catalogs=[MESSAGES_DIR]).start()
    with caplog.at_level(logging.ERROR):
        for uid in ("04A1", "04A2", "04A3"):
            announcer.say(Message("tags.unknown", {"uid": uid}))
            assert announcer.wait_idle()
    announcer.stop()
    assert "NoSuchCard" in announcer.failure
    assert caplog.text.count("speech failed") == 1  # once, not on every line


@pytest.mark.parametrize("lang", ["en", "fr"])
def test_doctor_says_the_test_phrase_on_the_device(tmp_path, lang):
    played = tmp_path / "played.raw"
    conf = tmp_path / "c.toml"
    conf.write_text(f'[general]\nlanguage = "{lang}"\n[speech]\ndevice = "file:FILE={played}"\n')
    check = doctor.check_speech(settings.load([conf]))
    assert check.ok is True and played.stat().st_size > 22050
    assert f"file:FILE={played}" in check.detail


def test_the_default_engine_is_espeak_ng_and_silent_stays_silent(tmp_path):
    assert settings.DEFAULTS["speech"]["backend"] == "espeak-ng"
    assert doctor.check_speech(speech_config(tmp_path, backend="silent")).ok is None
    assert os.access("/usr/bin/aplay", os.X_OK), "aplay: apt-get install alsa-utils (.ci/run)"
    assert hwtools  # the repository first on sys.path


def test_a_silent_voice_is_a_problem_on_the_host_page_until_it_speaks_again(tmp_path):
    import hardware.build

    class Flaky:
        """A voice whose sound device goes and comes back."""

        def __init__(self) -> None:
            self.broken = True

        def speak(self, text: str, lang: str) -> None:
            if self.broken:
                raise VoiceError(DEVICE, "aplay cannot play on hw:1: No such file or directory")

        def close(self) -> None:
            pass

    voice = Flaky()
    announcer = Announcer(voice, "en", catalogs=[MESSAGES_DIR]).start()
    session = hwtools.started_game(tmp_path / "data")
    conf = tmp_path / "c.toml"
    conf.write_text('[general]\npin_factory = "mock"\n')
    table = hardware.build.start(session, settings.load([conf]), announcer, simulate=True)
    try:
        announcer.say(Message("press.game_over"))
        assert announcer.wait_idle()
        assert table.status.snapshot("en")["problems"] == {
            "Voice": "silent (aplay cannot play on hw:1: No such file or directory)"}
        voice.broken = False
        announcer.say(Message("tags.unknown", {"uid": "04A1"}))
        assert announcer.wait_idle()
        assert table.status.problems == {}
    finally:
        table.stop()
        announcer.stop()
