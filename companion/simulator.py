"""The simulated table: virtual dice and card draws for playing without a Pi's sensors.

Dice: any roll a game expects (the faces its dice template lists, else those of the vision
profile). Cards: any card a game expects (among those its template offers, made up by the game
when the owner has taught none, else any id the game knows).

It stands where the camera and the card reader would: it fills the blanks of the event templates
the session expects, as they do, with source ``simulator``, through the same
``Session.submit``. Everything random comes from one seeded ``random.Random``, so a run
with the same seed and the same actions is the same game. The host page's "roll" and "draw"
buttons call it, and so do keys typed in the terminal (:class:`KeyboardTable`).
"""

from __future__ import annotations

import json
import random
import sys
import threading
from collections.abc import Callable
from importlib import resources
from typing import Any, TextIO

from companion.engine import Event, Expectation, RuleError, Session, Step, Template
from companion.gamedice import declared

PROFILES = "vision.profiles"

class Simulator:
    """Seeded virtual dice and cards for a session: they fill the blanks of the events the game
    expects, as the camera and the card reader would."""

    source = "simulator"

    def __init__(self, session: Session, seed: int | None = None) -> None:
        self.session = session
        self.random = random.Random(seed)
        self._lock = threading.Lock()
        self._invented: dict[str, dict[str, Any]] = {}
        """The cards made up so far, by id: one drawn again after an undo is the same card."""

    def _awaiting(self, blank: str, event: str) -> Expectation:
        """What the table waits for, refused unless it has a ``blank`` to fill."""
        expects = self.session.expects()
        if expects.template(blank) is None:
            raise RuleError("event.not_expected", event=event, expected=list(expects.events))
        return expects

    def roll(self) -> list[tuple[Event, Step]]:
        """Roll the dice the table waits for (every player's at once where each rolls dice of
        their own colour, as the camera reads them); return each event submitted and its
        step."""
        with self._lock:
            return [self._submit(self._rolled(t))
                    for t in self._awaiting("dice", "dice").rolled()]

    def _rolled(self, template: Template) -> dict[str, Any]:
        blank = template.blank
        faces = blank.options or profile_faces(blank.profile)
        rolled = [self.random.choice(faces) for _ in range(blank.count or 1)]
        extra = {name: self.random.choice(faces) for name in blank.extra}
        return template.fill(rolled, **extra)

    def draw(self) -> tuple[Event, Step]:
        """Draw the card the table waits for (and the others a template takes: Attack on
        Titan's two Action cards): one the deck may give now when the game knows them, one the
        game makes up when the owner has taught none, else any id the game knows or names
        (refused ones are left aside, as a person would draw again)."""
        with self._lock:
            template = self._awaiting("card", "card").template("card")
            options = template.blank.options
            invent = self.session.game.capabilities.invent
            if options:
                card, extra = self.random.choice(options), template.blank.extra
                others = self.random.sample([o for o in options if o != card],
                                            min(len(extra), len(options) - 1)) if extra else []
                return self._submit(template.fill(card, **dict(zip(extra, others, strict=False))))
            if options is not None and invent is not None:
                return self._draw_invented(template, invent)
            return self._draw_any(template)

    def _draw_invented(self, template: Template, invent: Callable[..., dict[str, Any]]
                       ) -> tuple[Event, Step]:
        """A card the game makes up; when it makes up an id it made before (the table went back
        past that draw), the card first made is drawn again if the table takes it: an undone
        draw and the draw after it show the same card, not one of another colour."""
        fields = invent(self.session.state, self.random)
        card = fields.pop(template.blank.field)
        earlier = self._invented.get(card)
        if earlier is not None:
            try:
                return self._submit(template.fill(card, **earlier))
            except RuleError:
                pass  # no longer the card the deck calls for (e.g. a Warlord now): a new one
        drawn = self._submit(template.fill(card, **fields))
        self._invented[card] = fields
        return drawn

    def _draw_any(self, template: Template) -> tuple[Event, Step]:
        state, game = self.session.state, self.session.game
        seen = set(state.get("deck", {}).get("seen", []))
        names = game.capabilities.names
        named = set(names("en", state)) if names is not None else set()
        known = {c for items in state["catalog"].values() if isinstance(items, dict) for c in items}
        cards = sorted((named | known) - seen)
        self.random.shuffle(cards)
        for card in cards:
            try:
                return self._submit(template.fill(card))
            except RuleError:
                continue
        raise RuleError("event.not_expected", event=template.type, expected=[template.type])

    def _submit(self, fields: dict[str, Any]) -> tuple[Event, Step]:
        event = Event(fields.pop("type"), fields, self.source)
        return event, self.session.submit(event, source=self.source)


def profile_faces(profile: str) -> list[str]:
    """The faces of a die profile: as the game that reads it declares it (its folder's
    ``dice.json``), else from vision's own file (``vision/profiles/d6.json``)."""
    data = declared(profile)
    if data is not None:
        return list(data["faces"])
    name = profile.replace("/", "_").replace("-", "_") + ".json"
    return list(json.loads(resources.files(PROFILES).joinpath(name).read_text())["faces"])


KEYS = {"r": "roll", "d": "draw", "u": "undo"}


class KeyboardTable:
    """Keys typed in the terminal drive the simulated table: ``r`` rolls, ``d`` draws, ``u``
    undoes the last step. Results and refusals are printed through ``say``."""

    def __init__(self, simulator: Simulator, say: Callable[[Any], None],
                 stream: TextIO | None = None) -> None:
        self.simulator = simulator
        self.say = say
        self.stream = stream or sys.stdin
        self._thread: threading.Thread | None = None
        self._saved: list[Any] | None = None

    def press(self, key: str) -> None:
        """Act on one key; unknown keys are ignored."""
        action = KEYS.get(key.lower())
        try:
            if action == "undo":
                steps = [self.simulator.session.submit(Event("undo", {}), source="keyboard")]
            elif action == "roll":
                steps = [step for _, step in self.simulator.roll()]
            elif action == "draw":
                steps = [self.simulator.draw()[1]]
            else:
                return
        except RuleError as error:
            self.say(error)
            return
        for step in steps:
            for message in step.announcements:
                self.say(message)

    def start(self) -> bool:
        """Read single keys on a daemon thread if the terminal is interactive (it is put in
        cbreak mode until :meth:`stop`); say whether it does."""
        if not self.stream.isatty():
            return False
        import termios
        import tty

        self._saved = termios.tcgetattr(self.stream.fileno())
        tty.setcbreak(self.stream.fileno())
        self._thread = threading.Thread(target=self._read, name="keyboard-table", daemon=True)
        self._thread.start()
        return True

    def stop(self) -> None:
        """Give the terminal back as it was."""
        if self._saved is not None:
            import termios

            termios.tcsetattr(self.stream.fileno(), termios.TCSADRAIN, self._saved)
            self._saved = None

    def _read(self) -> None:
        while key := self.stream.read(1):
            self.press(key)
