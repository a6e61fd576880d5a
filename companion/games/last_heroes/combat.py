"""Whether loaded weapons kill a monster: one weapon per impact, each at least as strong.

Rulebook, «Attaquer un Monstre»: «Chaque Arme chargée doit fournir un Impact de Force égale ou
supérieure à l'Impact correspondant sur la carte Monstre»; the Impact power lets one weapon count
one force higher («utilisez un HIT! pour un BAM! ou un BAM! pour un POW!»).
"""

from __future__ import annotations

from collections.abc import Sequence


def covers(required: Sequence[int], forces: Sequence[int]) -> bool:
    """Whether the forces match the required impacts one to one, each force at least its impact.

    Pairing the strongest with the strongest is optimal, so sorting both decides it.
    """
    if len(required) != len(forces):
        return False
    return all(f >= r for f, r in zip(sorted(forces), sorted(required), strict=True))


def covers_with_upgrade(required: Sequence[int], forces: Sequence[int]) -> bool:
    """Whether the forces cover the impacts once one of them (below POW!) counts one higher."""
    for i, force in enumerate(forces):
        if force < 3 and covers(required, [*forces[:i], force + 1, *forces[i + 1:]]):
            return True
    return False
