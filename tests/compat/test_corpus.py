"""The compatibility corpus (issue 40; docs/events.md, «Event formats»): every game's recorded
files and journals of each event format, each with the final view the companion of its time
printed (``tests/compat/format-N/``, made by ``record.py``). Each replays to the same
bookkeeping forever after: ``companion replay`` of the file, and a companion resuming its
journal. The bookkeeping is the whole recorded view (scores, Life, positions, status, ...) but
what is not a count of the game: what the table may send next (``expects``), the questions
waiting (``prompts``), the advice to the table (``warnings``: how to teach what is missing, in
the words of each version; the counts they name are the view's own, such as Attack on Titan's
``health``) and the journal's position (``version``); what a later view adds is allowed."""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import Any

import pytest
from clitools import companion

from companion.boxfile import export_box
from companion.engine import Session
from companion.engine.events import FORMAT
from companion.engine.game import installed_games
from companion.engine.journal import SCHEMA_VERSION, Journal

CORPUS = Path(__file__).resolve().parent
FILES = sorted(CORPUS.glob("format-*/*.jsonl"))
JOURNALS = [file.with_suffix("") for file in FILES if file.with_suffix("").is_dir()]
NOT_BOOKKEEPING = frozenset({"expects", "prompts", "version", "warnings"})


def name(path: Path) -> str:
    return f"{path.parent.name}/{path.name}"


def recorded_view(path: Path) -> dict[str, Any]:
    """The final view the companion of its time printed for a file or its journal."""
    return json.loads(path.with_suffix(".view.json").read_text("utf-8"))


def differences(recorded: Any, now: Any, where: str = "") -> list[str]:
    """Where ``now`` keeps other books than ``recorded`` (a key it adds is no difference)."""
    if isinstance(recorded, dict) and isinstance(now, dict):
        return [problem for key, value in recorded.items()
                if not (where == "" and key in NOT_BOOKKEEPING)
                for problem in (differences(value, now[key], f"{where}.{key}") if key in now
                                else [f"{where}.{key} is gone"])]
    if isinstance(recorded, list) and isinstance(now, list) and len(recorded) == len(now):
        return [problem for i, (old, new) in enumerate(zip(recorded, now, strict=True))
                for problem in differences(old, new, f"{where}[{i}]")]
    return [] if recorded == now else [f"{where}: {recorded!r} then, {now!r} now"]


def test_the_books_are_compared_field_by_field():
    """The comparison itself finds a changed score, a lost key and a changed list."""
    then = {"status": "won", "heroes": {"a": {"life": 3}}, "faces": [1, 2], "version": 4}
    assert differences(then, {**then, "version": 9, "extra": 1}) == []
    assert differences(then, {**then, "heroes": {"a": {"life": 2}}}) == [
        ".heroes.a.life: 3 then, 2 now"]
    assert differences(then, {"heroes": {"a": {"life": 3}}, "faces": [1]}) == [
        ".status is gone", ".faces: [1, 2] then, [1] now"]


@pytest.mark.parametrize("recorded", FILES, ids=name)
def test_companion_replay_gives_the_recorded_view(recorded, tmp_path):
    done = companion("replay", str(recorded), "--json", "--lang", "en",
                     "--data-dir", str(tmp_path / "data"))
    assert done.returncode == 0, done.stderr
    assert differences(recorded_view(recorded), json.loads(done.stdout)) == []


@pytest.mark.parametrize("journal", JOURNALS, ids=name)
def test_a_companion_resumes_the_journal_to_the_recorded_view(journal, tmp_path):
    data = tmp_path / "data"
    shutil.copytree(journal, data)
    session = Session(data)
    try:
        assert session.problems == []
        assert differences(recorded_view(journal), session.view()) == []
    finally:
        session.close()
    migrated = Journal(data / "journal.sqlite3", readonly=True)
    try:
        assert migrated.version == SCHEMA_VERSION
        assert migrated.check_chain() is None
    finally:
        migrated.close()


@pytest.mark.parametrize("journal", JOURNALS, ids=name)
def test_reading_the_journal_changes_nothing(journal, tmp_path):
    """``history`` and ``doctor`` read an older journal as it is, without migrating it."""
    data = tmp_path / "data"
    shutil.copytree(journal, data)
    before = (data / "journal.sqlite3").read_bytes()
    session = Session(data, readonly=True)
    try:
        assert session.problems == []
        assert differences(recorded_view(journal), session.view()) == []
    finally:
        session.close()
    assert (data / "journal.sqlite3").read_bytes() == before


def test_every_game_is_in_the_corpus_of_every_format():
    """The first format's files (the version before formats were recorded, 65b7660) and the
    current format's: a change of an event's meaning that raises :data:`FORMAT` must add its
    folder, with every game's files of the format it leaves behind."""
    formats = sorted(int(folder.name.split("-")[1]) for folder in CORPUS.glob("format-*"))
    assert formats == list(range(1, FORMAT + 1))
    for version in formats:
        games = {json.loads(path.read_text("utf-8"))["game"]
                 for path in (CORPUS / f"format-{version}").glob("*.view.json")}
        assert games == set(installed_games()), version


def test_a_game_of_an_earlier_format_goes_on_in_todays(tmp_path):
    """A game in progress across the upgrade: its old rows stay as they were written (format 1),
    what is played after is written in today's format, and both replay together."""
    data = tmp_path / "data"
    shutil.copytree(CORPUS / "format-1" / "last-bastion-demo", data)
    session = Session(data)
    try:
        before = session.history()[-2].state
        session.submit({"type": "undo"})
        formats = [entry.format for entry in session.journal_entries()]
    finally:
        session.close()
    assert set(formats[:-1]) == {1} and formats[-1] == FORMAT
    session = Session(data)
    try:
        assert session.state == before
    finally:
        session.close()


def test_a_card_photo_of_the_box_is_kept_with_the_game_it_follows(tmp_path):
    """``last-bastion-card-photo``: the demo, then a card taught from a photo on the command
    line, a ``card_photo`` event of the box (issue 43; docs/events.md, «Session events»). The
    game resumes as it stood, an undo takes back the game's last step, and the picture stays
    journaled and in the game's box file."""
    data = tmp_path / "data"
    shutil.copytree(CORPUS / "format-2" / "last-bastion-card-photo", data)
    session = Session(data)
    try:
        before = session.history()[-2].state
        session.submit({"type": "undo"})
        assert session.state == before
        assert [item for _seq, item, _body in session.pictures_since("none")] == ["incube"]
        game = session.game
    finally:
        session.close()
    assert list(export_box(data, game)["pictures"]) == ["incube"]
