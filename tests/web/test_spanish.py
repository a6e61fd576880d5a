"""A Last Bastion turn played on the page in Spanish, and heard in Spanish (issue 44, must show).

`companion run` is configured in Spanish (``[general] language = "es"``) with espeak-ng writing
what it says to WAV files (``[speech] wav_dir``). The host sets a game up and plays its first
turn from a phone opened on ``?lang=es``: the page shows the Spanish edition's words, no word of
the English or French catalogs of the page, the engine or the game, and its screenshot is
written to the test's folder (printed). Each announcement the table made is then a Spanish
sentence of the catalog, and its WAV is what espeak-ng's Spanish voice makes of it, not its
English or French voice.
"""

from __future__ import annotations

import subprocess
import time
import wave
from pathlib import Path

from test_e2e import PIN, Server, at_version, become_host, browser, expect, phone, settled  # noqa: F401
from walktools import PAGE_TEXTS, foreign_words, language_names, printed_names, word_findings

from web.auth import PinStore

RATE = 240
"""Words a minute: fast, the sentences are short to make."""


def espeak_frames(text: str, voice: str) -> bytes:
    """The samples espeak-ng makes of ``text`` with ``voice``, as the companion's voice calls it
    (full volume, ``RATE``; its 44-byte WAV header left out)."""
    wav = subprocess.run(["espeak-ng", "-v", voice, "-s", str(RATE), "-a", "200", "--stdout",
                          "--", text], capture_output=True, check=True).stdout
    return wav[44:]


def said_lines(folder: Path, wanted: str, timeout: float = 30.0) -> list[tuple[str, Path]]:
    """The sentences the table has said so far (``0001.txt`` beside ``0001.wav``), once one of
    them starts with ``wanted`` (the voice speaks behind the game, on its own thread)."""
    deadline = time.monotonic() + timeout
    while True:
        lines = [(p.read_text(encoding="utf-8"), p.with_suffix(".wav"))
                 for p in sorted(folder.glob("*.txt"))]
        if any(text.startswith(wanted) for text, _ in lines) or time.monotonic() > deadline:
            return lines
        time.sleep(0.1)


def test_a_last_bastion_turn_in_spanish_on_the_page_and_in_the_voice(browser, tmp_path):  # noqa: F811
    said = tmp_path / "said"
    config = tmp_path / "config.toml"
    config.write_text(f'[general]\nlanguage = "es"\n[speech]\nbackend = "espeak-ng"\n'
                      f'rate = {RATE}\nwav_dir = "{said}"\n', encoding="utf-8")
    PinStore(tmp_path / "data").set(PIN)  # the login form, not the first run's code
    server = Server(tmp_path / "data", config=config)
    try:
        host = phone(browser, server.url + "?lang=es")
        become_host(host)
        expect(host.locator("#history-link")).to_have_text("Historial")
        version = 0

        def act(selector: str) -> None:
            nonlocal version
            host.click(selector)
            version = settled(server.url, version)
            at_version(host, version)

        host.select_option("select[name=p0-hero]", "teagaan")  # played by Gary, the default
        act("form[data-form=setup] button")
        expect(host.locator("#headline")).to_contain_text("Ronda 1", timeout=5000)
        expect(host.locator("#awaited")).to_have_text("Roba una carta de la Horda.")
        act("button[data-act=draw]")
        while (kind := host.evaluate("app.pic.view.expects.kind")) != "action":
            assert kind in ("choice", "card")
            act({"card": "button[data-act=draw]"}.get(kind) or
                "button[data-act=place], button[data-act=answer-none]")
        host.click("button[data-act=mode-move]")
        act('[data-tile="0,1"]')
        expect(host.locator(".tile").first).to_be_visible()
        shot = tmp_path / "last-bastion-es.png"
        host.screenshot(path=str(shot), full_page=True)
        print(f"the Spanish page: {shot}")
        found = word_findings(host.evaluate(PAGE_TEXTS), "es", set(),
                              foreign_words("last-bastion")["es"],
                              printed_names("last-bastion") | language_names())
        assert not found, found
        act("button[data-act=end_turn]")
        assert not host.errors
        lines = said_lines(said, "Fase de héroe")
    finally:
        server.stop()
    texts = [text for text, _ in lines]
    assert any(t.startswith("Nueva partida, nivel Normal, 1 jugador") for t in texts), texts
    assert any(t.startswith("Turno de Gary: fase de la Horda del tablero") for t in texts), texts
    assert any(t.startswith("Fase de héroe de Gary") for t in texts), texts
    for text, path in lines:
        with wave.open(str(path)) as heard:
            frames = heard.readframes(heard.getnframes())
        assert frames == espeak_frames(text, "es"), f"{path.name} is not Spanish espeak: {text}"
        assert frames not in (espeak_frames(text, "en"), espeak_frames(text, "fr")), text
