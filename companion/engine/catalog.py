"""Owner-completed definitions: what a game's package knows, completed by what the owner taught.

Every game ships the cards, tiles or heroes its rulebook and the public research state, and lets
the owner complete the rest once (printed values that are not public). A :class:`Catalog` holds
the package's definitions by kind and the schema each kind follows, and does the three things all
games need: validate an owner's definition (partially, for something the package already knows),
merge the owner's definitions over the package's, and validate the ``definitions`` field a setup
carries into the journal.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from .errors import RuleError
from .events import Field, Schema, mapping, one_of, text, validate

Definitions = dict[str, dict[str, dict[str, Any]]]
"""kind -> id -> definition"""


@dataclass(frozen=True)
class Catalog:
    """A game's package definitions (kind -> id -> definition) and the schema of each kind."""

    package: Mapping[str, Mapping[str, Mapping[str, Any]]]
    schemas: Mapping[str, Schema]

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
        return validate(f"{kind}.{item}", data, schema, prefix=f"{kind}.{item}.")

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
