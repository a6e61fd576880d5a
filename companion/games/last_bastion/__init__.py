"""Last Bastion (Repos Production, 2019), the flagship game: rules, catalog and messages."""

from .rules import LastBastion

GAME = LastBastion()

__all__ = ["GAME", "LastBastion"]
