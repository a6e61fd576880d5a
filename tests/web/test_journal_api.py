"""The page and the journal (issue 12, defect 2): a ``teach`` committed while writing its
definitions file fails is acknowledged (200, the new version, on the stream and in
``/api/state``), never a 500; a disk that cannot take a write refuses the event before it is
written, with a sentence in the page's language."""

from __future__ import annotations

import errno

from companion.engine import DefinitionStore

TEACH = {"type": "teach", "kind": "card", "id": "goule",
         "definition": {"name": "Goule", "type": "monster", "colour": "black", "resistance": 2}}


def disk_full(*args, **kwargs):
    """What a write on a full disk raises."""
    raise OSError(errno.ENOSPC, "No space left on device")


def test_a_committed_teach_whose_file_write_fails_is_acknowledged(app, playing, session,
                                                                   monkeypatch):
    hub = app.extensions["companion"].hub
    client, first = hub.connect()
    monkeypatch.setattr(DefinitionStore, "_write", disk_full)
    reply = playing.send(TEACH)
    assert reply.status_code == 200, reply.json
    assert reply.json["version"] == 2
    state = playing.client.get("/api/state").json
    assert state["version"] == 2
    frame = client.next(1.0)
    assert frame and b"id: 2" in frame, "the stream carries the committed version"
    hub.disconnect(client)
    monkeypatch.undo()
    assert session.sync_definitions() and "goule" in session.owner_definitions(
        "last-bastion")["card"]


def test_a_full_disk_is_refused_before_the_event_is_written(playing, session, monkeypatch):
    from companion.engine import files  # new with issue 12

    monkeypatch.setattr(files, "MIN_FREE_BYTES", 1 << 62)
    reply = playing.send(TEACH)
    assert reply.status_code == 507
    assert reply.json["error"] == "store.full" and "nothing was written" in reply.json["message"]
    french = playing.post("/api/events", {"event": TEACH}, headers={"Accept-Language": "fr"})
    assert french.status_code == 507 and "rien n'a été écrit" in french.json["message"]
    assert session.version == 1 and len(session.journal_entries()) == 1
