"""Runemasters is said by name in both languages (that every key has a text in both is
tests/engine/test_i18n.py's job for every installed game)."""

from __future__ import annotations

from companion.engine import Message
from companion.games.runemasters import GAME
from companion.i18n import render


def test_names_are_translated():
    """Cards, paths and runes are shown by their names, not their ids."""
    message = Message("monster.appears", {"card": "shadow-green", "path": "green", "space": 2})
    assert render(message, "fr", GAME) == "Ombre verte apparaît sur la case 2 du chemin vert."
    assert render(message, "en", GAME) == "Green Shadow appears on space 2 of the green path."
    warning = Message("warning.unguarded", {"path": "red"})
    assert render(warning, "en", GAME) == "The red path is unguarded!"
    assert render(Message("dice.rolled", {"faces": ["violet", "white"]}), "fr",
                  GAME) == "Runes : violet, blanc."
