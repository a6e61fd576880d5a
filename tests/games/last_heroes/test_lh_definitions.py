"""The owner completes the printed values that are not public (docs/cards-last-heroes.md), and
every message has a text in French and English.

Components from ../shared/research/components.md §4: «Ammo needed / ammo printed per card: not
found», «Points per monster: printed on each card; values not found».
"""

from __future__ import annotations

import json

import pytest
from lastheroes_helpers import CHARGERS, load, play, refused, setup_event, start

from companion.engine import Message, RuleError
from companion.games.last_heroes import GAME
from companion.i18n import render


def test_an_unknown_card_is_defined_as_it_is_played_and_kept(session, tmp_path):
    """An owner-numbered card whose ammo is unknown is refused until defined; the definition
    given with the card is saved in the data directory and used by the next game."""
    chargers = {card: {"ammo": 2} for cards in CHARGERS.values() for card in cards}
    start(session, definitions={"weapon": chargers, "monster": {}})
    refused(session, load("flamethrower-6", "blind.left"), "card.incomplete")
    step = session.submit(load("flamethrower-6", "blind.left") | {"define": {"cost": 1}})
    assert step.learned == [("weapon", "flamethrower-6", {"cost": 1})]
    saved = json.loads((tmp_path / "data" / "definitions" / "last-heroes.json").read_text())
    assert saved["weapon"]["flamethrower-6"] == {"cost": 1}
    session.submit({"type": "teach", "kind": "weapon", "id": "crossbow-1",
                    "definition": {"ammo": 3}})
    fresh = setup_event()
    del fresh["definitions"]  # the session adds the owner's, from the data directory
    session.submit(fresh)
    weapons = session.state["catalog"]["weapon"]
    assert weapons["flamethrower-6"]["cost"] == 1 and weapons["crossbow-1"]["ammo"] == 3


def test_the_charger_needs_the_printed_ammo(session):
    """«Ajustez le Revolver afin que toutes les Munitions de la carte soient visibles»: the
    companion must know how many; the refusal names what is missing."""
    session.submit(setup_event(definitions={"weapon": {}, "monster": {}}))
    error = refused(session, {"type": "charger", "hero": "blind", "card": "flamethrower-1"},
                    "card.incomplete")
    assert error.params["missing"] == ["ammo"]
    play(session, {"type": "charger", "hero": "blind", "card": "flamethrower-1",
                   "define": {"ammo": 3}})
    assert session.view()["players"][0]["charger"]["left"]["ammo"] == 3


def test_check_definition():
    """«5 cartes avec un Impact de Force 1, 4 [...] Force 2, 3 [...] Force 3»: forces are 1 to 3;
    the packaged cards follow the tagging convention."""
    assert GAME.check_definition("weapon", {"id": "x", "type": "rifle", "impact": 3, "cost": 2,
                                            "ammo": 1})["impact"] == 3
    with pytest.raises(RuleError) as error:
        GAME.check_definition("weapon", {"id": "x", "impact": 4})
    assert error.value.key == "event.bad_field"
    with pytest.raises(RuleError) as error:
        GAME.check_definition("dice", {"id": "x"})
    assert error.value.key == "definition.unknown_kind"
    known = GAME.known_definitions({})
    assert len(known["weapon"]) == 60
    assert [known["weapon"][f"rifle-{n}"]["impact"] for n in (1, 5, 6, 9, 10, 12)] == \
        [1, 1, 2, 2, 3, 3]
    assert known["monster"]["dragon"]["light"] == [3, 3]


def test_names_are_translated(session):
    """Weapon types, powers and players are shown by name."""
    start(session)
    message = Message("power.used", {"hero": "blind", "power": "adrenaline"})
    assert render(message, "fr", GAME, session.state) == "Ana utilise Adrénaline."
    assert render(Message("history.play", {"hero": "echo", "card": "spider",
                                           "played_as": "weapon"}), "en", GAME) == \
        "Echo plays Spider as a loaded weapon"
