"""A box in one file: every definition an owner taught for one game (cards, tiles, heroes,
boards, dice faces...), the RFID tags that stand for its cards, the table's dice examples
(:mod:`companion.boxdice`) and the pictures of the cards taught from photos
(:mod:`companion.cardphotos`), to keep, to move to another companion, or to share with other owners
of the same box (format: docs/cards.md, "A box in one file").

Importing checks the whole file before writing anything: each entry is validated by the game's
own schemas and compared with what the owner already taught, and the report says, entry by
entry, whether it is added, updated (it only completes the owner's definition), unchanged,
conflicting (it says otherwise than the owner; ``replace`` takes the file's word) or refused
(with the reason). A file with a refused or conflicting entry changes nothing.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from companion.engine.tags import TagMap, canonical_uid

from .boxdice import KIND as DICE
from .boxdice import export_dice, import_dice
from .cardphotos import KIND as PICTURE
from .cardphotos import export_pictures, import_pictures
from .engine import DefinitionStore, Game, Message, RuleError, find_game

FORMAT = "table-companion/box"
VERSION = 1
TAGS = "tag"
"""The pseudo-kind of a tag's entry in the report (its id is the tag's UID)."""


def export_box(data_dir: Path, game: Game, tags: TagMap | None = None) -> dict[str, Any]:
    """Everything the owner taught for ``game``, as one JSON-ready object."""
    tags = tags if tags is not None else TagMap(data_dir)
    owner = DefinitionStore(data_dir, game.id).load()
    return {"format": FORMAT, "version": VERSION, "game": game.id,
            "definitions": owner,
            "tags": {uid: entry["card"] for uid, entry in tags.items()
                     if entry.get("game") in (None, game.id)},
            "dice": export_dice(data_dir, game.capabilities.dice),
            "pictures": export_pictures(data_dir, _known(game, owner))}


def _known(game: Game, definitions: Mapping[str, Any]) -> set[str]:
    """Every id of ``game``'s definitions (its catalog's and the owner's): the cards a tag or a
    picture may stand for."""
    return {item for items in game.known_definitions(definitions).values() for item in items}


@dataclass
class Entry:
    """What importing one entry of a box file does (``reason``: why it is refused or in
    conflict)."""

    kind: str
    id: str
    outcome: str
    reason: Message | None = None

    def to_json(self) -> dict[str, Any]:
        return {"kind": self.kind, "id": self.id, "outcome": self.outcome,
                "reason": self.reason.to_json() if self.reason else None}


@dataclass
class Report:
    """The outcome of an import: per entry, and whether anything was written."""

    game: str
    entries: list[Entry] = field(default_factory=list)
    written: bool = False

    def count(self, outcome: str) -> int:
        return sum(e.outcome == outcome for e in self.entries)

    @property
    def blocked(self) -> bool:
        """Whether an entry stops the import (refused, or conflicting without ``replace``)."""
        return any(e.outcome in ("refused", "conflicting") for e in self.entries)

    def summary(self) -> Message:
        """One sentence: what was imported, or why nothing was."""
        counts = {o: self.count(o) for o in ("added", "updated", "unchanged", "conflicting",
                                             "refused")}
        return Message("box.imported" if self.written else "box.not_imported",
                       {"game": self.game, **counts})

    def to_json(self) -> dict[str, Any]:
        return {"game": self.game, "written": self.written,
                "entries": [e.to_json() for e in self.entries],
                "summary": self.summary().to_json()}


def _header(box: Any) -> Game:
    """The game of a box file, after checking that it is one."""
    if not isinstance(box, Mapping) or box.get("format") != FORMAT:
        raise RuleError("box.not_a_box", expected=FORMAT,
                        got=box.get("format") if isinstance(box, Mapping) else type(box).__name__)
    if box.get("version") != VERSION:
        raise RuleError("box.version", version=box.get("version"), known=VERSION)
    for name, kind in (("definitions", Mapping), ("tags", Mapping), ("dice", Mapping),
                       ("pictures", Mapping)):
        if not isinstance(box.get(name, {}), kind):
            raise RuleError("event.bad_field", field=name, expected="an object",
                            got=type(box.get(name)).__name__)
    return find_game(box.get("game"))


def _definition(game: Game, owner: Mapping[str, Any], kind: str, item: str, data: Any,
                replace: bool) -> tuple[Entry, dict[str, Any] | None]:
    """One definition of the file: its entry in the report and what the owner's becomes."""
    try:
        if not isinstance(data, Mapping):
            raise RuleError("event.bad_field", field=f"{kind}.{item}", expected="an object",
                            got=type(data).__name__)
        checked = game.check_definition(kind, {"id": item, **data})
    except RuleError as error:
        return Entry(kind, item, "refused", Message(error.key, error.params)), None
    mine = owner.get(kind, {}).get(item)
    if mine is None:
        return Entry(kind, item, "added"), checked
    if mine == checked:
        return Entry(kind, item, "unchanged"), None
    differ = sorted(k for k in checked if k in mine and mine[k] != checked[k])
    if differ and not replace:
        return Entry(kind, item, "conflicting", Message("box.conflict", {"fields": differ})), None
    return Entry(kind, item, "updated"), {**mine, **checked}


def _tag(game: Game, known: Mapping[str, Any], tags: TagMap, uid: Any, card: Any,
         replace: bool) -> tuple[Entry, tuple[str, str] | None]:
    """One tag of the file: its entry in the report and the (uid, card) to enroll."""
    try:
        canonical = canonical_uid(str(uid))
    except ValueError as error:
        refused = Message("box.bad_tag", {"detail": str(error)})
        return Entry(TAGS, str(uid), "refused", refused), None
    if not isinstance(card, str) or card not in known:
        return Entry(TAGS, canonical, "refused", Message("box.unknown_card", {"card": card})), None
    mine = tags.card(canonical)
    if mine == card:
        return Entry(TAGS, canonical, "unchanged"), None
    if mine is not None and not replace:
        return Entry(TAGS, canonical, "conflicting",
                     Message("box.tag_conflict", {"card": mine})), None
    return Entry(TAGS, canonical, "added" if mine is None else "updated"), (canonical, card)


def import_box(data_dir: Path, box: Any, replace: bool = False,
               tags: TagMap | None = None) -> Report:
    """Check a whole box file, then write it all, or nothing when an entry is refused or in
    conflict (``replace``: the file's values win over the owner's)."""
    game = _header(box)
    tags = tags if tags is not None else TagMap(data_dir)
    store = DefinitionStore(data_dir, game.id)
    owner = store.load()
    report = Report(game.id)
    merged = {kind: dict(items) for kind, items in owner.items()}
    for kind, items in box.get("definitions", {}).items():
        if not isinstance(items, Mapping):
            report.entries.append(Entry(kind, "*", "refused", Message("event.bad_field", {
                "field": kind, "expected": "an object", "got": type(items).__name__})))
            continue
        for item, data in items.items():
            entry, definition = _definition(game, owner, kind, item, data, replace)
            report.entries.append(entry)
            if definition is not None:
                merged.setdefault(kind, {})[item] = definition
    known = _known(game, merged)
    enrolled = []
    for uid, card in box.get("tags", {}).items():
        entry, tag = _tag(game, known, tags, uid, card, replace)
        report.entries.append(entry)
        if tag is not None:
            enrolled.append(tag)
    dice = import_dice(data_dir, box.get("dice", {}), game.capabilities.dice, replace)
    report.entries += [Entry(DICE, item, outcome, reason) for item, outcome, reason in dice.entries]
    pictures = import_pictures(data_dir, box.get("pictures", {}), known)
    report.entries += [Entry(PICTURE, item, outcome, reason)
                       for item, outcome, reason in pictures.entries]
    if report.blocked:
        return report
    if merged != owner:
        store.replace(merged)
    dice.write(data_dir)
    pictures.write()
    for uid, card in enrolled:
        tags.enroll(uid, card, game.id)
    report.written = True
    return report
