"""The temporary files a killed writer leaves are swept wherever they lie in the companion's
folders of the data directory (issue 40, item 10: the sweep once looked only at the top and one
folder down, and not for every temporary name the companion writes); a folder the companion
does not write in is left alone."""

from __future__ import annotations

from companion.engine import Session


def test_temporary_files_are_swept_at_every_depth(tmp_path):
    data = tmp_path / "data"
    Session(data).close()
    left = [data / "web" / ".host-sessions.json.tmp",  # the previous version's host files
            data / "web" / ".tmp-123-host-sessions.json",
            data / "vision" / ".d6-abc123.tmp",  # a taught die profile
            data / "vision" / "examples" / "d6" / "face-1" / ".tmp-x1y2.jpg"]  # its pictures
    kept = [data / "vision" / "examples" / "d6" / "face-1" / "1700000000-00.jpg",
            data / "vision" / "d6.json",
            data / "notes" / "draft.tmp"]  # a folder of the owner's, not the companion's
    for path in left + kept:
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(b"half")
    Session(data, readonly=True).close()
    assert all(p.exists() for p in left), "a reader writes nothing"
    Session(data).close()
    assert [p for p in left if p.exists()] == []
    assert all(p.exists() for p in kept)
