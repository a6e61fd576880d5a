"""Runemasters (Funforge, 2024): rules with the monster march automated, catalog and messages."""

from .rules import Runemasters

GAME = Runemasters()

__all__ = ["GAME", "Runemasters"]
