"""The table's dice examples in a box file: every die the host confirmed or corrected (its face,
what the reader read, its box, the frame's size, the camera, its description and its cut-out),
per die profile the game reads, exported and imported with the rest of the box.

The examples are ``vision.table``'s files, read and written here as data (the web, which exports
boxes, knows no vision): ``<data dir>/vision/table/<profile>.json`` with the cut-outs beside it
(``<profile>/<id>.jpg``, a profile's ``/`` written ``__``); a test checks that both agree. An
example is identified by its id: one the owner has already is unchanged, or conflicting when it
says otherwise (``replace`` takes the file's word). Examples described by another version of the
face description than the owner's keep their sizes but not their description, as
``vision.table`` itself reads them.
"""

from __future__ import annotations

import base64
import binascii
import json
import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from .engine import Message
from .engine.files import write_atomic

KIND = "dice"
"""The kind of a dice example's entry in the report (its id is ``profile:example``)."""
Outcome = tuple[str, str, Message | None]
"""One example's entry in the report: its id, what importing does and why (refused,
conflicting)."""
FIELDS = ("id", "face", "read", "box", "frame", "camera", "vector", "added")
SAFE_ID = re.compile(r"[0-9A-Za-z_-]{1,64}")
JPEG = b"\xff\xd8"


def table_file(data_dir: Path, profile: str) -> Path:
    """Where the table's examples of ``profile`` are kept (as ``vision.table.table_path``)."""
    return Path(data_dir) / "vision" / "table" / (profile.replace("/", "__") + ".json")


def _cut_out(data_dir: Path, profile: str, example_id: str) -> Path:
    path = table_file(data_dir, profile)
    return path.parent / path.stem / f"{example_id}.jpg"


def _load(data_dir: Path, profile: str) -> tuple[str | None, list[dict[str, Any]]]:
    """The features version and the examples of the owner's table file (none: ``None, []``)."""
    path = table_file(data_dir, profile)
    if not path.exists():
        return None, []
    data = json.loads(path.read_text(encoding="utf-8"))
    return data.get("features"), list(data["examples"])


def export_dice(data_dir: Path, profiles: tuple[str, ...]) -> dict[str, Any]:
    """The table's examples of each of ``profiles`` the owner has, with their cut-outs
    (base64 JPEG, ``None`` when lost)."""
    exported = {}
    for profile in profiles:
        features, examples = _load(data_dir, profile)
        if not examples:
            continue
        rows = []
        for example in examples:
            picture = _cut_out(data_dir, profile, str(example["id"]))
            rows.append({**example, "cut_out": base64.b64encode(picture.read_bytes()).decode()
                         if picture.is_file() else None})
        exported[profile] = {"features": features, "examples": rows}
    return exported


def _refused(entry_id: str, detail: str) -> Outcome:
    return entry_id, "refused", Message("box.bad_dice", {"detail": detail})


def _number(value: Any) -> bool:
    return isinstance(value, int | float) and not isinstance(value, bool)


def _checked(profile: str, raw: Any, index: int
             ) -> tuple[Outcome | None, dict | None, bytes | None]:
    """One example of the file, checked: ``(refusal, None, None)`` or ``(None, example,
    cut-out)``."""
    where = f"{profile}[{index}]"
    if not isinstance(raw, Mapping) or not set(FIELDS) <= set(raw) or \
            not set(raw) <= {*FIELDS, "cut_out"}:
        return _refused(where, "fields: " + ", ".join((*FIELDS, "cut_out"))), None, None
    example_id = raw["id"]
    if not isinstance(example_id, str) or not SAFE_ID.fullmatch(example_id):
        return _refused(where, "id"), None, None
    where = f"{profile}:{example_id}"
    checks = {
        "face": isinstance(raw["face"], str) and bool(raw["face"]),
        "read": raw["read"] is None or isinstance(raw["read"], str),
        "box": isinstance(raw["box"], list) and len(raw["box"]) == 4
        and all(_number(v) for v in raw["box"]),
        "frame": isinstance(raw["frame"], list) and len(raw["frame"]) == 2
        and all(_number(v) and v > 0 for v in raw["frame"]),
        "camera": raw["camera"] is None or isinstance(raw["camera"], str),
        "vector": raw["vector"] is None or isinstance(raw["vector"], list)
        and all(_number(v) for v in raw["vector"]),
        "added": _number(raw["added"]),
    }
    wrong = [name for name, ok in checks.items() if not ok]
    picture = None
    if raw.get("cut_out") is not None:
        try:
            picture = base64.b64decode(str(raw["cut_out"]), validate=True)
        except (binascii.Error, ValueError):
            picture = b""
        if not picture.startswith(JPEG):
            wrong.append("cut_out")
    if wrong:
        return _refused(where, ", ".join(wrong)), None, None
    return None, {name: raw[name] for name in FIELDS}, picture


@dataclass
class DiceImport:
    """What importing a box file's dice examples does: the report's entries, and per profile
    the examples to write (the owner's, then the file's new ones) with their cut-outs."""

    entries: list[Outcome] = field(default_factory=list)
    tables: dict[str, tuple[str | None, list[dict[str, Any]]]] = field(default_factory=dict)
    pictures: dict[str, dict[str, bytes]] = field(default_factory=dict)

    def write(self, data_dir: Path) -> None:
        """Write every changed table file, with its cut-outs."""
        for profile, (features, examples) in self.tables.items():
            for example_id, picture in self.pictures.get(profile, {}).items():
                write_atomic(_cut_out(data_dir, profile, example_id), picture)
            write_atomic(table_file(data_dir, profile), json.dumps(
                {"profile": profile, "features": features, "examples": examples}))


def import_dice(data_dir: Path, dice: Any, profiles: tuple[str, ...],
                replace: bool) -> DiceImport:
    """Check the file's dice examples against the owner's table (``profiles``: those the game
    reads); nothing is written until :meth:`DiceImport.write`."""
    done = DiceImport()
    if not isinstance(dice, Mapping):
        done.entries.append(_refused("*", "an object of die profiles"))
        return done
    for profile, table in dice.items():
        if profile not in profiles:
            done.entries.append((str(profile), "refused", Message(
                "box.unknown_dice", {"profile": profile, "known": ", ".join(profiles) or "-"})))
            continue
        if not isinstance(table, Mapping) or not isinstance(table.get("examples"), list):
            done.entries.append(_refused(profile, '{"features", "examples": [...]}'))
            continue
        features, mine = _load(data_dir, profile)
        if features is None:
            features = table.get("features")
        by_id = {str(e["id"]): i for i, e in enumerate(mine)}
        merged, changed = list(mine), False
        for index, raw in enumerate(table["examples"]):
            refusal, example, picture = _checked(profile, raw, index)
            if refusal is not None:
                done.entries.append(refusal)
                continue
            if table.get("features") != features:  # described otherwise: sizes still count
                example["vector"] = None
            entry_id = f"{profile}:{example['id']}"
            at = by_id.get(example["id"])
            if at is not None and merged[at] == example:
                done.entries.append((entry_id, "unchanged", None))
                continue
            if at is not None and not replace:
                differ = sorted(k for k in FIELDS if merged[at].get(k) != example[k])
                done.entries.append((entry_id, "conflicting",
                                     Message("box.conflict", {"fields": differ})))
                continue
            done.entries.append((entry_id, "added" if at is None else "updated", None))
            if at is None:
                by_id[example["id"]] = len(merged)
                merged.append(example)
            else:
                merged[at] = example
            if picture is not None:
                done.pictures.setdefault(profile, {})[example["id"]] = picture
            changed = True
        if changed:
            done.tables[profile] = (features, merged)
    return done
