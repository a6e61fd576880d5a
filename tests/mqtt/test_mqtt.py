"""MQTT against a real mosquitto broker started by the test on a free loopback port: the topic
tree, Home Assistant discovery, the retained state after the broker comes back (with what
happened while it was away); commands and the documented ACL are in test_mqtt_commands.py."""

from __future__ import annotations

import json
import sys
import time
from pathlib import Path

import pytest

GAMES = Path(__file__).resolve().parents[1] / "games"
sys.path[:0] = [str(GAMES / "aot_last_stand"), str(GAMES / "last_heroes")]

import aot_helpers  # noqa: E402
import lastheroes_helpers  # noqa: E402
from lastbastion import solo  # noqa: E402
from mosquitto import Mosquitto, Watcher  # noqa: E402

from companion import config as settings  # noqa: E402
from companion import mqtt  # noqa: E402
from companion.engine import Session  # noqa: E402
from companion.mqtt.summary import summary  # noqa: E402

ROOT = Path(__file__).resolve().parents[2]
#: The documented ACL (docs/hardware.md shows this file): each companion writes the branch of
#: its own user (the table's id); Home Assistant (user ha) may also write the command topics.
ACL = (ROOT / "docs" / "mosquitto.acl").read_text(encoding="utf-8")
USERS = {"table-3": "pw-table-3", "table-4": "pw-table-4", "ha": "pw-ha", "cafe": "pw-cafe"}


def configured(tmp_path: Path, port: int, **mqtt_settings) -> settings.Config:
    """A config naming the broker and the table, with quick reconnections."""
    lines = ["[table]", 'name = "Table 3"', "[mqtt]", 'host = "127.0.0.1"', f"port = {port}",
             "reconnect_min = 0.1", "reconnect_max = 0.5"]
    lines += [f"{key} = {json.dumps(value)}" for key, value in mqtt_settings.items()]
    path = tmp_path / "config.toml"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    config = settings.load([path])
    assert config.problems == []
    return config


@pytest.fixture
def broker(tmp_path):
    server = Mosquitto(tmp_path / "broker").start()
    yield server
    server.stop()


@pytest.fixture
def game(tmp_path):
    session = Session(tmp_path / "data")
    session.submit(solo(hero="elmer"), source="test")
    yield session
    session.close()


def state_at(watcher: Watcher, version: int) -> bool:
    state = watcher.last_json("companion/table-3/state")
    return state is not None and state["version"] == version


def test_the_topic_tree_and_home_assistant_discovery(tmp_path, broker, game):
    watcher = Watcher(broker.port)
    bridge = mqtt.start(game, configured(tmp_path, broker.port))
    try:
        assert watcher.wait(lambda: state_at(watcher, game.version))
        assert watcher.last("companion/table-3/availability") == b"online"
        state = watcher.last_json("companion/table-3/state")
        assert {k: state[k] for k in ("table", "game", "status", "phase", "round", "active",
                                      "expects")} == {
            "table": "Table 3", "game": "last-bastion", "status": "playing", "phase": "horde",
            "round": 1, "active": "elmer", "expects": "card"}
        assert state["counts"]["deck_remaining"] == 35 and state["scores"] == {"score": 5}
        assert state["waiting_fr"] and state["waiting_en"] and state["waiting_fr"] != \
            state["waiting_en"]
        assert watcher.last("companion/table-3/state/phase") == b"horde"

        game.submit({"type": "card", "id": "incube"}, source="test")
        assert watcher.wait(lambda: state_at(watcher, game.version))
        event = watcher.last_json("companion/table-3/event")
        assert event["type"] == "card" and event["source"] == "test" and "id" not in event
        assert "Incube" in event["label"]["en"] and "Incube" in event["label"]["fr"]
        assert event["seq"] == game.version and event["at"] == \
            watcher.last_json("companion/table-3/state")["at"]
        assert watcher.last_json("companion/table-3/state")["counts"]["deck_remaining"] == 34

        phase = watcher.last_json("homeassistant/sensor/companion_table-3/phase/config")
        assert phase["state_topic"] == "companion/table-3/state"
        assert phase["value_template"] == "{{ value_json.phase }}"
        assert phase["availability_topic"] == "companion/table-3/availability"
        assert phase["device"]["identifiers"] == ["companion_table-3"]
        deck = watcher.last_json(
            "homeassistant/sensor/companion_table-3/counts_deck_remaining/config")
        assert deck["value_template"] == "{{ value_json.counts['deck_remaining'] }}"
        assert deck["state_class"] == "measurement"
    finally:
        bridge.stop()
        watcher.close()
    late = Watcher(broker.port)                       # a client that comes later: retained only
    assert late.wait(lambda: late.last("companion/table-3/availability") == b"offline")
    assert late.wait(lambda: state_at(late, game.version))
    assert late.last("companion/table-3/event") is None   # events are not retained
    late.close()


def test_the_state_after_the_broker_comes_back_holds_what_happened_meanwhile(
        tmp_path, broker, game):
    bridge = mqtt.start(game, configured(tmp_path, broker.port))
    watcher = Watcher(broker.port)
    try:
        assert watcher.wait(lambda: state_at(watcher, game.version))
        watcher.close()
        broker.stop()                                  # its retained messages go with it
        deadline = time.monotonic() + 5
        while bridge.connected and time.monotonic() < deadline:
            time.sleep(0.01)
        assert not bridge.connected
        game.submit({"type": "card", "id": "incube"}, source="test")
        game.submit({"type": "place", "slot": "red.1"}, source="test")
        broker.start()                                 # same port, empty
        watcher = Watcher(broker.port)
        assert watcher.wait(lambda: state_at(watcher, game.version), 15)
        state = watcher.last_json("companion/table-3/state")
        assert state["counts"]["deck_remaining"] == 34 and state["expects"] == "choice"
        assert watcher.last("companion/table-3/availability") == b"online"
        assert watcher.last_json(
            "homeassistant/sensor/companion_table-3/phase/config") is not None
    finally:
        bridge.stop()
        watcher.close()


@pytest.fixture
def guarded(tmp_path):
    server = Mosquitto(tmp_path / "broker", USERS, ACL).start()
    yield server
    server.stop()


def test_a_wrong_password_is_refused_by_the_broker(tmp_path, guarded):
    import paho.mqtt.client as paho

    answers = []
    client = paho.Client(paho.CallbackAPIVersion.VERSION2)
    client.username_pw_set("ha", "not-it")
    client.on_connect = lambda c, u, f, reason, p: answers.append(reason)
    client.connect("127.0.0.1", guarded.port)
    client.loop_start()
    try:
        deadline = time.monotonic() + 5
        while not answers and time.monotonic() < deadline:
            time.sleep(0.01)
        assert answers and answers[0].is_failure and "authori" in str(answers[0]).lower()
    finally:
        client.loop_stop()


def test_no_secret_means_no_commands(tmp_path, broker, game):
    bridge = mqtt.start(game, configured(tmp_path, broker.port))
    watcher = Watcher(broker.port)
    try:
        assert watcher.wait(lambda: state_at(watcher, game.version))
        watcher.publish("companion/table-3/command", {"command": "undo", "secret": ""})
        assert not watcher.wait(lambda: watcher.last("companion/table-3/command/reply"), 1.0)
        assert game.version == 1
    finally:
        bridge.stop()
        watcher.close()


def test_mqtt_off_without_a_host_and_a_clear_error_for_a_bad_table_name(tmp_path, game):
    assert mqtt.start(game, settings.load([])) is None
    path = tmp_path / "c.toml"
    path.write_text('[table]\nname = "!!!"\n[mqtt]\nhost = "127.0.0.1"\n', encoding="utf-8")
    with pytest.raises(mqtt.Unavailable) as refused:
        mqtt.start(game, settings.load([path]))
    assert refused.value.message.key == "mqtt.bad_table"


def test_the_summary_reads_every_game_without_naming_one(tmp_path):
    heroes = lastheroes_helpers.open_session(tmp_path / "lh")
    heroes.submit(lastheroes_helpers.setup_event())
    found = summary(heroes)
    assert found["game"] == "last-heroes" and found["phase"] == "charger"
    assert found["counts"] == {"piles_1": 12, "piles_2": 9, "piles_3": 6}
    assert found["scores"] == {"score_blind": 0, "score_echo": 0, "score_ace": 0}
    titans = Session(tmp_path / "aot")
    titans.submit(aot_helpers.setup_event())
    found = summary(titans)
    assert found["game"] == "aot-last-stand" and found["round"] == 1
    assert found["expects"] == "action" and found["waiting_en"]
    empty = summary(Session(tmp_path / "none"))
    assert empty["game"] is None and empty["expects"] == "setup" and empty["at"] is None


def test_companion_config_never_prints_the_secrets(tmp_path):
    config = configured(tmp_path, 1883, password="hunter2", command_secret="s3cret-table")
    described = "\n".join(config.describe())
    assert "hunter2" not in described and "s3cret-table" not in described
    assert 'password = (set)' in described and 'command_secret = (set)' in described
    assert 'username = ""' in described


def test_doctor_says_whether_the_broker_takes_the_companion(tmp_path, guarded):
    from hardware import doctor

    good = configured(tmp_path, guarded.port, username="table-3", password=USERS["table-3"])
    check = doctor.check_mqtt(good)
    assert check.ok is True and check.detail == f"{guarded.address} takes the companion (user " \
                                                "table-3)"
    bad = doctor.check_mqtt(configured(tmp_path, guarded.port, username="table-3",
                                       password="wrong"))
    assert bad.ok is False and bad.detail.startswith(f"{guarded.address}: Not authorized")
    assert "mosquitto_sub" in bad.fix and "mosquitto_sub" in bad.text("fr")["fix"]
    guarded.stop()
    down = doctor.check_mqtt(good)
    assert down.ok is False and "refused" in down.detail.lower()
    assert doctor.check_mqtt(settings.load([])).ok is None
