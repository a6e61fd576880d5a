"""The box as the host page sees it: the sensors' live status, ``companion doctor``'s report and
naming an unknown RFID tag.

The web app knows only the small interface :class:`web.box.Box`; this is the hardware's side of it,
built by the composition root (``companion run``). When no sensor runs (a plain ``--simulate``)
the box shows the last tag a previous run saw, and the doctor opens the devices itself, as
``companion doctor`` does.
"""

from __future__ import annotations

from typing import Any

from companion.config import Config
from companion.engine import Session
from companion.engine.tags import TagMap

from . import doctor
from .status import last_tag
from .table import Table


class HardwareBox:
    """The running table (None when no sensor runs) and the settings it was built from."""

    def __init__(self, session: Session, settings: Config, table: Table | None = None) -> None:
        self.session = session
        self.settings = settings
        self.table = table

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
