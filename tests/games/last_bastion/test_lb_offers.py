"""What the Hero phase offers on the board (issue 39, item 2): a fight from the centre tile, a
move to a far tile and a Dispensary's Call to Arms with nobody to heal were offered by the page,
then refused. ``view["offers"]`` lists only what the rules take («Le héros ... ne peut pas
combattre depuis la tuile centrale», last-bastion.fr.txt, "Combattre"; «Se déplacer ... sur une
tuile adjacente»)."""

from __future__ import annotations

from lastbastion import card, solo

from companion.games.last_bastion import GAME


def test_every_offer_is_taken_and_what_is_refused_is_not_offered(session):
    session.submit(solo(hero="elmer"))
    session.submit(card("goule", "red", 1, slot="red.0"))
    offers = session.view()["offers"]
    assert offers["fight"] == []  # Elmer stands on the centre tile
    reach = offers["move"]["elmer"]
    assert "1,1" not in reach and len(reach) == 8  # every tile around, not his own
    assert "dispensary" not in offers["cta"]  # nobody to heal
    state = session.state
    for slot in offers["fight"]:
        assert GAME.takes(state, {"type": "fight", "targets": [slot]})
    for cell in reach:
        assert GAME.takes(state, {"type": "move", "hero": "elmer",
                                  "to": [int(x) for x in cell.split(",")]})
    session.submit({"type": "move", "hero": "elmer", "to": [0, 0]})
    offers = session.view()["offers"]
    assert "red.0" in offers["fight"]  # the corner touches the red board's first slot
    assert "2,2" not in offers["move"].get("elmer", [])  # his extra move: adjacent only
