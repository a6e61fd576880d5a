"""Teaching that a printed effect does nothing at this table (issue 13, finding 3).

docs/cards.md: a timing holds a list of effects or printed text; an empty list is a taught answer
("does nothing here", e.g. a face whose effect concerns a component this table does not use),
distinct from nothing taught yet, which the companion asks about. Rulebook p.6, "Action du
plateau Horde": a full board applies its power; p.12, the Corruption die: its face is suffered.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from lastbastion import card, play, setup_event, solo

from companion.engine import Session

ROOT = Path(__file__).resolve().parents[3]


def _keys(step):
    return [m.key for m in step.announcements]


def _roll_corruption_2(session):
    """Gary beats a card whose exit effect rolls the Corruption die; it shows face 2."""
    play(session, card("tormentor", "yellow", 1, slot="yellow.1", exit=[{"op": "corruption"}]),
         {"type": "move", "hero": "kazgin", "to": [2, 1]},
         {"type": "fight", "targets": ["yellow.1"]},
         {"type": "dice", "faces": ["yellow", "red", "red"], "grey": "red"},
         {"type": "resolve"})
    return session.submit({"type": "dice", "faces": ["corruption-2"]})


def test_untaught_corruption_face_is_asked(session):
    """Not taught yet: the table is asked what the face did (the prompt stays the contract)."""
    play(session, solo())
    _roll_corruption_2(session)
    assert session.view()["prompts"][0]["key"] == "prompt.unknown_effect"


def test_corruption_face_taught_as_doing_nothing_is_not_asked(session):
    """``"effects": []``: the face does nothing here; no question, Gary's Hero phase goes on."""
    play(session, solo(), {"type": "teach", "kind": "corruption", "id": "corruption-2",
                           "definition": {"effects": []}})
    before = session.view()["heroes"]["kazgin"]
    _roll_corruption_2(session)
    view = session.view()
    assert view["prompts"] == []
    assert view["expects"]["kind"] == "action"
    assert view["heroes"]["kazgin"]["life"] == before["life"]


def test_full_board_taught_as_doing_nothing_is_not_asked(session):
    """``"full": []`` on the red board (its power is not public): at Paul's turn the full board
    applies its power instead of a draw, which does nothing and asks nothing."""
    chain = [{"op": "draw"}]
    play(session, setup_event([("Gary", "kazgin", "S"), ("Paul", "mylfaar", "N")]),
         {"type": "teach", "kind": "board", "id": "red", "definition": {"full": []}},
         card("a", "red", 1, slot="red.0", arrival=chain),
         card("b", "red", 1, slot="red.1", arrival=chain),
         card("c", "red", 1, slot="red.2"), {"type": "end_turn"})
    view = session.view()
    assert view["active"] == "N" and view["phase"] == "hero"
    assert view["prompts"] == [], "the full red board's power was taught as nothing"


def test_tile_action_taught_as_doing_nothing_is_not_asked(session):
    """A tile action taught as ``[]``: activating it asks nothing."""
    play(session, solo(), {"type": "teach", "kind": "tile", "id": "fountain",
                           "definition": {"action": []}},
         card("a", "yellow", 1, slot="yellow.0"))
    session.submit({"type": "activate", "tile": "fountain"})
    assert session.view()["prompts"] == []
    assert session.expects().kind == "action"


def test_cards_command_teaches_a_face_that_does_nothing(tmp_path):
    """The same from ``companion cards add ... --json '{"effects": []}'``: saved as an empty
    list, and a new game does not ask about that face."""
    data = tmp_path / "data"
    taught = subprocess.run(
        [sys.executable, "-m", "companion", "cards", "add", "corruption-2", "--kind",
         "corruption", "--json", json.dumps({"effects": []}), "--data-dir", str(data)],
        capture_output=True, text=True, cwd=ROOT, timeout=60)
    assert taught.returncode == 0, taught.stderr
    stored = json.loads((data / "definitions" / "last-bastion.json").read_text())
    assert stored["corruption"]["corruption-2"] == {"effects": []}
    session = Session(data)
    try:
        play(session, solo())
        _roll_corruption_2(session)
        assert session.view()["prompts"] == []
    finally:
        session.close()
