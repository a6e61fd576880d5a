"""The owner's definitions (cards, tiles, ... taught once), kept in the data directory."""

from __future__ import annotations

import json
import os
import tempfile
from pathlib import Path
from typing import Any

from .errors import StoreError


class DefinitionStore:
    """A JSON file per game mapping kind -> id -> definition, written atomically.

    The package ships what the rulebooks state; what the owner reads off their own cards lives
    here, so that an upgrade never overwrites it and a new game starts with all of it.
    """

    def __init__(self, data_dir: Path, game_id: str) -> None:
        self.path = Path(data_dir) / "definitions" / f"{game_id}.json"

    def load(self) -> dict[str, dict[str, dict[str, Any]]]:
        """All definitions, or an empty set if the owner has taught nothing yet."""
        try:
            raw = self.path.read_text(encoding="utf-8")
        except FileNotFoundError:
            return {}
        except OSError as exc:
            raise StoreError(f"{self.path}: cannot be read ({exc.strerror})") from None
        try:
            data = json.loads(raw)
        except json.JSONDecodeError as exc:
            raise StoreError(
                f"{self.path}: not valid JSON (line {exc.lineno}: {exc.msg}); fix or move it"
            ) from None
        if not isinstance(data, dict) or not all(isinstance(v, dict) for v in data.values()):
            raise StoreError(f"{self.path}: expected an object of kinds; fix or move it")
        return data

    def save(self, kind: str, item_id: str, definition: dict[str, Any]) -> None:
        """Add or replace one definition."""
        data = self.load()
        data.setdefault(kind, {})[item_id] = definition
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
        self.path.parent.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(dir=self.path.parent, prefix=".tmp-", suffix=".json")
        with os.fdopen(fd, "w", encoding="utf-8") as out:
            json.dump(data, out, ensure_ascii=False, indent=2, sort_keys=True)
            out.flush()
            os.fsync(out.fileno())
        os.replace(tmp, self.path)
