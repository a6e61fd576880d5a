"""Attack on Titan: The Last Stand (Cryptozoic / Don't Panic Games, 2017): rules, catalog and
messages."""

from .rules import LastStand

GAME = LastStand()

__all__ = ["GAME", "LastStand"]
