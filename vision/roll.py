"""What a reading returns: the dice found in one frame and what was uncertain about them."""

from __future__ import annotations

from dataclasses import asdict, dataclass, field, replace

Box = tuple[int, int, int, int]


@dataclass(frozen=True)
class Die:
    """One die seen in a frame.

    ``face`` is the face id of the profile (``"1"``..``"6"`` for pip dice, ``"red"``...), ``box``
    is ``(x0, y0, x1, y1)`` in pixels of the input image, ``confidence`` is in 0..1 and
    ``uncertain`` is true when the reader would not stake a roll on ``face``: the host must be
    asked. ``colour`` names the colour the die shows from above when the reader was asked for it
    (:func:`vision.colour.die_colour`: whose die it is, where each player rolls their own
    colour), ``None`` when not asked or not clear.
    """

    face: str
    confidence: float
    box: Box
    uncertain: bool
    colour: str | None = None

    @property
    def centre(self) -> tuple[float, float]:
        """Centre of the box in pixels."""
        x0, y0, x1, y1 = self.box
        return ((x0 + x1) / 2.0, (y0 + y1) / 2.0)


@dataclass(frozen=True)
class Roll:
    """Every die read in a frame, plus notes saying what was uncertain (empty when all is clear).

    A roll is *certain* only when there is at least one die, no die is uncertain and no note
    was raised; anything else must be confirmed by a human.
    """

    profile: str
    dice: tuple[Die, ...] = ()
    notes: tuple[str, ...] = field(default_factory=tuple)

    @property
    def certain(self) -> bool:
        """True when the roll can be used without asking anyone."""
        return bool(self.dice) and not self.notes and not any(d.uncertain for d in self.dice)

    @property
    def faces(self) -> list[str]:
        """The faces read, sorted, uncertain ones included."""
        return sorted(d.face for d in self.dice)

    def scaled(self, factor: float) -> Roll:
        """The same roll with every box ``factor`` times larger: the dice of a photo read shrunk
        (``vision.imageio.load_photo``) placed in the file's own pixels."""
        return replace(self, dice=tuple(
            replace(d, box=tuple(round(v * factor) for v in d.box)) for d in self.dice))

    def to_dict(self) -> dict:
        """A JSON-ready view (what ``companion dice read --json`` prints)."""
        return {
            "profile": self.profile,
            "certain": self.certain,
            "dice": [
                {**asdict(d), "box": list(d.box), "confidence": round(d.confidence, 3)}
                for d in self.dice
            ],
            "notes": list(self.notes),
        }
