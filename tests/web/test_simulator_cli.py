"""The simulated table (seeded, same path as sensors), its keyboard, and the run/pin commands."""

from __future__ import annotations

import argparse
import io
import os
import signal
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

from demos import demo
from webtools import setup_event

from companion.app import add_run_parser
from companion.cli import main
from companion.engine import RuleError, Session
from companion.simulator import KeyboardTable, Simulator
from web.auth import PinStore
from web.cli import add_pin_parser

ROOT = Path(__file__).resolve().parents[2]


def settle(session: Session) -> None:
    """Place the drawn card on its first legal slot and answer printed effects with nothing."""
    while session.expects().kind == "choice":
        expects = session.expects()
        if "place" in expects.events:
            session.submit({"type": "place", "slot": expects.options[0]})
        else:
            session.submit({"type": "answer"})


def play_simulated(data_dir: Path, seed: int) -> list[dict]:
    """Draw and fight with the simulated table; return the events it submitted."""
    session = Session(data_dir)
    session.submit(setup_event(hero="kazgin"))
    table = Simulator(session, seed)
    events = [table.draw()[0].to_json()]
    settle(session)
    session.submit({"type": "move", "hero": "kazgin", "to": [0, 0]})
    session.submit({"type": "activate", "tile": "market"})
    events.append(table.roll()[0][0].to_json())
    session.close()
    return events


def test_same_seed_same_table(tmp_path):
    first = play_simulated(tmp_path / "a", seed=11)
    assert first == play_simulated(tmp_path / "b", seed=11)
    assert all(e["source"] == "simulator" for e in first)
    assert first[1]["type"] == "dice" and len(first[1]["faces"]) == 2


def test_draw_invents_a_card_when_none_is_known(session):
    session.submit(setup_event())
    table = Simulator(session, 1)
    ids = []
    for _ in range(3):
        ids.append(table.draw()[0].fields["id"])
        while session.expects().kind != "card":
            settle(session)
            if session.expects().kind == "action":
                session.submit({"type": "end_turn"})
    assert len(set(ids)) == 3


def test_one_simulated_roll_is_every_heros_throw_in_attack_on_titan(tmp_path):
    """«Les joueurs Héros lancent une première fois tous leurs dés, simultanément»
    (attack-on-titan-last-stand.fr.txt, 2. Les Héros lancent leurs dés): the simulated Roll,
    like the camera over the tray, fills each hero's roll, each hero's dice of their colour."""
    session = Session(tmp_path / "data")
    for event in demo("aot-last-stand")[:3]:
        session.submit(event)
    session.submit({"type": "commit", "up": "frenesie", "down": "basic-3"})
    colours = [t.blank.colour for t in session.expects().rolled()]
    assert colours == [h["colour"] for h in session.state["heroes"].values()]
    assert len(set(colours)) == 3
    done = Simulator(session, 3).roll()
    rolls = [e.event for e in session.journal_entries() if e.event.type == "roll"]
    assert [event.fields for event, _ in done] == [event.fields for event in rolls]
    assert [(r.fields["hero"], len(r.fields["faces"]), r.source) for r in rolls] == [
        ("eren", 5, "simulator"), ("mikasa", 5, "simulator"), ("armin", 5, "simulator")]
    assert all(h["rolled"] for h in session.state["heroes"].values())
    session.close()


def test_simulator_refuses_what_is_not_awaited(session):
    session.submit(setup_event())
    try:
        Simulator(session).roll()
    except RuleError as error:
        assert error.key == "event.not_expected"
        assert error.params == {"event": "dice", "expected": ["card"]}
    else:
        raise AssertionError("a roll was accepted while a card is awaited")


def test_keyboard_keys_drive_the_table(session):
    session.submit(setup_event())
    said = []
    keys = KeyboardTable(Simulator(session, 3), said.append, stream=io.StringIO())
    assert not keys.start(), "no keyboard thread without a terminal"
    keys.press("d")
    assert session.history()[-1].event.source == "simulator"
    keys.press("r")
    assert said[-1].key == "event.not_expected"
    version = session.version
    keys.press("u")
    assert session.version == version + 1 and len(session.history()) == 1
    keys.press("x")


def test_parsers_are_registered():
    parser = argparse.ArgumentParser()
    sub = parser.add_subparsers(dest="command")
    add_run_parser(sub)
    add_pin_parser(sub)
    args = parser.parse_args(["run", "--simulate", "--port", "0", "--lang", "fr"])
    assert args.simulate and args.port == 0 and args.lang == "fr" and args.host == "0.0.0.0"
    assert parser.parse_args(["pin"]).command == "pin"


def test_pin_command_reads_twice_and_stores_a_hash(tmp_path, monkeypatch, capsys):
    monkeypatch.setattr(sys, "stdin", io.StringIO("24680\n24680\n"))
    assert main(["pin", "--data-dir", str(tmp_path)]) == 0
    assert PinStore(tmp_path).verify("24680") and "24680" not in capsys.readouterr().out
    monkeypatch.setattr(sys, "stdin", io.StringIO("1111\n2222\n"))
    assert main(["pin", "--data-dir", str(tmp_path)]) == 2
    assert PinStore(tmp_path).verify("24680")


def test_run_serves_resumes_and_stops_on_sigterm(tmp_path):
    data = tmp_path / "data"
    session = Session(data)
    session.submit(setup_event())
    session.close()
    process = subprocess.Popen(
        [sys.executable, "-m", "companion", "run", "--simulate", "--host", "127.0.0.1",
         "--port", "0", "--data-dir", str(data)], cwd=ROOT, stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT, text=True, env={**os.environ, "PYTHONUNBUFFERED": "1",
                 "COMPANION_CONFIG": str(Path(__file__).with_name("silent.toml"))})
    try:
        url = process.stdout.readline().split()[-1]
        assert url.startswith("http://127.0.0.1:")
        with urllib.request.urlopen(url + "api/state", timeout=5) as reply:
            assert b'"version":1' in reply.read()
        time.sleep(0.2)
        process.send_signal(signal.SIGTERM)
        process.wait(timeout=10)
        out = process.stdout.read()  # through the buffer readline() may have filled
    finally:
        if process.poll() is None:
            process.kill()
    assert process.returncode == 0
    assert "Resuming game 1 at version 1." in out and out.rstrip().endswith("Stopped.")
