"""Every taught part of a definition is kept (issue 40, finding 2): answering "Nothing changed"
with "Remember it" ticked for Canon de l'Infamie's arrival effect, later for its recurring
effect, kept only ``"recurring": []`` in the definitions file, so the next game asked about the
arrival again. DESIGN.md §8: «Taught knowledge is merged, never replaced by a partial answer,
journaled in the same transaction as the event that taught it, and travels in the box file.»

For each game: two teachings of one known item, each giving one part, then what the owner's
definitions hold, what a box file exports, what a new game knows after a restart, and what an
undo of the teachings leaves."""

from __future__ import annotations

import json
import sqlite3
import subprocess
import sys

import pytest
from demos import demo

from companion.boxfile import export_box
from companion.engine import Session
from companion.engine.game import find_game
from companion.engine.paths import DataPaths

PARTS = {
    "last-bastion": ("card", "canon-de-l-infamie", {"arrival": []}, {"recurring": []}),
    "aot-last-stand": ("action", "pietinement", {"effects": [{"op": "destroy", "amount": 1}]},
                       {"counter": {"type": "none"}}),
    "last-heroes": ("weapon", "flamethrower-1", {"impact": 2}, {"ammo": 3}),
    "runemasters": ("monster", "shadow-red", {"rewards": {"mana": 1}}, {"two_player": True}),
}
"""Per game: the kind and id of an item its package knows, and two parts taught one by one."""


def taught(session: Session, game: str) -> dict:
    """The setup of the game's demo, then its two parts taught one after the other."""
    kind, item, first, second = PARTS[game]
    setup = {k: v for k, v in demo(game)[0].items() if k != "definitions"}
    session.submit(setup)
    for part in (first, second):
        session.submit({"type": "teach", "kind": kind, "id": item, "definition": part})
    return {**first, **second}


def owner_part(session: Session, game: str) -> dict:
    kind, item, *_ = PARTS[game]
    return session.definitions(game).load().get(kind, {}).get(item, {})


@pytest.mark.parametrize("game", sorted(PARTS))
def test_every_part_is_kept_and_exported(data_dir, game):
    session = Session(data_dir)
    try:
        both = taught(session, game)
        assert owner_part(session, game) == both
        assert session.owner_definitions(game)[PARTS[game][0]][PARTS[game][1]] == both
    finally:
        session.close()
    kind, item, *_ = PARTS[game]
    assert export_box(data_dir, find_game(game))["definitions"][kind][item] == both


@pytest.mark.parametrize("game", sorted(PARTS))
def test_a_new_game_after_a_restart_knows_every_part(data_dir, game):
    session = Session(data_dir)
    try:
        both = taught(session, game)
    finally:
        session.close()
    session = Session(data_dir)
    try:
        session.submit({k: v for k, v in demo(game)[0].items() if k != "definitions"})
        kind, item, *_ = PARTS[game]
        assert session.journal_entries()[0].event.fields["definitions"][kind][item] == both
        known = session.game.known_definitions(session.owner_definitions(game))[kind][item]
        assert both.items() <= known.items()
    finally:
        session.close()


@pytest.mark.parametrize("game", sorted(PARTS))
def test_undoing_the_teachings_keeps_what_they_taught(data_dir, game):
    session = Session(data_dir)
    try:
        both = taught(session, game)
        session.submit({"type": "undo", "steps": 2})
        assert owner_part(session, game) == both
    finally:
        session.close()
    session = Session(data_dir)  # the definitions rebuilt from the journal agree
    try:
        assert session.owner_definitions(game)[PARTS[game][0]][PARTS[game][1]] == both
    finally:
        session.close()


def test_the_journal_rebuilds_every_part_when_the_file_is_lost(data_dir):
    """The definitions file is derived from the journal's ``learned`` rows: rebuilt after it
    was lost, it merges the parts in order as the game did."""
    session = Session(data_dir)
    try:
        both = taught(session, "last-bastion")
    finally:
        session.close()
    DataPaths(data_dir).definitions("last-bastion").unlink()
    db = sqlite3.connect(data_dir / "journal.sqlite3")
    db.execute("UPDATE derived SET seq = 0 WHERE name = 'definitions'")
    db.commit()
    db.close()
    session = Session(data_dir)
    try:
        assert owner_part(session, "last-bastion") == both
    finally:
        session.close()


def test_cards_export_keeps_both_timings(data_dir, tmp_path):
    """The finding's own check: ``companion cards export`` after the two answers."""
    session = Session(data_dir)
    try:
        taught(session, "last-bastion")
    finally:
        session.close()
    box = tmp_path / "box.json"
    subprocess.run([sys.executable, "-m", "companion", "cards", "export", str(box),
                    "--game", "last-bastion", "--data-dir", str(data_dir)],
                   check=True, capture_output=True)
    card = json.loads(box.read_text())["definitions"]["card"]["canon-de-l-infamie"]
    assert card == {"arrival": [], "recurring": []}
