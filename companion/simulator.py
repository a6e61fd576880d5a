"""The simulated table: virtual dice and card draws for playing without a Pi's sensors.

Dice: any die profile a game expects (its faces come from the vision profile files). Cards: the
games with a deck to draw from, Last Bastion (Horde cards) and Runemasters (monsters and Events);
other games' cards are dealt at the table and entered by the host.

It stands where the camera and the card reader would: it reads what the session expects and
submits the same ``dice`` and ``card`` events they would, with source ``simulator``, through
the same ``Session.submit``. Everything random comes from one seeded ``random.Random``, so a run
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

from companion.engine import Event, RuleError, Session, Step

PROFILES = "vision.profiles"

CARD_COLOURS = ("red", "green", "blue", "yellow", "black")


class Simulator:
    """Seeded virtual dice and Horde cards for a session."""

    source = "simulator"

    def __init__(self, session: Session, seed: int | None = None) -> None:
        self.session = session
        self.random = random.Random(seed)
        self._lock = threading.Lock()

    def faces(self, profile: str | None) -> list[str]:
        """The faces of a die profile, as the vision profiles name them (Last Bastion's
        Corruption faces as this table's catalog names them)."""
        if profile == "last-bastion/corruption":
            return sorted(self.session.state["catalog"]["corruption"])
        return profile_faces(profile or "last-bastion/combat")

    def roll(self) -> tuple[Event, Step]:
        """Roll the dice the table waits for; return the event submitted and its step."""
        with self._lock:
            expects = self.session.expects()
            if expects.kind != "dice":
                raise RuleError("event.not_expected", event="dice", expected=list(expects.events))
            faces = self.faces(expects.profile)
            kind, fields = self._dice_event(expects.events, expects.count)
            fields["faces"] = [self.random.choice(faces) for _ in range(fields.pop("count"))]
            if (self.session.state.get("combat") or {}).get("grey_die"):
                fields["grey"] = self.random.choice(faces)
            return self._submit(Event(kind, fields, self.source))

    def _dice_event(self, events: tuple[str, ...], count: int | None) -> tuple[str, dict]:
        """The event a roll makes: ``dice`` for most games; Attack on Titan's ``roll`` (the first
        hero still to roll) and ``reroll`` (the dice the Titan gave back to one hero)."""
        if "dice" in events:
            return "dice", {"count": count or 1}
        heroes = self.session.view()["heroes"]
        if "roll" in events:
            hero = next(h for h, data in heroes.items() if not data["rolled"])
            return "roll", {"hero": hero, "count": count or 1}
        hero, back = next((h, d["given_back"]) for h, d in heroes.items() if d["given_back"])
        return "reroll", {"hero": hero, "count": back}

    def draw(self) -> tuple[Event, Step]:
        """Draw the card the table waits for (see :meth:`draw_horde`, :meth:`draw_any`)."""
        with self._lock:
            expects = self.session.expects()
            if expects.kind != "card" or "card" not in expects.events:
                raise RuleError("event.not_expected", event="card", expected=list(expects.events))
            if self.session.game.id == "last-bastion":
                return self.draw_horde()
            return self.draw_any()

    def draw_any(self) -> tuple[Event, Step]:
        """A deck of another game: every id the game knows or names (monsters, Events, Dawn) not
        revealed yet, in random order, until the rules accept one (they refuse what the deck
        cannot give now, changing nothing)."""
        state, game = self.session.state, self.session.game
        seen = set(state.get("deck", {}).get("seen", []))
        named = set(game.names("en", state)) if hasattr(game, "names") else set()
        known = {c for items in state["catalog"].values() if isinstance(items, dict) for c in items}
        cards = sorted((named | known) - seen)
        self.random.shuffle(cards)
        for card in cards:
            try:
                return self._submit(Event("card", {"id": card}, self.source))
            except RuleError:
                continue
        raise RuleError("event.not_expected", event="card", expected=["card"])

    def draw_horde(self) -> tuple[Event, Step]:
        """Draw the Horde card the table waits for: a known card not drawn yet, of the type the
        deck calls for, or a new one taught on the spot as an owner would."""
        state = self.session.state
        deck = state["deck"]
        kind = "warlord" if deck["drawn"] in deck["warlords"] else "monster"
        cards = state["catalog"]["card"]
        playable = sorted(card_id for card_id, card in cards.items()
                          if card_id not in deck["seen"] and card.get("type") == kind
                          and card.get("colour") and card.get("resistance") is not None)
        fields = ({"id": self.random.choice(playable)} if playable
                  else self._invent(kind, cards))
        return self._submit(Event("card", fields, self.source))

    def _invent(self, kind: str, known: dict[str, Any]) -> dict[str, Any]:
        """A card made up on the spot ("Sim 3"; a Warlord is called so by the messages): it lives
        in this simulated game only, never in the owner's definitions (the session does not save
        what the simulator's events teach)."""
        number = 1 + sum(card_id.startswith("sim-") for card_id in known)
        while f"sim-{number}" in known:
            number += 1
        low, high = (3, 5) if kind == "warlord" else (0, 3)
        return {"id": f"sim-{number}", "define": {
            "name": f"Sim {number}", "type": kind,
            "colour": self.random.choice(CARD_COLOURS),
            "resistance": self.random.randint(low, high), "complete": True}}

    def _submit(self, event: Event) -> tuple[Event, Step]:
        return event, self.session.submit(event, source=self.source)


def profile_faces(profile: str) -> list[str]:
    """The faces of a die profile, from its file in vision/profiles (``aot/hero`` is
    ``aot_hero.json``)."""
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
                step = self.simulator.session.submit(Event("undo", {}), source="keyboard")
            elif action:
                _, step = getattr(self.simulator, action)()
            else:
                return
        except RuleError as error:
            self.say(error)
            return
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
