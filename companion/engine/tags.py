"""The tag → card map, kept in the data directory as ``tags.json``.

A tag stands for one card of one game (the same sticker may not mean two cards). UIDs are
canonical upper-case hex. The file is rewritten atomically (a flushed ``.tmp-*`` file renamed
over it, swept away by the next writer if a crash leaves it), so a power cut never leaves half of
it; a damaged file is reported and set aside instead of stopping the companion. Only the writer
of the data directory changes it: the running companion, or ``companion tags`` under the
directory's lock (:mod:`companion.engine.lock`).
"""

from __future__ import annotations

import json
import logging
import os
import threading
from pathlib import Path
from typing import Any

from .files import write_atomic
from .paths import DataPaths

log = logging.getLogger(__name__)

_SEPARATORS = str.maketrans("", "", ":- \t\r\n")


def canonical_uid(raw: bytes | bytearray | str) -> str:
    """A UID as upper-case hex without separators: ``b"\\x04\\xa1"`` and ``"04:a1"`` give
    ``"04A1"``. Raises ValueError when it is not a whole number of hex bytes."""
    text = raw.hex() if isinstance(raw, bytes | bytearray) else raw.translate(_SEPARATORS)
    if not text or len(text) % 2 or any(c not in "0123456789abcdefABCDEF" for c in text):
        raise ValueError(f"not a tag UID: {raw!r}")
    return text.upper()


class TagMap:
    """Which card each RFID tag stands for: ``{uid: {"card": id, "game": game_id}}``."""

    def __init__(self, data_dir: Path | str) -> None:
        self.path = DataPaths(Path(data_dir)).tags
        self._lock = threading.Lock()
        self._tags = self._load()

    def _load(self) -> dict[str, dict[str, Any]]:
        try:
            data = json.loads(self.path.read_text(encoding="utf-8"))
            return {canonical_uid(uid): dict(entry) for uid, entry in data["tags"].items()}
        except FileNotFoundError:
            return {}
        except (OSError, ValueError, KeyError, TypeError, AttributeError) as exc:
            broken = self.path.with_suffix(".broken")
            log.error("%s is damaged (%s); kept as %s, starting with no tags",
                      self.path, exc, broken)
            os.replace(self.path, broken)
            return {}

    def card(self, uid: str, game: str | None = None) -> str | None:
        """The card a tag stands for (in ``game``, if given), or None when it is unknown."""
        entry = self._tags.get(canonical_uid(uid))
        if entry is None or (game is not None and entry.get("game") not in (None, game)):
            return None
        return entry["card"]

    def items(self) -> list[tuple[str, dict[str, Any]]]:
        """Every known tag, sorted by UID."""
        return sorted(self._tags.items())

    def enroll(self, uid: str, card: str, game: str | None = None) -> None:
        """Remember that a tag stands for ``card`` (written first: a disk that refuses the
        write raises and the map is unchanged)."""
        with self._lock:
            self._save({**self._tags, canonical_uid(uid): {"card": card, "game": game}})

    def forget(self, uid: str) -> bool:
        """Forget a tag; False when it was not known."""
        uid = canonical_uid(uid)
        with self._lock:
            found = uid in self._tags
            if found:
                self._save({known: entry for known, entry in self._tags.items() if known != uid})
        return found

    def _save(self, tags: dict[str, dict[str, Any]]) -> None:
        """Write ``tags``, then make them the map in memory."""
        write_atomic(self.path, json.dumps({"tags": tags}, indent=1, sort_keys=True))
        self._tags = tags
