"""The simulated table's invented cards live in the simulated game only (issue 17, finding 7):
"Sim 1" ... were saved into the data directory's definitions and filled the card picker of
later real games; and a Warlord read "Warlord Warlord 32 defeated!". Also the order games are
listed in (finding 8)."""

from __future__ import annotations

from collections.abc import Callable

from test_simulator_cli import settle
from webtools import setup_event

from companion.cli import main
from companion.engine import DefinitionStore, Session
from companion.simulator import Simulator


def play(session: Session, table: Simulator, done: Callable[[], bool], steps: int = 200) -> None:
    """Play with the simulated table (draw, roll, place, end each turn) until ``done()`` or
    the game is over."""
    for _ in range(steps):
        if done() or session.state["status"] != "playing":
            return
        kind = session.expects().kind
        if kind == "card":
            table.draw()
        elif kind == "dice":
            table.roll()
        elif kind == "action":
            session.submit({"type": "end_turn"})
        settle(session)


def test_invented_cards_are_not_saved_into_the_owners_definitions(tmp_path):
    data = tmp_path / "data"
    session = Session(data)
    session.submit(setup_event())
    table = Simulator(session, 3)
    def sims() -> list[str]:
        return [c for c in session.state["catalog"]["card"] if c.startswith("sim-")]

    play(session, table, lambda: len(sims()) >= 2)  # the package knows 3 playable monsters
    invented = sims()
    assert invented, "the simulator had to invent cards"
    assert session.state["catalog"]["card"][invented[0]]["name"].startswith("Sim ")
    assert not any(c.startswith("sim-") for c in DefinitionStore(data, "last-bastion").load()
                   .get("card", {}))
    session.close()
    later = Session(data)
    later.submit(setup_event())  # a real game after it: no invented card to pick from
    assert not [c for c in later.state["catalog"]["card"] if c.startswith("sim-")]
    later.close()


def test_an_invented_card_drawn_again_after_an_undo_is_the_same_card(tmp_path):
    """Issue 39, item 7: the card drawn after an undo of the draw changed colour and
    resistance ("Sim 3", red 2, then blue 0)."""
    session = Session(tmp_path / "data")
    session.submit(setup_event())
    table = Simulator(session, 3)
    def sims() -> dict[str, dict]:
        return {c: d for c, d in session.state["catalog"]["card"].items() if c.startswith("sim-")}

    play(session, table, lambda: len(sims()) >= 1)
    while session.expects().kind != "card":  # the next draw, an invented card again
        play(session, table, lambda: session.expects().kind == "card", steps=1)
    before = sims()
    table.draw()
    drawn = {c: d for c, d in sims().items() if c not in before}
    assert drawn, "the simulator had to invent this card"
    for _ in range(5):  # undo the draw, draw again: the same card each time
        session.submit({"type": "undo"})
        settle(session)
        table.draw()
        again = {c: d for c, d in sims().items() if c not in before}
        assert again == drawn
    session.close()


def test_games_are_listed_last_bastion_first(capsys):
    assert main(["games"]) == 0
    assert capsys.readouterr().out.split()[0] == "last-bastion"
