"""Cards taught from photos, as the companion keeps them: each card's straightened picture,
journaled with the teaching that took it, written into the folder the card camera reads, and
carried in the box file.

A picture travels as JPEG bytes (quality :data:`QUALITY`, the straightened card at the size the
reader straightens it to): 9.6 KB a card in a box file (base64, median; 16.1 KB at most) on the
81 SET cards of ``benchmarks/cards/``, where the card camera's own file, a PNG, is 68 KB. Read
back, a picture lies 0.007 (median) from the original in the reader's distance between looks,
where another photo of the same card lies about 0.07 from it.

The folder (:func:`pictures_folder`) holds ``<card id>.png`` and, for a card taught again,
``<card id>@<anything>.png`` (``vision.cards.Deck``'s files): a picture the journal holds is
``<card id>@j<seq>.png``, one a box file brought ``<card id>@b<first 12 hex digits of its
SHA-256>.png``, so that writing one again is harmless. Pictures are only ever added: a card
taught again, or imported, keeps its earlier pictures (each is one way the card may look).
"""

from __future__ import annotations

import base64
import binascii
import hashlib
import logging
import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from .engine import Message
from .engine.files import write_atomic
from .engine.journal import Learned
from .engine.session import PICTURES

if TYPE_CHECKING:
    import numpy as np

    from .engine import Session

log = logging.getLogger(__name__)

KIND = "picture"
"""The kind of a picture's entry in a box import's report (its id: ``card:n``)."""
DERIVED = "card-pictures"
"""The name of the pictures folder in the journal's ``derived`` table."""
QUALITY = 85
MAX_SIDE = 2048  # pixels: a straightened card is 240 x 360
NOT_JPEG = f"not a whole JPEG image of at most {MAX_SIDE} pixels a side"
JPEG = b"\xff\xd8"
CARD_ID = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_.+-]{0,63}$")  # as vision.cards names a card
Outcome = tuple[str, str, Message | None]


def pictures_folder(data_dir: Path) -> Path:
    """Where the cards taught from photos are kept: beside the owner's definitions."""
    return Path(data_dir) / "definitions" / "photos"


def encode(picture: np.ndarray) -> bytes:
    """A straightened card (BGR pixels) as the JPEG bytes it is journaled and carried as."""
    import cv2

    return cv2.imencode(".jpg", picture, [cv2.IMWRITE_JPEG_QUALITY, QUALITY])[1].tobytes()


def _jpeg_size(data: bytes) -> tuple[int, int] | None:
    """The width and height a JPEG's frame header declares (None: no frame header)."""
    at = 2
    while at + 9 <= len(data) and data[at] == 0xFF:
        marker, length = data[at + 1], int.from_bytes(data[at + 2:at + 4], "big")
        if 0xC0 <= marker <= 0xCF and marker not in (0xC4, 0xC8, 0xCC):
            return int.from_bytes(data[at + 7:at + 9], "big"), \
                int.from_bytes(data[at + 5:at + 7], "big")
        at += 2 + length
    return None


def decode(data: bytes) -> np.ndarray | None:
    """The pixels of a picture's JPEG bytes, or None when they are not a whole JPEG image of
    at most :data:`MAX_SIDE` pixels a side (a few bytes may declare a picture of gigabytes)."""
    import cv2
    import numpy as np

    if not data.startswith(JPEG) or not data.rstrip(b"\0").endswith(b"\xff\xd9"):
        return None  # cut short: OpenCV would decode the half it has
    size = _jpeg_size(data)
    if size is None or not 0 < max(size) <= MAX_SIDE:
        return None
    return cv2.imdecode(np.frombuffer(data, np.uint8), cv2.IMREAD_COLOR)


def taught_picture(card_id: str, jpeg: bytes) -> Learned:
    """What a teaching with a photo learned besides its definition, as the session journals
    it (``Session.submit(..., taught=[...])``)."""
    return PICTURES, card_id, {"jpeg": base64.b64encode(jpeg).decode()}


def _write_png(path: Path, pixels: np.ndarray) -> None:
    import cv2

    write_atomic(path, cv2.imencode(".png", pixels)[1].tobytes())


def sync_pictures(session: Session) -> bool:
    """Write into the pictures folder what the journal taught that it does not hold yet; say
    whether it is now up to date (a failure, a full disk, is tried again at the next teaching
    and when the companion starts: the journal keeps the pictures)."""
    pending = session.pictures_since(DERIVED)
    if not pending:
        return True
    folder = pictures_folder(session.data_dir)
    try:
        for seq, card_id, body in pending:
            path = folder / f"{card_id}@j{seq}.png"
            if not CARD_ID.match(card_id) or path.exists():
                continue
            try:
                pixels = decode(base64.b64decode(body["jpeg"]))
                if pixels is None:
                    raise ValueError("not a JPEG image")
            except (ValueError, KeyError, TypeError) as error:  # kept in the journal, told
                log.warning("the picture of %s taught by event %s is damaged: %s",
                            card_id, seq, error)
                continue
            _write_png(path, pixels)
        session.caught_up(DERIVED, pending[-1][0])
    except OSError as error:
        log.warning("card pictures not yet written from the journal: %s", error)
        return False
    return True


def picture_files(data_dir: Path) -> dict[str, list[Path]]:
    """The picture files of each taught card, by name (``<id>.png`` before ``<id>@….png``)."""
    folder = pictures_folder(data_dir)
    found: dict[str, list[Path]] = {}
    for path in sorted(folder.glob("*.png")) if folder.is_dir() else []:
        found.setdefault(path.stem.split("@")[0], []).append(path)
    return found


def export_pictures(data_dir: Path, known: set[str]) -> dict[str, list[str]]:
    """The pictures of each taught card of ``known`` (the game's cards), base64 JPEG; a
    picture that cannot be read is left out (``companion doctor`` names it)."""
    import cv2

    exported: dict[str, list[str]] = {}
    for card_id, paths in picture_files(data_dir).items():
        if card_id not in known:
            continue
        for path in paths:
            pixels = cv2.imread(str(path))
            if pixels is not None:
                exported.setdefault(card_id, []).append(base64.b64encode(encode(pixels)).decode())
    return exported


@dataclass
class PictureImport:
    """What importing a box file's pictures does: the report's entries and the files to
    write (their pixels, decoded once when they were checked)."""

    entries: list[Outcome] = field(default_factory=list)
    files: dict[Path, np.ndarray] = field(default_factory=dict)

    def write(self) -> None:
        """Write every new picture."""
        for path, pixels in self.files.items():
            _write_png(path, pixels)


def _refused(entry_id: str, detail: str) -> Outcome:
    return entry_id, "refused", Message("box.bad_picture", {"detail": detail})


def import_pictures(data_dir: Path, pictures: Any, known: set[str]) -> PictureImport:
    """Check the file's pictures (``{card id: [base64 JPEG, ...]}``, each card one of
    ``known``); nothing is written until :meth:`PictureImport.write`. A picture the owner
    has already (the same bytes as the owner's exported, or imported before) is unchanged."""
    done = PictureImport()
    if not isinstance(pictures, Mapping):
        done.entries.append(_refused("*", "an object of card ids"))
        return done
    folder = pictures_folder(data_dir)
    names = picture_files(data_dir)
    exported = export_pictures(data_dir, set(names))
    owner = {card_id: {*exported.get(card_id, []), *(p.stem.split("@b")[-1] for p in paths)}
             for card_id, paths in names.items()}
    for card_id, items in pictures.items():
        if not isinstance(card_id, str) or not CARD_ID.match(card_id) or card_id not in known:
            done.entries.append((str(card_id), "refused",
                                 Message("box.unknown_card", {"card": card_id})))
            continue
        if not isinstance(items, list):
            done.entries.append(_refused(card_id, "a list of base64 JPEG pictures"))
            continue
        for index, item in enumerate(items):
            where = f"{card_id}:{index + 1}"
            try:
                jpeg = base64.b64decode(item, validate=True) if isinstance(item, str) else b""
            except (binascii.Error, ValueError):
                jpeg = b""
            if not jpeg:
                done.entries.append(_refused(where, "base64"))
                continue
            pixels = decode(jpeg)
            if pixels is None:
                done.entries.append(_refused(where, NOT_JPEG))
                continue
            digest = hashlib.sha256(jpeg).hexdigest()[:12]
            path = folder / f"{card_id}@b{digest}.png"
            if {item, digest} & owner.get(card_id, set()) or path in done.files:
                done.entries.append((where, "unchanged", None))
                continue
            done.entries.append((where, "added", None))
            done.files[path] = pixels
    return done
