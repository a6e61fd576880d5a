"""The owner's definitions (cards, tiles, ... taught once), kept in the data directory."""

from __future__ import annotations

import json
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from .errors import StoreError
from .files import write_atomic
from .paths import DataPaths


def merge_taught(data: dict[str, dict[str, dict[str, Any]]],
                 items: Iterable[tuple[str, str, dict[str, Any]]]) -> None:
    """Merge taught definitions (kind, id, definition) into ``data``, in order, field by field:
    a teaching gives the parts of a card it knows (its arrival effect, later its recurring
    one), so each keeps what the earlier ones taught, as the game's own catalog does."""
    for kind, item_id, definition in items:
        stored = data.setdefault(kind, {})
        stored[item_id] = {**stored.get(item_id, {}), **definition}


class DefinitionStore:
    """A JSON file per game mapping kind -> id -> definition, written atomically.

    The package ships what the rulebooks state; what the owner reads off their own cards lives
    here, so that an upgrade never overwrites it and a new game starts with all of it. What a
    ``teach`` event taught is first committed in the journal with the event (its ``learned``
    table), then written here; the session brings this file up to date from the journal when it
    opens, so a crash or a full disk between the two never loses a taught definition.
    """

    def __init__(self, data_dir: Path, game_id: str) -> None:
        self.path = DataPaths(Path(data_dir)).definitions(game_id)

    def load(self) -> dict[str, dict[str, dict[str, Any]]]:
        """All definitions, or an empty set if the owner has taught nothing yet."""
        try:
            raw = self.path.read_text(encoding="utf-8")
        except FileNotFoundError:
            return {}
        except OSError as exc:
            raise StoreError("store.unreadable", path=str(self.path),
                             detail=exc.strerror) from None
        try:
            data = json.loads(raw)
        except json.JSONDecodeError as exc:
            raise StoreError("store.definitions_json", path=str(self.path), line=exc.lineno,
                             detail=exc.msg) from None
        if not isinstance(data, dict) or not all(isinstance(v, dict) for v in data.values()):
            raise StoreError("store.definitions_shape", path=str(self.path))
        return data

    def save(self, kind: str, item_id: str, definition: dict[str, Any]) -> None:
        """Add one definition, or complete the stored one with its fields."""
        self.save_all([(kind, item_id, definition)])

    def save_all(self, items: Iterable[tuple[str, str, dict[str, Any]]]) -> None:
        """Add or complete several definitions (kind, id, definition) in one write: each is
        merged field by field over what is stored (:func:`merge_taught`), never replacing a
        whole definition with a partial one."""
        data = self.load()
        merge_taught(data, items)
        self._write(data)

    def replace(self, data: dict[str, dict[str, dict[str, Any]]]) -> None:
        """Write every definition at once (a box file imported whole, or not at all)."""
        self._write(data)

    def forget(self, kind: str, item_id: str) -> bool:
        """Remove one definition; say whether it existed."""
        data = self.load()
        if item_id not in data.get(kind, {}):
            return False
        del data[kind][item_id]
        self._write(data)
        return True

    def _write(self, data: dict[str, Any]) -> None:
        write_atomic(self.path, json.dumps(data, ensure_ascii=False, indent=2, sort_keys=True))
