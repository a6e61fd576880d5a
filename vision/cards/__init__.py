"""Cards by camera: teach a card from one photo, name it when it is shown again.

:class:`Deck` keeps the taught cards (one straightened picture each) in a folder it is given;
:func:`read_cards` finds every card in a frame, straightens it and names it against the deck,
or says it is a card not taught (``id`` None), or marks the reading uncertain when two taught
cards look alike. Like the dice reader, it names no game and knows nothing of the companion.
"""

from .deck import CardSeen, CardsRead, Deck, Taught, read_cards
from .find import CardSpot, find_cards, straighten

__all__ = ["CardSeen", "CardSpot", "CardsRead", "Deck", "Taught", "find_cards", "read_cards",
           "straighten"]
