"""What every request handler reaches: the session, the hub, the host guards, the simulator,
the box (the sensors, as the host page sees them) and the secret roles' tokens."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Protocol

from flask import current_app, request

from companion.engine import Session
from companion.engine.tags import TagMap
from companion.simulator import Simulator

from .auth import HostSessions, LoginLimiter, PinStore, RoleTokens, SetupCode
from .config import WebConfig
from .hub import Hub
from .texts import LANGUAGES, pick_language, ui_texts

EXTENSION = "companion"


class Box(Protocol):
    """What the host page shows of the box and asks of it."""

    running: bool

    def status(self, lang: str) -> dict[str, Any]:
        """The sensors' live status: ``running``, ``problems``, ``events``, ``last_tag``,
        ``pending_tag``."""

    def doctor(self, lang: str) -> list[dict[str, Any]]:
        """``companion doctor``'s checks, JSON-ready (each has ``ok``: True, False or None)."""

    def pending_tag(self) -> str | None:
        """The unknown tag waiting to be named, if any."""

    def enroll(self, card: str) -> None:
        """Remember that the waiting tag stands for ``card``."""

    def preview(self) -> bytes | None:
        """What the camera sees, with the dice found, as a JPEG (None: no camera or no frame)."""

    def tags(self) -> TagMap | None:
        """The tag map the running sensors hold (None: read the data directory's file)."""

    def card_picture(self, photo: bytes, name: str, card: str) -> dict[str, Any]:
        """The card nearest the centre of ``photo`` (a file's bytes, called ``name``),
        straightened to teach ``card`` from: ``jpeg`` (its picture) and ``alike`` (taught cards
        it looks like), or ``problem`` (by language: no image, no card in it)."""

    def take_card_picture(self, card: str) -> dict[str, Any] | None:
        """The card nearest the centre of what the camera sees, as :meth:`card_picture` gives
        it; None: no camera frame."""

    def dice_profiles(self) -> list[dict[str, Any]]:
        """The die profiles the owner can teach: each ``profile``, its ``faces``, the examples
        ``taught`` per face, how many ``examples`` (cut-outs) of each face can be shown and the
        ``problem`` (by language, else None) when what was taught cannot be read."""

    def take_dice_photo(self, profile: str) -> dict[str, Any] | None:
        """Take what the camera sees as a photo for teaching ``profile``: ``photo`` (its id),
        ``profile`` and ``dice`` (each ``index`` and ``reading``); None: no camera frame."""

    def dice_photo(self, photo: str) -> dict[str, Any] | None:
        """The photo ``photo`` as :meth:`take_dice_photo` gave it (None: unknown, expired or
        already taught)."""

    def dice_crop(self, photo: str, index: int) -> bytes | None:
        """The cut-out of die ``index`` of ``photo`` as a JPEG (None: no such photo or die)."""

    def teach_dice(self, photo: str, faces: dict[int, str]) -> dict[str, int] | None:
        """Learn die ``i`` of ``photo`` as face ``faces[i]`` for each ``i`` named, and nothing
        else; returns how many dice each face learned, once on disk (None: no such photo).
        The faces and indexes were checked against :meth:`dice_profiles` and the photo."""

    def forget_dice(self, profile: str, face: str | None) -> int:
        """Forget a taught ``face`` of ``profile`` (None: every face, back to the shipped
        defaults); returns how many examples were dropped."""

    def dice_example(self, profile: str, face: str, index: int) -> bytes | None:
        """The ``index``-th cut-out kept of a taught face, newest first, as a JPEG, or None."""

    def roll_profiles(self) -> list[str]:
        """The die profiles a roll can be read and confirmed for (pips included)."""

    def read_dice_roll(self, profile: str) -> dict[str, Any] | None:
        """Read what the camera sees for ``profile`` with the table's examples and keep it:
        ``roll`` (its id), ``profile``, ``faces``, ``width``, ``height``, ``notes`` and ``dice``
        (each ``index``, ``box``, ``face``, ``confidence``, ``uncertain``); None: no frame."""

    def dice_roll(self, roll: str) -> dict[str, Any] | None:
        """The roll ``roll`` as :meth:`read_dice_roll` gave it (None: unknown, expired or
        already confirmed)."""

    def dice_roll_frame(self, roll: str) -> bytes | None:
        """The frame of roll ``roll`` as a JPEG (None: no such roll)."""

    def confirm_dice_roll(self, roll: str, dice: list[tuple[tuple[int, int, int, int], str]]
                          ) -> dict[str, int] | None:
        """Keep the dice of ``roll`` as the host gave them (box, face) as examples of this
        table; returns how many were ``added``, ``corrected`` and ``missed``, once on disk
        (None: no such roll). The faces and boxes were checked against the roll."""

    def table_examples(self, profile: str) -> list[dict[str, Any]]:
        """The table's examples of ``profile``, newest first (``id``, ``face``, ``read``,
        ``corrected``, ``camera``, ``added``)."""

    def table_cut_out(self, profile: str, example: str) -> bytes | None:
        """The cut-out (JPEG) of one of the table's examples, or None."""

    def forget_table(self, profile: str, example: str | None) -> int:
        """Forget one of the table's examples (None: every one of ``profile``); how many."""


class NoBox:
    """The box of an app given none (tests, a page without a table): nothing runs."""

    running = False

    def status(self, lang: str) -> dict[str, Any]:
        """Nothing runs and nothing was seen."""
        return {"running": False, "problems": {}, "events": [], "last_tag": None,
                "pending_tag": None}

    def doctor(self, lang: str) -> list[dict[str, Any]]:
        """No checks: there is no box to check."""
        return []

    def pending_tag(self) -> str | None:
        """No tag is ever waiting."""
        return None

    def enroll(self, card: str) -> None:
        """Never called: no tag is waiting."""

    def preview(self) -> bytes | None:
        """No camera."""
        return None

    def tags(self) -> TagMap | None:
        """No sensors hold the tag map."""
        return None

    def card_picture(self, photo: bytes, name: str, card: str) -> dict[str, Any]:
        """No card reader without a box."""
        return {"problem": {lang: ui_texts(lang)["teach.photo_no_reader"] for lang in LANGUAGES}}

    def take_card_picture(self, card: str) -> dict[str, Any] | None:
        """No camera."""
        return None

    def dice_profiles(self) -> list[dict[str, Any]]:
        """Nothing to teach without a box."""
        return []

    def take_dice_photo(self, profile: str) -> dict[str, Any] | None:
        """No camera."""
        return None

    def dice_photo(self, photo: str) -> dict[str, Any] | None:
        """No photo was ever taken."""
        return None

    def dice_crop(self, photo: str, index: int) -> bytes | None:
        """No photo was ever taken."""
        return None

    def teach_dice(self, photo: str, faces: dict[int, str]) -> dict[str, int] | None:
        """No photo was ever taken."""
        return None

    def forget_dice(self, profile: str, face: str | None) -> int:
        """Nothing was taught."""
        return 0

    def dice_example(self, profile: str, face: str, index: int) -> bytes | None:
        """Nothing was taught."""
        return None

    def roll_profiles(self) -> list[str]:
        """No camera reads any."""
        return []

    def read_dice_roll(self, profile: str) -> dict[str, Any] | None:
        """No camera."""
        return None

    def dice_roll(self, roll: str) -> dict[str, Any] | None:
        """No roll was ever read."""
        return None

    def dice_roll_frame(self, roll: str) -> bytes | None:
        """No roll was ever read."""
        return None

    def confirm_dice_roll(self, roll: str, dice: list[tuple[tuple[int, int, int, int], str]]
                          ) -> dict[str, int] | None:
        """No roll was ever read."""
        return None

    def table_examples(self, profile: str) -> list[dict[str, Any]]:
        """No table without a box."""
        return []

    def table_cut_out(self, profile: str, example: str) -> bytes | None:
        """No table without a box."""
        return None

    def forget_table(self, profile: str, example: str | None) -> int:
        """No table without a box."""
        return 0


@dataclass
class Companion:
    """The objects one web app shares between its requests.

    ``box`` is the sensors' side of the host page (:class:`web.box.Box`); ``setup`` the
    one-time code that allows choosing the first PIN (``setup.current()``: what ``companion run``
    prints and the table says, None once a PIN exists).
    """

    session: Session
    config: WebConfig
    hub: Hub
    pins: PinStore
    hosts: HostSessions
    limiter: LoginLimiter
    simulator: Simulator | None
    box: Box
    roles: RoleTokens
    setup: SetupCode


def current() -> Companion:
    """The companion of the app handling this request."""
    return current_app.extensions[EXTENSION]


def request_lang() -> str:
    """The language to answer in: ``?lang=``, the ``X-Companion-Lang`` header, the browser's
    preference, else the configured language."""
    chosen = request.args.get("lang") or request.headers.get("X-Companion-Lang")
    return pick_language(chosen, request.accept_languages, current().config.lang)
