"""The box as the host page sees it: the sensors' live status, ``companion doctor``'s report and
naming an unknown RFID tag.

The web app knows only the small interface :class:`web.box.Box`; this is the hardware's side of it,
built by the composition root (``companion run``). When no sensor runs (a plain ``--simulate``)
the box shows the last tag a previous run saw, and the doctor opens the devices itself, as
``companion doctor`` does.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from companion.config import Config
from companion.engine import Session
from companion.engine.tags import TagMap

from . import doctor
from .status import last_tag
from .table import Table

if TYPE_CHECKING:
    from .rolls import TableRolls
    from .teaching import DiceTeacher


class HardwareBox:
    """The running table (None when no sensor runs) and the settings it was built from."""

    def __init__(self, session: Session, settings: Config, table: Table | None = None) -> None:
        self.session = session
        self.settings = settings
        self.table = table
        self._teacher: DiceTeacher | None = None
        self._rolls: TableRolls | None = None

    @property
    def running(self) -> bool:
        """Whether sensors run (the page then polls the box)."""
        return self.table is not None

    def status(self, lang: str) -> dict[str, Any]:
        """Whether sensors run, the devices failing now, the recent changes (``problem`` None: it
        came back), the last raw tag read (``card``: what it is enrolled as, or None) and the
        unknown tag waiting to be named."""
        session, table = self.session, self.table
        status = (table.status.snapshot(lang) if table is not None
                  else {"problems": {}, "events": []})
        seen = last_tag(session.data_dir)
        if seen is not None:
            tags = table.tags if table is not None else TagMap(session.data_dir)
            seen = {**seen, "card": tags.card(seen["uid"],
                                              session.game.id if session.game else None)}
        pending = table.pending() if table is not None else None
        return {"running": table is not None, "problems": status["problems"],
                "events": status["events"], "last_tag": seen,
                "pending_tag": None if pending is None else {"uid": pending[0],
                                                              "seconds_left": round(pending[1])}}

    def doctor(self, lang: str) -> list[dict[str, Any]]:
        """``companion doctor``'s checks; the devices the running table holds are judged by its
        status instead of being opened a second time."""
        live = self.table.status if self.table is not None else None
        checks = doctor.run(self.settings, self.session.data_dir, live=live)
        return [check.to_json(lang) for check in checks]

    def pending_tag(self) -> str | None:
        """The unknown tag waiting to be named, if any."""
        pending = self.table.pending() if self.table is not None else None
        return None if pending is None else pending[0]

    def enroll(self, card: str) -> None:
        """Remember that the waiting tag stands for ``card``."""
        if self.table is not None:
            self.table.enroll(card)

    def tags(self) -> TagMap | None:
        """The tag map the running table holds (None when no sensor runs)."""
        return self.table.tags if self.table is not None else None

    def preview(self) -> bytes | None:
        """What the camera sees, with the dice found, as a JPEG (None: no camera or no frame)."""
        tap = self.table.camera if self.table is not None else None
        if tap is None:
            return None
        from .preview import camera_view  # OpenCV: only with a camera

        return camera_view(tap, self.session.expects(), self.session.data_dir)

    def card_picture(self, photo: bytes, name: str, card: str) -> dict[str, Any]:
        """The card of a photo, to teach ``card`` from (:func:`hardware.cards.card_picture`)."""
        from .cards import card_picture  # OpenCV: only when a card is taught from a photo

        return card_picture(photo, name, card, self.session.data_dir)

    def take_card_picture(self, card: str) -> dict[str, Any] | None:
        """The card of the camera's last frame, to teach ``card`` from, as :meth:`card_picture`
        gives it (None: no camera or no frame yet)."""
        tap = self.table.camera if self.table is not None else None
        last = tap.last() if tap is not None else None
        if last is None:
            return None
        from .cards import frame_card_picture  # OpenCV: only when a card is taught

        return frame_card_picture(last[1], card, self.session.data_dir)

    @property
    def teacher(self) -> DiceTeacher:
        """The dice teaching of the data directory (OpenCV is loaded on first use)."""
        if self._teacher is None:
            from .teaching import DiceTeacher

            self._teacher = DiceTeacher(self.session.data_dir)
        return self._teacher

    def dice_profiles(self) -> list[dict[str, Any]]:
        """The die profiles the owner can teach, with their faces and what was taught."""
        return self.teacher.profiles()

    def take_dice_photo(self, profile: str) -> dict[str, Any] | None:
        """Take the camera's last frame as a photo for teaching ``profile`` (None: no camera
        or no frame yet)."""
        tap = self.table.camera if self.table is not None else None
        last = tap.last() if tap is not None else None
        return None if last is None else self.teacher.take(last[1], profile)

    def dice_photo(self, photo: str) -> dict[str, Any] | None:
        """The photo ``photo`` as the page sees it (None: unknown, expired or already taught)."""
        kept = self.teacher.photo(photo)
        return None if kept is None else kept.to_json(photo)

    def dice_crop(self, photo: str, index: int) -> bytes | None:
        """The cut-out (JPEG) of die ``index`` of ``photo``, or None."""
        kept = self.teacher.photo(photo)
        return kept.dice[index].crop if kept is not None and 0 <= index < len(kept.dice) else None

    def teach_dice(self, photo: str, faces: dict[int, str]) -> dict[str, int] | None:
        """Learn each named die of ``photo`` as its face; how many dice each face learned."""
        return self.teacher.teach(photo, faces)

    def forget_dice(self, profile: str, face: str | None) -> int:
        """Forget one taught face of ``profile``, or all of them (None)."""
        return self.teacher.forget(profile, face)

    def dice_example(self, profile: str, face: str, index: int) -> bytes | None:
        """A cut-out (JPEG) kept of a taught face, newest first, or None."""
        return self.teacher.example(profile, face, index)

    @property
    def rolls(self) -> TableRolls:
        """The dice screen's rolls and the table's examples (OpenCV is loaded on first use)."""
        if self._rolls is None:
            from .rolls import TableRolls

            self._rolls = TableRolls(self.session.data_dir)
        return self._rolls

    def roll_profiles(self) -> list[str]:
        """Every installed die profile, pips included: any can be read and confirmed."""
        import vision

        return vision.list_profiles()

    def read_dice_roll(self, profile: str) -> dict[str, Any] | None:
        """Read the camera's last frame for ``profile`` with the table's examples (None: no
        camera or no frame yet)."""
        tap = self.table.camera if self.table is not None else None
        last = tap.last() if tap is not None else None
        return None if last is None else self.rolls.read(last[1], profile, tap.name)

    def dice_roll(self, roll: str) -> dict[str, Any] | None:
        """The roll ``roll`` as :meth:`read_dice_roll` gave it (None: unknown, expired or kept)."""
        kept = self.rolls.roll(roll)
        return None if kept is None else kept.to_json(roll)

    def dice_roll_frame(self, roll: str) -> bytes | None:
        """The frame (JPEG) of roll ``roll``, or None."""
        return self.rolls.frame(roll)

    def confirm_dice_roll(self, roll: str, dice: list[tuple[tuple[int, int, int, int], str]]
                          ) -> dict[str, int] | None:
        """Keep the dice of ``roll`` as the host gave them as examples of this table."""
        return self.rolls.confirm(roll, dice)

    def table_examples(self, profile: str) -> list[dict[str, Any]]:
        """The table's examples of ``profile``, newest first."""
        return self.rolls.examples(profile)

    def table_cut_out(self, profile: str, example: str) -> bytes | None:
        """The cut-out (JPEG) of one of the table's examples, or None."""
        return self.rolls.cut_out(profile, example)

    def forget_table(self, profile: str, example: str | None) -> int:
        """Forget one of the table's examples of ``profile`` (every one when None)."""
        return self.rolls.forget(profile, example)
