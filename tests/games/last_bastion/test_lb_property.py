"""Random legal (and some illegal) Last Bastion games through a real Session keep their books.

Issue #2, "Tests and figures": a property test that drives random legal events and checks after
each one that every token is either in the reserve or somewhere on the table, that no slot holds
two cards, that deck + cards in play + discard = the deck built at setup, and that undo of any
suffix returns the exact earlier view. It also checks that a refused event changes nothing (view
and journal alike) and that a new Session on the same data directory resumes the same view.

The games come from ``tests/helpers/lastbastion_driver.py``. Hypothesis draws (derandomized, so
every run plays the
same games) the number of players, the mode, the table's style, the game's length and the seed
of the driver's choices; a failure is reported with every event of its game (refused ones
marked), ready to be replayed. The end of the file keeps what the random table found, each
reduced to a few events.
"""

from __future__ import annotations

import contextlib
import json
import random
import sqlite3
import tempfile
from collections import Counter
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, Phase, given, note, settings
from hypothesis import event as tally
from hypothesis import strategies as st
from lastbastion_driver import MODES, Style, pending_cards, play_one, random_setup

from companion.engine import RuleError, Session

STYLES = {
    # a table that plays many short turns, to reach the end of the deck, a win or a defeat
    "brisk": Style(end_turn=1.0, wild=0.03, undo=0.01, effects=0.1, adjust=False),
    # a table that errs, corrects and undoes a lot
    "messy": Style(end_turn=0.3, wild=0.15, undo=0.06, effects=0.25),
}
RESUME_EVERY = 100
# The journal of these games lives in memory when the system offers it: this test checks the
# books, not durability (test_crash.py and benchmarks/engine.py use a real disk), and fsync on a
# busy disk would make its time depend on everything else the machine does.
SCRATCH = "/dev/shm" if Path("/dev/shm").is_dir() else None


def without_version(view: dict[str, Any]) -> dict[str, Any]:
    """A view minus its journal version, which every event (undo included) moves on."""
    return {k: v for k, v in view.items() if k != "version"}


def token_totals(view: dict[str, Any]) -> Counter[str]:
    """How many of each token and figure there are, wherever they lie: reserve, heroes,
    tiles and cards. Equipment is counted colour by colour."""
    total: Counter[str] = Counter()
    reserve = view["reserve"]
    total["life"] += reserve["life"]
    total["call_to_arms"] += reserve["call_to_arms"]
    total["grip"] += reserve["grip"]
    total["standard_tokens"] += reserve["standard_tokens"]
    for colour, count in reserve["equipment"].items():
        total[f"equipment.{colour}"] += count
    for item in reserve["items"]:
        total[f"figure.{item}"] += 1
    for hero in view["heroes"].values():
        total["life"] += hero["life"]
        total["call_to_arms"] += hero["call_to_arms"]
        total["grip"] += bool(hero["grip"])
        for colour, count in hero["equipment"].items():
            total[f"equipment.{colour}"] += count
    for row in view["tiles"]:
        for tile in row:
            total["grip"] += bool(tile["grip"])
            for item in tile["items"]:
                total[f"figure.{item}"] += 1
    for slots in view["boards"].values():
        for entry in slots:
            for item in entry["items"] if entry else []:
                if item == "grip":
                    total["grip"] += 1
                elif item != "enchantment":
                    total[f"figure.{item}"] += 1
    return total


def check_invariants(session: Session, setup: dict[str, Any]) -> None:
    """The books balance after an accepted event (see the module docstring)."""
    view = session.view()
    assert token_totals(view) == setup["tokens"], "a token appeared or vanished"
    for name, count in token_totals(view).items():
        assert count >= 0, name
    for hero in view["heroes"].values():
        assert hero["life"] >= 0 and hero["call_to_arms"] >= 0
        assert all(n >= 0 for n in hero["equipment"].values())
    # every board has 3 slots, each empty or one card that says where it is
    assert sorted(view["boards"]) == sorted(setup["boards"].values())
    on_boards: list[str] = []
    enchanted = 0
    for colour, slots in view["boards"].items():
        assert len(slots) == 3, colour
        for k, entry in enumerate(slots):
            if entry is not None:
                assert entry["slot"] == f"{colour}.{k}"
                assert entry["resistance"] >= 0
                on_boards.append(entry["id"])
                enchanted += entry["items"].count("enchantment")
    assert enchanted <= 1, "Mylfaar has one enchantment token"
    # no card in two places; deck + in play + discard = the deck built at setup
    waiting = pending_cards(session.state)
    placed = on_boards + waiting + view["discard"]
    assert len(placed) == len(set(placed)), f"a card is in two places: {Counter(placed)}"
    deck = view["deck"]
    assert deck["size"] == setup["deck_size"]
    assert 0 <= deck["remaining"] <= deck["size"]
    seen = session.state["deck"]["seen"]  # every card drawn so far
    assert len(seen) == deck["size"] - deck["remaining"]
    assert not Counter(placed) - Counter(seen), "a card in play was never drawn"
    books = deck["remaining"] + len(on_boards) + len(waiting) + len(view["discard"])
    assert books == deck["size"], "deck + in play + discard != the deck built at setup"
    if deck["next_warlord_in"] is not None:
        assert deck["next_warlord_in"] >= 1
    # heroes in play stand on a tile, the others on none
    for hero_id, hero in view["heroes"].items():
        if hero["state"] in ("healthy", "wounded"):
            assert hero["tile"] is not None and all(0 <= x <= 2 for x in hero["tile"]), hero_id
        else:
            assert hero["tile"] is None, hero_id
    # the three defeats are noticed at once (rulebook, "Fin de partie")
    gripped = sum(t["grip"] for row in view["tiles"] for t in row)
    able = [h for h in view["heroes"].values() if h["state"] in ("healthy", "wounded")]
    if view["status"] == "playing":
        assert gripped < 3, "a third gripped tile loses the game"
        assert able, "with every hero out the game is lost"
    if view["status"] == "won":
        assert deck["warlords_remaining"] == 0
    if view["status"] != "playing":
        assert view["expects"]["kind"] == "nothing"
    assert len(session.history()) == len(setup["views"])


def check_resume(session: Session) -> None:
    """A new Session on the same data directory shows exactly the same view (version too)."""
    again = Session(session.data_dir)
    try:
        assert again.view() == session.view()
        assert [f.seq for f in again.history()] == [f.seq for f in session.history()]
    finally:
        again.close()


def journal_size(db: sqlite3.Connection) -> tuple[int, int]:
    """How many events the journal file holds, and the last sequence number (read-only)."""
    return db.execute("SELECT COUNT(*), COALESCE(MAX(seq), 0) FROM events").fetchone()


def play_game(rnd: random.Random, data_dir: Path, style: Style, steps: int,
              log: list[Any], players: int | None = None,
              mode: str | None = None) -> dict[str, Any]:
    """Play one random game with every check, logging its events (refused ones marked);
    return its last view before the final unwinding by undo."""
    session = Session(data_dir)
    db = sqlite3.connect(f"file:{data_dir / 'journal.sqlite3'}?mode=ro", uri=True)
    try:
        setup_event = random_setup(rnd, players, mode)
        log.append(setup_event)
        session.submit(setup_event)
        first = session.view()
        setup = {"tokens": token_totals(first), "deck_size": first["deck"]["size"],
                 "boards": setup_event["boards"], "views": [without_version(first)]}
        views: list[dict[str, Any]] = setup["views"]
        check_invariants(session, setup)

        def refused(event: dict[str, Any], error: RuleError) -> None:
            log.append({"refused": event, "error": str(error)})
            assert session.view() == before["view"], f"{event} was refused but changed the view"
            assert journal_size(db) == before["journal"], "a refused event was journaled"
            assert len(session.history()) == len(views)

        for step in range(steps):
            before = {"view": session.view(), "journal": journal_size(db)}
            depth = len(session.history())
            event = play_one(session, rnd, style, on_refused=refused)
            if event is None:
                break
            log.append(event)
            view = without_version(session.view())
            if event["type"] == "undo":
                undone = depth - len(session.history())
                assert undone >= 1
                assert view == views[-undone - 1], f"undo of {undone} did not restore the view"
                del views[-undone:]
            else:
                views.append(view)
            check_invariants(session, setup)
            if step % RESUME_EVERY == RESUME_EVERY - 1:
                check_resume(session)
        check_resume(session)
        final = session.view()
        final["history"] = len(views)
        # unwind the whole game in random chunks: every suffix undone gives the earlier view
        while len(views) > 1:
            steps_back = rnd.randint(1, min(len(views) - 1, 12))
            session.submit({"type": "undo", "steps": steps_back})
            log.append({"type": "undo", "steps": steps_back})
            del views[-steps_back:]
            assert without_version(session.view()) == views[-1]
            check_invariants(session, setup)
        check_resume(session)
    finally:
        db.close()
        session.close()
    return final


@settings(max_examples=25, deadline=None, derandomize=True, database=None,
          # 25 games of up to 1,200 events (80 took 861 s on one CI worker, alone over the
          # suite's time limit). Most of a game's time is views: each tries a score of events
          # on copies of the state to know what the page offers (engine/catalog.working_copy)
          # a failing game is reported with its events (see note below); shrinking a seed
          # would only try other games, for minutes
          phases=[Phase.explicit, Phase.generate],
          suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**32 - 1), players=st.integers(1, 4), mode=st.sampled_from(MODES),
       style=st.sampled_from(sorted(STYLES)), steps=st.integers(100, 1200))
def test_random_games_keep_their_books(seed: int, players: int, mode: str, style: str,
                                       steps: int) -> None:
    """Invariants hold after every accepted event of random games; refusals change nothing;
    undo of any suffix restores the earlier view; resuming from disk gives the same view."""
    log: list[Any] = []
    with tempfile.TemporaryDirectory(prefix="lb-property-", dir=SCRATCH) as tmp:
        try:
            final = play_game(random.Random(seed), Path(tmp) / "data", STYLES[style], steps,
                              log, players, mode)
        finally:
            note("events:\n" + "\n".join(json.dumps(e, ensure_ascii=False) for e in log))
    deck = final["deck"]
    tally(f"ended: {final['status']} {final['reason'] or ''}".strip())
    tally(f"cards drawn: {10 * ((deck['size'] - deck['remaining']) // 10)}+")
    tally(f"effective history: {100 * (final['history'] // 100)}+ events")


# -- What the random table found ------------------------------------------------------------------
# Each is reduced to its shortest sequence of events; each failed before its fix.

ONE_HERO = {"type": "setup", "game": "last-bastion", "mode": "normal",
            "boards": {"N": "red", "E": "blue", "S": "yellow", "W": "green"},
            "players": [{"name": "Ann", "hero": "elmer", "side": "N"}],
            "tiles": [["market", "tomb", "inn"], ["trebuchet", "fountain", "quarry"],
                      ["standard", "tower", "dispensary"]], "first": "N"}
TWO_HEROES = {**ONE_HERO, "players": [{"name": "Ann", "hero": "elmer", "side": "N"},
                                      {"name": "Bob", "hero": "kazgin", "side": "S"}]}


def red_card(card_id: str, slot: str | None = None, **timings: Any) -> dict[str, Any]:
    """A red monster of resistance 1, taught as it is drawn."""
    event = {"type": "card", "id": card_id, "define": {
        "name": card_id, "type": "monster", "colour": "red", "resistance": 1, **timings}}
    return {**event, "slot": slot} if slot else event


def test_a_card_waiting_for_its_slot_stays_in_the_books_when_the_game_ends(
        session: Session) -> None:
    """Deck + cards in play + discard = the deck built at setup, even once the game is over."""
    session.submit(ONE_HERO)
    session.submit(red_card("x1"))  # three free red slots: the table must choose one
    session.submit({"type": "adjust", "hero": "elmer", "state": "knocked_out"})  # all out: lost
    view = session.view()
    assert view["status"] == "lost"
    on_boards = [e for slots in view["boards"].values() for e in slots if e]
    assert (view["deck"]["remaining"] + len(on_boards) + len(pending_cards(session.state))
            + len(view["discard"])) == view["deck"]["size"]


def test_correcting_a_slot_to_an_incomplete_card_is_refused(session: Session) -> None:
    """Boucher's resistance is not public: it cannot be put in play by a correction either."""
    session.submit(ONE_HERO)
    session.submit(red_card("x1", slot="red.0"))
    with pytest.raises(RuleError):
        session.submit({"type": "adjust", "slot": "red.0", "card": "boucher"})
    assert session.view()["boards"]["red"][0]["id"] == "x1"


def test_a_hero_brought_back_by_the_host_can_be_moved(session: Session) -> None:
    """A knocked-out hero set back to healthy by a correction is either placed on a tile or
    refused; moving them never crashes."""
    session.submit(TWO_HEROES)
    session.submit(red_card("x1", slot="red.0"))  # Elmer's Hero phase
    session.submit({"type": "adjust", "hero": "kazgin", "state": "knocked_out"})
    try:
        session.submit({"type": "adjust", "hero": "kazgin", "state": "healthy"})
    except RuleError:
        return
    with contextlib.suppress(RuleError):  # Elmer's power moves another hero
        session.submit({"type": "move", "hero": "kazgin", "to": [0, 0]})


def test_editing_a_view_does_not_edit_the_game(session: Session) -> None:
    """Listeners and pages get views; what they do with them must not reach the rules."""
    session.submit({**ONE_HERO, "mode": "novice"})  # Elmer holds red and black Equipment
    session.submit(red_card("x1", slot="red.0", arrival=[{"op": "lose", "token": "round"}]))
    view = session.view()
    assert view["expects"]["options"] == ["red", "black"]
    view["expects"]["options"].append("green")
    assert session.view()["expects"]["options"] == ["red", "black"]
    with pytest.raises(RuleError):
        session.submit({"type": "answer", "choice": "green"})
