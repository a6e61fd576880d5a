"""Owner-completed definitions: what a game's package knows, completed by what the owner taught.

Every game ships the cards, tiles or heroes its rulebook and the public research state, and lets
the owner complete the rest once (printed values that are not public). A :class:`Catalog` holds
the package's definitions by kind and the schema each kind follows, and does the three things all
games need: validate an owner's definition (partially, for something the package already knows),
merge the owner's definitions over the package's, and validate the ``definitions`` field a setup
carries into the journal. :class:`OwnerTaught` gives a game the two :class:`~.game.Game` methods
that read its catalog, and :func:`learn` is how a rules module adds what the owner teaches during
a game.
"""

from __future__ import annotations

import copy
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from .capabilities import Capabilities
from .errors import RuleError
from .events import Checker, Field, Schema, mapping, one_of, text, validate
from .messages import Outcome

Definitions = dict[str, dict[str, dict[str, Any]]]
"""kind -> id -> definition"""


Refine = Callable[[str, str, dict[str, Any]], None]
"""A game's own check of a definition beyond its schema: (kind, id, definition) -> None, raising
RuleError (e.g. a health track whose zones are out of order)."""


@dataclass(frozen=True)
class Catalog:
    """A game's package definitions (kind -> id -> definition), the schema of each kind, and
    optionally the game's own further check."""

    package: Mapping[str, Mapping[str, Mapping[str, Any]]]
    schemas: Mapping[str, Schema]
    refine: Refine | None = None

    @property
    def kinds(self) -> tuple[str, ...]:
        """The kinds of definition the owner may teach."""
        return tuple(self.schemas)

    def check(self, kind: str, item: str, data: Any) -> dict[str, Any]:
        """Validate one owner definition and return it normalised.

        A definition of something the package already knows may give only the fields it completes.
        """
        if kind not in self.schemas:
            raise RuleError("definition.unknown_kind", kind=kind, known=list(self.kinds))
        if not isinstance(data, Mapping):
            raise RuleError("event.bad_field", field=f"{kind}.{item}", expected="an object",
                            got=data)
        schema = self.schemas[kind]
        if item in self.package.get(kind, {}):
            schema = {name: Field(spec.check, required=False) for name, spec in schema.items()}
        clean = validate(f"{kind}.{item}", data, schema, prefix=f"{kind}.{item}.")
        if self.refine is not None:
            self.refine(kind, item, clean)
        return clean

    def check_entry(self, kind: str, data: Mapping[str, Any]) -> dict[str, Any]:
        """Validate a definition that carries its own ``id`` (the form ``Game.check_definition``
        takes, from the terminal and the phone)."""
        fields = dict(data)
        item = fields.pop("id", None)
        if not isinstance(item, str) or not item:
            raise RuleError("event.missing_field", event="definition", field="id")
        return self.check(kind, item, fields)

    def merged(self, owner: Mapping[str, Mapping[str, Any]]) -> Definitions:
        """The package's definitions completed by the owner's (the owner wins, field by field)."""
        result: Definitions = {}
        for kind in self.kinds:
            result[kind] = {item: dict(data) for item, data in self.package.get(kind, {}).items()}
            for item, data in owner.get(kind, {}).items():
                result[kind].setdefault(item, {}).update(data)
        return result

    def check_owner(self, value: Any, path: str) -> Definitions:
        """A setup's ``definitions`` field: every owner definition, each validated (a checker)."""
        kinds = mapping(one_of(*self.kinds), mapping(text, lambda v, p: v))(value, path)
        return {kind: {item: self.check(kind, item, data) for item, data in items.items()}
                for kind, items in kinds.items()}


class OwnerTaught:
    """The :class:`~.game.Game` methods of a game whose definitions are its ``catalog``."""

    catalog: Catalog
    capabilities = Capabilities()

    def known_definitions(self, owner: Mapping[str, Any]) -> Definitions:
        """The package's definitions completed by the owner's, by kind and id."""
        return self.catalog.merged(owner)

    def check_definition(self, kind: str, data: Mapping[str, Any]) -> dict[str, Any]:
        """Validate an owner's definition; its id is part of ``data`` as ``id``."""
        return self.catalog.check_entry(kind, data)


def working_copy(state: dict[str, Any]) -> dict[str, Any]:
    """A copy of a game state for ``apply`` to change: everything is copied but the catalog,
    which states share until something is taught (:func:`learn` copies it then). A page's
    offers try a score of events on copies for every view, so the copy is made for what a
    state is, a JSON tree, twice as fast as ``deepcopy``: a value held in two places (Last
    Bastion's tasks share their ``source``, never changed) becomes two equal values, as in a
    state read back from JSON."""
    return {key: value if key == "catalog" else _copied(value) for key, value in state.items()}


_SCALARS = (str, int, float, bool, type(None))


def _copied(value: Any) -> Any:
    """A deep copy of a JSON-shaped value; anything else is left to ``copy.deepcopy``."""
    kind = type(value)
    if kind is dict:
        return {key: _copied(item) for key, item in value.items()}
    if kind is list:
        return [_copied(item) for item in value]
    if kind in _SCALARS:
        return value
    return copy.deepcopy(value)


def learn(state: dict[str, Any], kind: str, item: str, definition: dict[str, Any],
          out: Outcome) -> None:
    """Complete a definition in a game state's ``catalog`` and have the session remember it for
    later games (``out.learned``). The catalog is copied, never changed in place: earlier states
    share it, and undo goes back to them."""
    catalog = dict(state["catalog"])
    catalog[kind] = {**catalog[kind], item: {**catalog[kind].get(item, {}), **definition}}
    state["catalog"] = catalog
    out.learned.append((kind, item, definition))


LANGUAGES = ("en", "fr", "es")
"""The languages the companion speaks, in the order the page's switch goes round them: the one
line of configuration of a language (each also has an ``<code>.json`` in every catalog folder,
and its names in the games' ``catalog.json``; docs/languages.md)."""


def localized(value: Any, lang: str = "fr") -> str:
    """A printed name or text in one language, whatever form it was given in (one string, or one
    per language)."""
    if isinstance(value, Mapping):
        return value.get(lang) or next(iter(value.values()), "")
    return value or ""


def vocabulary(ops: Mapping[str, Schema]) -> Checker:
    """A checker for one effect of a game's vocabulary, e.g. ``{"op": "lose", "token": "life"}``:
    ``op`` names the primitive, the other fields follow its schema."""

    def check(value: Any, path: str) -> dict[str, Any]:
        if not isinstance(value, Mapping) or value.get("op") not in ops:
            raise RuleError("effect.unknown", field=path, got=value, known=sorted(ops))
        fields = {k: v for k, v in value.items() if k != "op"}
        return {"op": value["op"], **validate(path, fields, ops[value["op"]], prefix=f"{path}.")}

    return check
