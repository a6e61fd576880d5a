"""Exact fight and Market odds, checked against the rulebook's "Combat" section
(../shared/rules/last-bastion.fr.txt) and against closed-form binomial counts."""

from __future__ import annotations

from fractions import Fraction
from math import comb

from companion.games.last_bastion import odds

BOARDS = {"N": "red", "E": "blue", "S": "yellow", "W": "green"}
TILES = [["market", "tomb", "inn"], ["trebuchet", "fountain", "quarry"],
         ["standard", "tower", "dispensary"]]


def setup_event(players, **extra):
    """A setup event for players given as (name, hero, side); the first one starts."""
    return {"type": "setup", "game": "last-bastion", "mode": "normal", "boards": BOARDS,
            "players": [{"name": n, "hero": h, "side": s} for n, h, s in players],
            "tiles": TILES, "first": players[0][2], **extra}


def card(card_id, colour, resistance, slot, **more):
    """A card event teaching the card as it is drawn onto ``slot``."""
    return {"type": "card", "id": card_id, "slot": slot, "define": {
        "name": card_id.title(), "type": "monster", "colour": colour, "resistance": resistance,
        **more}}


def play(session, *events):
    for event in events:
        session.submit(event)


def at_least(k: int, dice: int, hit: Fraction) -> Fraction:
    """P(at least k hits among ``dice`` dice), each hitting with probability ``hit``."""
    return sum((comb(dice, i) * hit**i * (1 - hit) ** (dice - i) for i in range(k, dice + 1)),
               Fraction(0))


def exact(p: dict) -> Fraction:
    return Fraction(p["num"], p["den"])


def incube_fight(session, hero: str = "teagaan", red_tokens: int = 0):
    """Gary's hero in the NW corner facing an Incube-like red card of resistance 2 (red.0)."""
    play(session, setup_event([("Gary", hero, "S")]),
         card("incube", "red", 2, slot="red.0", complete=True),
         {"type": "move", "hero": hero, "to": [0, 0]})
    if red_tokens:
        session.submit({"type": "adjust", "hero": hero, "equipment": {"red": red_tokens}})
    session.submit({"type": "fight", "targets": ["red.0"]})
    return odds.helper(session.state)


def test_outcomes_cover_every_ordered_roll():
    """Six faces per die: the multisets, weighted, count every one of the 6**n ordered rolls."""
    for dice in (1, 2, 3, 4):
        assert sum(weight for _, weight in odds.outcomes(dice)) == 6**dice


def test_incube_without_equipment(session):
    """«Pour le vaincre, il doit obtenir au moins deux faces rouges (ou blanches) avec les dés
    Combat» — 3 dice, a red or white face is a hit (1/3)."""
    info = incube_fight(session)
    assert info["dice"] == 3 and info["odds"]["outcomes"] == 216
    assert exact(info["odds"]["all"]) == at_least(2, 3, Fraction(1, 3)) == Fraction(7, 27)
    assert info["targets"][0]["resistance"] == 2 and info["targets"][0]["colour"] == "red"


def test_incube_with_a_red_token(session):
    """«Comme il dispose d'un jeton Équipement de couleur rouge, il peut choisir de dépenser
    celui-ci pour vaincre le monstre»: one red token leaves one face to find."""
    info = incube_fight(session, red_tokens=1)
    assert exact(info["odds"]["all"]) == 1 - Fraction(2, 3) ** 3 == Fraction(19, 27)
    assert info["equipment"] == {"teagaan": {"yellow": 1, "red": 1}}


def test_kazgin_grey_die_is_a_fourth_die(session):
    """«Le quatrième dé, de couleur grise, est associé au pouvoir de l'un des héros (Kazgin).»"""
    info = incube_fight(session, hero="kazgin")
    assert info["dice"] == 4 and info["odds"]["outcomes"] == 1296
    assert exact(info["odds"]["all"]) == at_least(2, 4, Fraction(1, 3)) == Fraction(11, 27)


def test_enchantment_lowers_the_resistance(session):
    """«Un monstre peut voir sa résistance diminuer en raison de certains effets (tuile Bastion
    Étendard et pouvoir du héros Mylfaar)»: with −1 the Incube needs a single face."""
    play(session, setup_event([("Gary", "teagaan", "S")]),
         card("incube", "red", 2, slot="red.0", complete=True),
         {"type": "adjust", "slot": "red.0", "modifier": -1},
         {"type": "move", "hero": "teagaan", "to": [0, 0]},
         {"type": "fight", "targets": ["red.0"]})
    info = odds.helper(session.state)
    assert info["targets"][0]["modifier"] == -1 and info["targets"][0]["resistance"] == 1
    assert exact(info["odds"]["all"]) == Fraction(19, 27)


def corner_fight(session):
    """«Les deux emplacements adjacents sont occupés par des monstres : les « Incube » (rouge,
    résistance 2) et un « Réplicateur Sombre » (bleu, résistance 1)» — the NE corner."""
    play(session, setup_event([("Gary", "teagaan", "S")]),
         card("incube", "red", 2, slot="red.2", complete=True), {"type": "end_turn"},
         card("replicateur-sombre", "blue", 1, slot="blue.0", arrival=[], complete=True),
         {"type": "move", "hero": "teagaan", "to": [0, 2]},
         {"type": "adjust", "hero": "teagaan", "equipment": {"red": 1}},
         {"type": "fight", "targets": ["red.2", "blue.0"]})


def test_two_monsters_need_the_summed_resistance(session):
    """«Le joueur doit obtenir la résistance cumulée de ces deux monstres»: 2 red and 1 blue
    from 3 dice and one red token, counted exactly against a direct count of the 216 rolls."""
    corner_fight(session)
    info = odds.helper(session.state)
    faces = ("red", "green", "blue", "yellow", "black", "white")
    both = one = 0
    for a in faces:
        for b in faces:
            for c in faces:
                roll = (a, b, c)
                red, blue, white = roll.count("red"), roll.count("blue"), roll.count("white")
                short_red, short_blue = max(0, 1 - red), max(0, 1 - blue)
                both += short_red + short_blue <= white
                one += max(0, 1 - red) <= white or max(0, 1 - blue) <= white
    assert exact(info["odds"]["all"]) == Fraction(both, 216)
    assert exact(info["odds"]["any"]) == Fraction(one, 216)
    assert set(info["odds"]["each"]) == {"red.2", "blue.0"}


def test_corner_example_advice(session):
    """«Il lance les 3 dés Combat et obtient une face rouge, une face blanche et une face jaune.
    [...] Il dépense un jeton Équipement rouge qui vient s'ajouter à la face rouge pour vaincre
    les « Incube » et il utilise la face blanche pour vaincre le « Réplicateur Sombre ».»"""
    corner_fight(session)
    session.submit({"type": "dice", "faces": ["red", "white", "yellow"]})
    advice = odds.helper(session.state)["advice"]
    assert sorted(advice["falls"]) == ["blue.0", "red.2"]
    assert advice["spend"] == {"teagaan": {"red": 1}} and advice["tokens"] == 1
    assert advice["complete"]


def test_cannot_win_says_how_many_faces_are_missing(session):
    """«Si le joueur n'obtient pas les faces nécessaires» and holds no token of the colour, the
    fight fails: the advice names how many faces are missing."""
    play(session, setup_event([("Gary", "teagaan", "S")]),
         card("canon-de-l-infamie", "black", 3, slot="yellow.2", complete=True),
         {"type": "move", "hero": "teagaan", "to": [2, 0]},
         {"type": "fight", "targets": ["yellow.2"]},
         {"type": "dice", "faces": ["green", "green", "yellow"]})
    advice = odds.helper(session.state)["advice"]
    assert advice["falls"] == [] and not advice["complete"]
    assert advice["short"] == {"yellow.2": 3}


def test_market_odds(session):
    """The Market: «il lance 2 dés Combat et prend dans la réserve les 2 jetons Équipement
    équivalents»; a white face is any colour, an empty reserve gives nothing."""
    play(session, setup_event([("Gary", "teagaan", "S")],
                              reserve={"equipment": {"red": 0, "green": 4, "blue": 4,
                                                     "yellow": 4, "black": 4}}),
         card("incube", "red", 2, slot="red.0", complete=True),
         {"type": "move", "hero": "teagaan", "to": [0, 0]},
         {"type": "activate", "tile": "market"})
    info = odds.helper(session.state)
    assert info["kind"] == "market" and info["dice"] == 2
    assert exact(info["odds"]["colour"]["green"]) == 1 - Fraction(4, 6) ** 2
    assert exact(info["odds"]["colour"]["red"]) == 0


def test_no_helper_without_a_roll(session):
    play(session, setup_event([("Gary", "teagaan", "S")]))
    assert odds.helper(session.state) is None
