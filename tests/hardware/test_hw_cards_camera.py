"""The card camera at the box: a card shown to the camera fills the card template of the event
the game expects, exactly as a tag swipe does (a Last Bastion draw, a Runemasters card, a Last
Heroes charger card) or the page's picker does (Attack on Titan's two Action cards), through
the table like every source; a card shown twice is one event; a card not taught or not told
apart is asked about, never guessed.

The frames are real photos of SET cards (benchmarks/cards/set/), each taught under the id of a
card of the game: any card identity may be taught from a photo.
"""

import hwtools  # noqa: F401  (first: the repository before tests/ on sys.path)
import numpy as np
import pytest
from card_photos import shown_frame, teaching_photo
from demos import demo

from companion.cardphotos import pictures_folder
from companion.engine import Expectation, Message, Session
from hardware.cards import SURE, CardWatcher, Showing, deck_of
from hardware.doctor import check_cards
from hardware.preview import card_view, render
from hardware.table import Table
from vision.cards import CardSeen, Deck, read_cards

SHOWN = "green-1-striped-diamond"  # the photographed card shown in every game
OTHER = "red-2-solid-oval"
UNTAUGHT = "purple-3-solid-oval"


class Spot:
    """The camera's frame tap as the card watcher sees it: the last frame, changed at will."""

    name = "card spot"

    def __init__(self) -> None:
        self.frame: np.ndarray | None = None

    def last(self) -> tuple[float, np.ndarray] | None:
        """The frame in view (None: the camera has given none yet)."""
        return None if self.frame is None else (0.0, self.frame)


class Clock:
    """A clock moved by hand."""

    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        return self.now


def at_card(data_dir, game: str) -> Session:
    """A session of ``game`` (its demo's setup) waiting for a card."""
    session = Session(data_dir)
    session.submit(demo(game)[0])
    assert session.expects().template("card") is not None
    return session


def watching(session: Session, spot: Spot, clock: Clock) -> tuple[CardWatcher, Table, list]:
    """A card watcher reporting to a real table on ``session``; what it warns is listed."""
    table = Table(session)
    warnings: list[Message] = []
    table.on_warning.append(warnings.append)
    return CardWatcher(spot, session.expects, session.data_dir, clock=clock), table, warnings


@pytest.mark.parametrize("game, card", [
    ("last-bastion", "incube"),                # a draw (the deck's options name it)
    ("runemasters", "shadow-red"),             # a revealed card
    ("last-heroes", "flamethrower-1"),         # a card loaded in a hero's charger
])
def test_a_card_shown_fills_the_games_card_template_once(data_dir, game, card):
    session = at_card(data_dir, game)
    deck = Deck(pictures_folder(data_dir))
    deck.teach(card, teaching_photo(SHOWN))
    deck.teach("someone-else", teaching_photo(OTHER))
    template = session.expects().template("card")
    spot, clock = Spot(), Clock()
    watcher, table, warnings = watching(session, spot, clock)
    try:
        spot.frame = shown_frame(SHOWN)
        for _ in range(5):  # held in view: one event
            watcher.look(table.emit)
            clock.now += 0.2
        spot.frame = None
        watcher.look(table.emit)
        spot.frame = shown_frame(SHOWN, index=3)  # shown again at once: the same showing
        for _ in range(3):
            watcher.look(table.emit)
    finally:
        table.stop()
    cards = [e.event for e in session.journal_entries() if e.event.type == template.type]
    assert warnings == []
    assert [(e.fields, e.source) for e in cards] == \
        [({k: v for k, v in template.fill(card).items() if k != "type"}, "camera")]
    session.close()


def test_attack_on_titans_action_cards_shown_fill_the_commit_as_the_pages_picker_does(data_dir):
    """«Il en place une première sur la table, face visible, puis une deuxième, face cachée»
    (attack-on-titan-last-stand.fr.txt, 1. Le Titan choisit ses cartes Action): the face-up
    card shown first, then the face-down one, make the page picker's commit, once."""
    session = at_card(data_dir, "aot-last-stand")
    up, down = session.view()["titan"]["committable"][:2]
    deck = Deck(pictures_folder(data_dir))
    deck.teach(up, teaching_photo(SHOWN))
    deck.teach(down, teaching_photo(OTHER))
    spot, clock = Spot(), Clock()
    watcher, table, warnings = watching(session, spot, clock)
    try:
        for card, looks in ((SHOWN, 4), (None, 1), (SHOWN, 3), (OTHER, 4), (None, 1),
                            (OTHER, 3)):  # each held, and shown again at once
            spot.frame = None if card is None else shown_frame(card)
            for _ in range(looks):
                watcher.look(table.emit)
                clock.now += 0.2
    finally:
        table.stop()
    commits = [e.event for e in session.journal_entries() if e.event.type == "commit"]
    assert warnings == []
    assert [(e.fields, e.source) for e in commits] == [({"up": up, "down": down}, "camera")]
    assert session.state["step"] == 2
    session.close()


def test_a_card_not_taught_is_asked_about_and_nothing_is_sent(data_dir):
    session = at_card(data_dir, "runemasters")
    Deck(pictures_folder(data_dir)).teach("shadow-red", teaching_photo(SHOWN))
    spot, clock = Spot(), Clock()
    watcher, table, warnings = watching(session, spot, clock)
    entries = len(session.journal_entries())
    spot.frame = shown_frame(UNTAUGHT)
    for _ in range(4):
        watcher.look(table.emit)
        clock.now += 0.2
    table.stop()
    assert warnings == [Message("cards.unknown", {})]
    assert len(session.journal_entries()) == entries
    session.close()


def test_two_cards_alike_are_asked_about_not_guessed(data_dir):
    session = at_card(data_dir, "last-heroes")
    deck = Deck(pictures_folder(data_dir))
    for copy in ("flamethrower-1", "flamethrower-2"):  # two copies of one card
        deck.teach(copy, teaching_photo(SHOWN))
    spot, clock = Spot(), Clock()
    watcher, table, warnings = watching(session, spot, clock)
    entries = len(session.journal_entries())
    spot.frame = shown_frame(SHOWN)
    watcher.look(table.emit)
    watcher.look(table.emit)
    table.stop()
    assert [w.key for w in warnings] == ["cards.unsure"]
    assert set(warnings[0].params["cards"].split(", ")) == {"flamethrower-1", "flamethrower-2"}
    assert len(session.journal_entries()) == entries
    session.close()


def seen(card: str | None) -> CardSeen:
    return CardSeen(card, 0.9, False, (0, 0, 10, 10))


def test_a_showing_is_reported_once_and_again_only_after_its_window():
    showing = Showing(settle=2, window=10.0)
    looks = [("a", 0.0), ("a", 0.2), ("a", 0.4), (None, 0.6), ("a", 0.8), ("a", 1.0),
             ("b", 1.2), ("b", 1.4), (None, 2.0), ("a", 20.0), ("a", 20.2)]
    reported = [(card, now) for card, now in looks
                if showing.feed(None if card is None else seen(card), now) is not None]
    assert reported == [("a", 0.2), ("b", 1.4), ("a", 20.2)]


def test_doctor_shows_each_taught_card_to_the_reader(data_dir):
    assert check_cards(data_dir).ok is None  # nothing taught: the fix says how
    assert "cards photo" in check_cards(data_dir).fix
    deck = Deck(pictures_folder(data_dir))
    deck.teach("incube", teaching_photo(SHOWN))
    deck.teach("goule", teaching_photo(OTHER))
    check = check_cards(data_dir)
    assert check.ok is True and check.detail.startswith("2 cards taught")
    (pictures_folder(data_dir) / "spectre.png").write_bytes(b"not a picture")
    check = check_cards(data_dir)
    assert check.ok is False and check.detail.endswith(": spectre")


def test_the_camera_view_shows_the_card_spot_and_the_card_named_there(data_dir):
    session = at_card(data_dir, "runemasters")
    Deck(pictures_folder(data_dir)).teach("shadow-red", teaching_photo(SHOWN))
    frame = shown_frame(SHOWN)
    image = card_view(frame, data_dir)
    (card,) = [c for c in read_cards(frame, deck_of(data_dir)).cards if c.id == "shadow-red"]
    x0, y0, x1, y1 = card.box
    assert tuple(image[(y0 + y1) // 2, x0]) == SURE  # its box, green: named surely
    jpeg = render(frame, session.expects(), data_dir)
    assert jpeg[:2] == b"\xff\xd8"
    session.close()


def test_a_card_left_at_the_spot_before_the_game_asks_is_not_sent(data_dir):
    session = at_card(data_dir, "runemasters")
    Deck(pictures_folder(data_dir)).teach("shadow-red", teaching_photo(SHOWN))
    asking = [False]
    spot, clock, records = Spot(), Clock(), []
    watcher = CardWatcher(spot, lambda: session.expects() if asking[0]
                          else Expectation("nothing", ()), data_dir, clock=clock)
    spot.frame = shown_frame(SHOWN)  # the last card drawn, still lying there
    for _ in range(3):
        watcher.look(records.append)
        clock.now += 0.2
    asking[0] = True
    for _ in range(3):
        watcher.look(records.append)
        clock.now += 0.2
    assert records == []
    session.close()


def test_with_no_card_taught_the_camera_reads_no_cards(data_dir):
    session = at_card(data_dir, "runemasters")
    spot, records = Spot(), []
    watcher = CardWatcher(spot, session.expects, data_dir, clock=Clock())
    spot.frame = shown_frame(SHOWN)
    watcher.look(records.append)
    watcher.look(records.append)
    assert records == [] and watcher.seen == []
    session.close()
