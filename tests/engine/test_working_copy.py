"""``apply`` works on a copy of the state: the states that undo goes back to are never changed.

DESIGN.md §3 (rules are a pure function from state and event to the next state) and
``companion/engine/catalog.working_copy``: every game's handlers change the copy in place.
"""

from __future__ import annotations

from companion.engine.catalog import learn, working_copy
from companion.engine.messages import Outcome

STATE = {"catalog": {"card": {"incube": {"resistance": 2}}},
         "heroes": {"elmer": {"life": 3, "tile": [1, 1], "equipment": {"red": 1}}},
         "queue": [{"do": "effect", "source": {"slot": "red.0"}}], "turn": None, "step": 4.5}


def test_every_part_but_the_catalog_is_a_copy_of_its_own() -> None:
    """Changing anything nested in the copy leaves the original as it was."""
    before = repr(STATE)
    copy = working_copy(STATE)
    assert copy == STATE
    copy["heroes"]["elmer"]["tile"][0] = 2
    copy["heroes"]["elmer"]["equipment"]["red"] += 1
    copy["queue"][0]["source"]["slot"] = "blue.1"
    copy["queue"].append({"do": "text"})
    assert repr(STATE) == before
    assert copy["catalog"] is STATE["catalog"]  # shared until something is taught


def test_teaching_in_the_copy_leaves_the_original_catalog_alone() -> None:
    """``learn`` replaces the copy's catalog: earlier states keep theirs (undo goes back)."""
    copy = working_copy(STATE)
    learn(copy, "card", "incube", {"exit": []}, Outcome())
    assert copy["catalog"]["card"]["incube"] == {"resistance": 2, "exit": []}
    assert STATE["catalog"]["card"]["incube"] == {"resistance": 2}
