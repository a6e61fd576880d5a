"""Sound that is heard: the voice plays on the configured ALSA device (ALSA's ``file`` device
stands for a sound card here: aplay and alsa-lib really write the samples), and a missing player
or device is a loud failure with its fix, never an announcement that returns as if spoken."""

import logging
import math
import os
import sys
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


@pytest.mark.parametrize("lang", ["en", "fr", "es"])
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


STAND_IN_PIPER = """#!{python}
# piper's command line, standing in for it (no voice model is downloaded in the tests): it logs
# its arguments and answers the text on stdin with 400 raw 16-bit samples a character.
import math, sys
open({log!r}, "a").write(" ".join(sys.argv[1:]) + "\\n")
text = sys.stdin.read().strip()
samples = len(text) * 400
sys.stdout.buffer.write(b"".join(int(8000 * math.sin(i / 5)).to_bytes(2, "little", signed=True)
                                 for i in range(samples)))
"""


def test_piper_streams_raw_samples_at_the_models_rate_to_the_device(tmp_path, monkeypatch):
    bin_dir, log = tmp_path / "bin", tmp_path / "piper.log"
    bin_dir.mkdir()
    piper = bin_dir / "piper"
    piper.write_text(STAND_IN_PIPER.format(python=sys.executable, log=str(log)))
    piper.chmod(0o755)
    monkeypatch.setenv("PATH", f"{bin_dir}:{os.environ['PATH']}")
    model = tmp_path / "fr_FR-siwis-medium.onnx"
    played = tmp_path / "played.raw"
    conf = f'backend = "piper"\nvoice = "{model}"\nrate = 200\ndevice = "file:FILE={played}"\n'
    config = tmp_path / "c.toml"
    config.write_text("[general]\nlanguage = \"fr\"\n[speech]\n" + conf)
    check = doctor.check_speech(settings.load([config]))  # no model: the fix says what to get
    assert check.ok is False and ".onnx.json" in check.detail and "piper-tts" in check.fix
    Path(f"{model}.json").write_text('{"audio": {"sample_rate": 22050}}')
    check = doctor.check_speech(settings.load([config]))
    assert check.ok is True, check.detail
    phrase = "Le compagnon de table sait parler."
    sent = b"".join(int(8000 * math.sin(i / 5)).to_bytes(2, "little", signed=True)
                    for i in range(400 * len(phrase)))
    device = played.read_bytes()  # every sample reached the device (aplay pads a last period)
    assert device[:len(sent)] == sent and set(device[len(sent):]) <= {0}
    assert log.read_text() == f"--model {model} --output-raw --length_scale 0.800\n"
