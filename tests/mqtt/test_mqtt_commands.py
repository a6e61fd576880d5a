"""Commands through a real mosquitto guarded by the documented ACL (docs/mosquitto.acl) and the
documented users: each companion logs in as its table's id, Home Assistant as ``ha``, the café
as ``cafe``. The attacks the testers ran: an anonymous reader taking a command off the broker and
sending it again, another table's user commanding this table and overwriting its retained state,
a thousand wrong commands a second; and Home Assistant signing with the script the docs copy."""

from __future__ import annotations

import json
import re
import subprocess
import sys
import time

import pytest
from lastbastion import solo
from mosquitto import Mosquitto, Watcher
from test_mqtt import ACL, ROOT, USERS, configured, state_at

from companion import mqtt
from companion.engine import Session
from companion.mqtt import commands
from companion.mqtt.sign import sign

SECRET = "7b5d0a8e1c4f4e2a9d3b6c1e0f8a2d4c"
TABLE = "companion/table-3"


@pytest.fixture
def guarded(tmp_path):
    server = Mosquitto(tmp_path / "broker", USERS, ACL).start()
    yield server
    server.stop()


@pytest.fixture
def table(tmp_path, guarded):
    """Table 3 on the guarded broker as user table-3, taking commands, in a Last Bastion game
    at the "next" button's reach (a card placed: the choice has a default answer)."""
    session = Session(tmp_path / "data")
    session.submit(solo(hero="elmer"), source="test")
    session.submit({"type": "card", "id": "incube"}, source="test")
    session.submit({"type": "place", "slot": "red.1"}, source="test")
    bridge = mqtt.start(session, configured(tmp_path, guarded.port, username="table-3",
                                            password=USERS["table-3"], command_secret=SECRET))
    watcher = Watcher(guarded.port, ("companion/#",), "ha", USERS["ha"])
    assert watcher.wait(lambda: state_at(watcher, session.version))
    yield session, watcher, bridge
    bridge.stop()
    watcher.close()
    session.close()


def replies(watcher: Watcher) -> list[dict]:
    """Every reply Table 3 published, in order."""
    with watcher._changed:
        return [json.loads(p) for t, p, _ in watcher.messages if t == f"{TABLE}/command/reply"]


def send(watcher: Watcher, body, timeout: float = 10.0) -> dict:
    """Send a command as Home Assistant and wait for its reply."""
    before = len(replies(watcher))
    watcher.publish(f"{TABLE}/command", body)
    assert watcher.wait(lambda: len(replies(watcher)) > before, timeout), f"no reply to {body}"
    return replies(watcher)[before]


def test_the_docs_show_the_acl_file_the_tests_use():
    docs = (ROOT / "docs" / "hardware.md").read_text(encoding="utf-8")
    shown = re.search(r"```\n(# The broker's ACL for table companions.*?)```", docs, re.S)
    assert shown is not None and shown.group(1) == ACL


def test_a_signed_command_is_carried_out_once_and_said_in_both_languages(table):
    session, ha, _ = table
    version = session.version
    command = sign(SECRET, "table-3", "next", command_id="n1")
    done = send(ha, command)
    assert done == {"id": "n1", "command": "next", "ok": True, "event": "answer",
                    "version": version + 1}
    assert session.journal_entries()[-1].event.source == "mqtt"
    again = send(ha, command)                                # read on the broker, sent again
    assert again["ok"] is False and again["error"]["key"] == "mqtt.replayed"
    assert again["error"]["fr"] == "la commande n1 a déjà été reçue : une commande ne sert " \
                                   "qu'une fois"
    assert session.version == version + 1

    undone = send(ha, sign(SECRET, "table-3", "undo"))
    assert undone["ok"] is True and session.expects().kind == "choice"
    early = send(ha, sign(SECRET, "table-3", "undo"))
    assert early["ok"] is True
    refused = send(ha, sign(SECRET, "table-3", "next"))        # a card to draw: no press
    assert refused["ok"] is False and refused["error"]["key"] == "mqtt.cannot_confirm"
    assert refused["error"]["en"].startswith('Nothing to confirm with the "next" command.')


def test_an_anonymous_reader_sees_the_tables_but_never_a_command(table, guarded):
    session, ha, _ = table
    anonymous = Watcher(guarded.port, ("#",))
    other = Watcher(guarded.port, ("#",), "table-4", USERS["table-4"])
    try:
        assert anonymous.wait(lambda: state_at(anonymous, session.version))
        assert send(ha, sign(SECRET, "table-3", "next"))["ok"] is True
        assert anonymous.wait(lambda: state_at(anonymous, session.version))
        time.sleep(0.3)
        for reader in (anonymous, other):
            topics = {t for t, _, _ in reader.messages}
            assert not any("/command" in t for t in topics), topics
        # anonymous cannot send one either: the broker drops it, no reply comes
        anonymous.publish(f"{TABLE}/command", sign(SECRET, "table-3", "undo", command_id="a"))
        assert not ha.wait(lambda: any(r["id"] == "a" for r in replies(ha)), 1.0)
    finally:
        anonymous.close()
        other.close()


def test_another_tables_user_can_neither_command_nor_overwrite_this_table(table, guarded):
    session, ha, _ = table
    version = session.version
    other = Watcher(guarded.port, ("companion/table-4/#",), "table-4", USERS["table-4"])
    try:
        # even a command signed with the right secret: table-4 may not write here
        other.publish(f"{TABLE}/command", sign(SECRET, "table-3", "undo", command_id="t4"))
        forged = {"table": "Table 3", "status": "won", "version": 999}
        other.client.publish(f"{TABLE}/state", json_bytes(forged), qos=1,
                             retain=True).wait_for_publish(5)
        other.client.publish(f"{TABLE}/state/status", b"won", qos=1,
                             retain=True).wait_for_publish(5)
        other.client.publish("homeassistant/sensor/companion_table-3/phase/config", b"{}",
                             qos=1, retain=True).wait_for_publish(5)
        assert not ha.wait(lambda: any(r["id"] == "t4" for r in replies(ha)), 1.0)
        assert session.version == version
        late = Watcher(guarded.port, ("companion/table-3/#", "homeassistant/#"), "ha",
                       USERS["ha"])
        assert late.wait(lambda: state_at(late, version))
        time.sleep(0.3)
        assert late.last_json(f"{TABLE}/state")["status"] == "playing"
        assert late.last(f"{TABLE}/state/status") == b"playing"
        assert late.last_json("homeassistant/sensor/companion_table-3/phase/config")[
            "state_topic"] == f"{TABLE}/state"
        late.close()
        # and its own branch is its own: what it writes there is kept
        other.client.publish("companion/table-4/availability", b"online", qos=1,
                             retain=True).wait_for_publish(5)
        assert other.wait(lambda: other.last("companion/table-4/availability") == b"online")
    finally:
        other.close()


def json_bytes(value) -> bytes:
    return json.dumps(value).encode()


def test_wrong_commands_are_limited_and_old_ones_with_the_secret_refused(table):
    session, ha, bridge = table
    version = session.version
    old = send(ha, {"command": "undo", "secret": SECRET, "id": "old"})
    assert old["error"]["key"] == "mqtt.secret_sent"
    assert "docs/hardware.md" in old["error"]["en"] and "signez-la" in old["error"]["fr"]
    wrong = {**sign("a guess", "table-3", "undo"), "id": "guess"}
    started = time.monotonic()
    for _ in range(1042):
        ha.client.publish(f"{TABLE}/command", json_bytes(wrong), qos=1)
    assert ha.wait(lambda: len(replies(ha)) >= 1043, 120)
    keys = [r["error"]["key"] for r in replies(ha)[1:]]
    assert keys[:4] == ["mqtt.bad_signature"] * 4                 # five wrong: the lock shuts
    assert set(keys[4:]) == {"mqtt.too_many"}
    print(f"1042 wrong commands answered in {time.monotonic() - started:.2f} s; "
          f"{keys.count('mqtt.bad_signature')} signatures checked")
    locked = send(ha, sign(SECRET, "table-3", "next"))            # even a right one waits
    assert locked["error"]["key"] == "mqtt.too_many"
    assert locked["error"]["en"].startswith("too many wrong commands (5 within a minute)")
    assert session.version == version
    later = time.time() + commands.GUESS_PERIOD
    bridge.guard.clock = lambda: later                            # a minute later
    assert send(ha, sign(SECRET, "table-3", "next", at=int(later)))["ok"] is True


def test_home_assistant_signs_with_the_script_copied_from_the_package(table, tmp_path):
    """The docs copy companion/mqtt/sign.py into Home Assistant's /config and run it with its
    Python: here it runs alone, isolated from the companion's packages (``-I``, another
    folder), and what it prints is the command Home Assistant publishes."""
    session, ha, _ = table
    version = session.version
    script = tmp_path / "ha-config" / "companion_sign.py"
    script.parent.mkdir()
    script.write_bytes((ROOT / "companion" / "mqtt" / "sign.py").read_bytes())
    secret = script.parent / "companion-table-3.secret"
    secret.write_text(SECRET + "\n")
    printed = subprocess.run(
        [sys.executable, "-I", str(script), "--secret-file", str(secret), "table-3", "next"],
        cwd=script.parent, capture_output=True, text=True, check=True).stdout
    assert SECRET not in printed
    done = send(ha, printed.strip())
    assert done["ok"] is True and session.version == version + 1


def test_the_guard_takes_its_own_table_within_the_window_once():
    now = [1_800_000_000.0]
    guard = commands.Guard(SECRET, "table-3", clock=lambda: now[0])

    def refused(command) -> str:
        with pytest.raises(commands.Refused) as error:
            guard.check(command)
        return error.value.message.key

    at = int(now[0])
    assert guard.check(sign(SECRET, "table-3", "next", at=at, command_id="x")) == "next"
    assert refused(sign(SECRET, "table-4", "next", at=at, command_id="y")) == \
        "mqtt.bad_signature"                           # signed for another table
    assert refused(sign(SECRET, "table-3", "next", at=at - 31, command_id="z")) == "mqtt.stale"
    assert refused(sign(SECRET, "table-3", "next", at=at + 31, command_id="z")) == "mqtt.stale"
    tampered = {**sign(SECRET, "table-3", "next", at=at, command_id="w"), "command": "undo"}
    assert refused(tampered) == "mqtt.bad_signature"
    assert refused({"command": "next", "at": float(at), "id": "v", "mac": "0"}) == \
        "mqtt.unsigned"
    assert refused(None) == "mqtt.not_json"
    assert refused(sign(SECRET, "table-3", "next", at=at, command_id="x")) == "mqtt.replayed"
    assert refused({"command": "next", "secret": SECRET}) == "mqtt.secret_sent"  # 5th wrong
    assert refused(sign(SECRET, "table-3", "next", at=at, command_id="u")) == "mqtt.too_many"
    now[0] += commands.GUESS_PERIOD + commands.WINDOW + 1   # the lock and the window are past
    assert guard.check(sign(SECRET, "table-3", "undo", at=int(now[0]), command_id="x")) == \
        "undo"                                         # an old id may come back once forgotten
