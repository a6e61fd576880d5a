"""One tap per die on the host's phone (issue 17): the view offers, for each unused die, the
actions the rules take from it now, and nothing the rules would refuse."""

from __future__ import annotations

import pytest
from runemasters_helpers import apply, position

from companion.engine import RuleError
from companion.games.runemasters import GAME


def offered(state) -> list[dict]:
    return GAME.view(state)["taps"]


def test_each_die_offers_what_its_rune_does_and_every_offer_is_taken():
    """«Touchez ce point faible OU déplacez-vous sur ce chemin» and «Chargez votre Pouvoir
    ultime» (runemasters.fr.txt, "Actions liées aux runes"); «Vous ne pouvez blesser que le
    premier monstre de votre chemin» ("Toucher un point faible")."""
    state = position(("kulak", "blue"), ("kyreas", "red"),
                     monsters={"blue": {1: "shadow-blue"}}, faces=("blue", "violet", "green"))
    taps = offered(state)
    for event in taps:  # each one is an event the rules take
        fields = {k: v for k, v in event.items() if k != "type"}
        apply(state, event["type"], **fields)
    assert {"type": "hit", "die": 0} in taps  # blue: a weak point of the Shadow in contact
    assert {"type": "hit", "die": 1} in taps  # violet too
    assert {"type": "hit", "die": 2} not in taps  # green is not one of its weak points
    with pytest.raises(RuleError):
        apply(state, "hit", die=2)
    assert {"type": "move", "die": 2, "to": "red"} not in taps  # a green rune goes to green only
    assert {"type": "move", "die": 1, "to": "red"} in taps  # violet: any path
    assert {"type": "move", "die": 0, "to": "blue"} not in taps  # Kulak is already there
    assert {"type": "charge", "dice": [2]} in taps


def test_used_dice_and_other_phases_offer_nothing():
    state = position(("kulak", "blue"), ("kyreas", "red"),
                     monsters={"blue": {1: "shadow-blue"}}, faces=("blue", "violet"))
    state = apply(state, "hit", die=0).state
    assert all(event.get("die") != 0 and event.get("dice") != [0] for event in offered(state))
    state["phase"] = "roll"
    assert offered(state) == []
