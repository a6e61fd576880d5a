"""Last Heroes (Ludonaute, 2018): rules, catalog and messages of the competitive card game."""

from .rules import LastHeroes

GAME = LastHeroes()

__all__ = ["GAME", "LastHeroes"]
