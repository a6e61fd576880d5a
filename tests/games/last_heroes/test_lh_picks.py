"""What the host's phone offers to point at (issue 39): the weapon cards by what they print,
the monsters the loaded weapons kill now, and the names a player reads, never an id.

Rulebook (last-heroes.fr.txt): «Pour chaque type d'Arme, il y a : 5 cartes avec un Impact de
Force 1, 4 [...] Force 2, 3 [...] Force 3»; «Attaquer un Monstre»; «Votre tour de jeu».
"""

from __future__ import annotations

import copy
import random

import pytest
from lastheroes_helpers import END, ammo, definitions, kill, load, play, refused, setup_event

from companion.engine import Event, Message, RuleError
from companion.games.last_heroes import GAME
from companion.games.last_heroes.simulated import invent
from companion.i18n import render
from companion.simulator import Simulator


def test_the_cards_to_play_are_offered_by_what_they_print(table):
    """One chip per printed face of the types in play (3 types × 3 Impacts here, every card
    taught cost 1 and ammo 2), none of a type out of play; each names a card never seen."""
    faces = table.view()["hand"]
    assert [(f["type"], f["impact"]) for f in faces] == [
        (kind, impact) for kind in ("flamethrower", "crossbow", "pistol") for impact in (1, 2, 3)]
    assert {(f["cost"], f["ammo"]) for f in faces} == {(1, 2)}
    in_chargers = {"flamethrower-1", "flamethrower-2", "crossbow-1", "crossbow-2",
                   "pistol-1", "pistol-2"}
    assert not {f["card"] for f in faces} & in_chargers
    assert faces[0]["card"] == "flamethrower-3"


def test_a_card_nobody_taught_is_offered_with_its_values_missing(session):
    """A fresh box: every weapon's cost and ammo are unknown; the face is still offered (the
    phone asks them with the event), and the taught ones stand apart."""
    weapons = definitions()["weapon"]
    taught = {card: weapons[card] for card in ("flamethrower-3",)}
    session.submit(setup_event(definitions={"weapon": taught,
                                            "monster": definitions()["monster"]}))
    faces = session.view()["hand"]
    hits = [f for f in faces if f["type"] == "flamethrower" and f["impact"] == 1]
    assert hits == [
        {"type": "flamethrower", "impact": 1, "cost": 1, "ammo": 2, "card": "flamethrower-3"},
        {"type": "flamethrower", "impact": 1, "cost": None, "ammo": None,
         "card": "flamethrower-1"}]
    # given with the event that puts it in a charger, the values are learnt for good
    session.submit({"type": "charger", "hero": "blind", "card": "flamethrower-1",
                    "define": {"cost": 1, "ammo": 3}})
    assert session.state["catalog"]["weapon"]["flamethrower-1"]["ammo"] == 3


def test_the_monsters_offered_are_those_the_loaded_weapons_kill(table):
    """«Chaque Arme chargée doit fournir un Impact de Force égale ou supérieure»: with a HIT!
    loaded, the level-1 monsters needing a HIT! (Rat, Bat) are offered, not the Imp (BAM!) nor
    a level-2 monster (two impacts); the weakest weapons that cover are proposed."""
    assert table.view()["kills"] == []  # a card first (the play phase)
    play(table, load("flamethrower-3", "blind.left"))
    assert [(k["monster"], k["weapons"]) for k in table.view()["kills"]] == [
        ("rat", ["flamethrower-3"]), ("bat", ["flamethrower-3"])]
    play(table, kill("rat", "flamethrower-3"))
    assert table.view()["kills"] == []  # one kill a turn
    assert table.view()["swaps"] == 1  # the level-1 swap


def test_two_weapons_cover_the_wolf_with_the_weakest(table):
    """The Wolf needs a HIT! and a BAM! (its dark one): a HIT! and a BAM! loaded cover it."""
    play(table, load("flamethrower-3", "blind.left"), END, ammo("crossbow-3", "right"), END,
         ammo("pistol-3", "right"), END, load("flamethrower-6", "blind.right"))
    wolf = next(k for k in table.view()["kills"] if k["monster"] == "wolf")
    assert wolf == {"monster": "wolf", "name": None, "column": 2, "level": 2, "needed": [1, 2],
                    "weapons": ["flamethrower-6", "flamethrower-3"]}
    play(table, kill("wolf", *wolf["weapons"]))


def test_a_weapon_card_reads_as_its_type_and_impact(table):
    """Issue 39: ids such as ``pistol-3`` were said and shown; a card reads as it prints."""
    for lang, said in (("en", "Ana plays Flamethrower HIT! as a loaded weapon"),
                       ("fr", "Ana joue Lance-flammes HIT! en Arme chargée")):
        label = Message("history.play", {"hero": "blind", "card": "flamethrower-3",
                                         "played_as": "weapon"})
        assert render(label, lang, GAME, table.state) == said


def test_the_prompt_and_the_header_say_turn(table):
    """Issue 39: "Turn" in the header, "Round" in the prompt; the rulebook says «tour de jeu»
    («Last Heroes se joue en plusieurs tours de jeu»)."""
    message = table.expects().message
    assert render(message, "en", GAME, table.state).startswith("Turn 1, Ana:")
    assert render(message, "fr", GAME, table.state).startswith("Tour 1, Ana :")


def test_an_event_out_of_turn_is_named_in_words(table):
    """Issue 39: «charger is not expected now; the game is waiting for charger»."""
    said = render(Message("event.not_expected", {"event": "charger", "expected": ["play"]}),
                  "en", GAME, table.state)
    assert said == "a charger card is not expected now; the game is waiting for a card played."


def test_the_simulated_table_fills_the_chargers_and_the_voids(session):
    """Issue 39: ``companion simulate draw`` answered «charger is not expected now» on a fresh
    box (every card refused, its ammo unknown). It now draws a charger card the hero may hold,
    its values made up when nobody taught them, and a monster of the void's level."""
    session.submit(setup_event(definitions={"monster": definitions()["monster"]}))
    table = Simulator(session, seed=1)
    for _ in range(6):
        table.draw()
    assert session.view()["phase"] == "play"
    face = next(f for f in session.view()["hand"] if f["type"] == "flamethrower")
    play(session, {"type": "play", "card": face["card"], "as": "weapon", "ammo": [],
                   "jokers": 0, "define": {"cost": 0, "ammo": 1}})
    state = copy.deepcopy(session.state)  # a void to fill, as after a turn with a kill
    state.update(phase="refill", refill=[[2, 3]])
    made_up = invent(state, random.Random(2))
    assert made_up["define"]["level"] == 3 and len(made_up["define"]["light"]) == 2
    GAME.apply(state, Event("reveal", made_up))


def said(error, state) -> dict[str, str]:
    """A refusal as the phone and the terminal say it, by language."""
    return {lang: render(Message(error.key, error.params), lang, GAME, state)
            for lang in ("en", "fr")}


def test_a_card_elsewhere_is_placed_in_words(table):
    """Issue 39: a refusal named a card's place as ``charger:echo.left``; it says where the
    card is as a player does («dans le Chargeur de Ben (gauche)»)."""
    card = table.state["players"]["echo"]["charger"]["left"]["card"]
    error = refused(table, {"type": "play", "card": card, "as": "ammo", "slot": "left"},
                    "card.elsewhere")
    words = said(error, table.state)
    assert "in the charger of Ben (left)" in words["en"]
    assert "dans le Chargeur de Ben (gauche)" in words["fr"]
    assert not any(raw in text for text in words.values()
                   for raw in ("charger:", "echo.left", card))


def test_a_card_nobody_taught_asks_its_values_in_words(session):
    """Issue 39: a card not fully known was refused with the API's field ``"define"`` in the
    message; it names what is missing in the page's language («Munition», not ``ammo``)."""
    session.submit(setup_event(definitions={"monster": definitions()["monster"]}))
    table = Simulator(session, seed=1)
    for _ in range(6):
        table.draw()
    face = next(f for f in session.view()["hand"] if f["ammo"] is None)
    error = refused(session, {"type": "play", "card": face["card"], "as": "ammo",
                              "slot": "left"}, "card.incomplete")
    words = said(error, session.state)
    assert "(ammo missing)" in words["en"] and "(il manque : Munition)" in words["fr"]
    assert not any(raw in text for text in words.values() for raw in ("define", '"', "{"))


def test_a_draw_nobody_waits_for_is_said_in_words(table):
    """Issue 39, the terminal: «charger is not expected now; the game is waiting for charger».
    A card drawn when the table waits for a card played is named in words, in French too («card
    n'est pas attendu» mixed the API's word into French and the gender of the card)."""
    with pytest.raises(RuleError) as error:
        Simulator(table, seed=1).draw()
    words = said(error.value, table.state)
    assert words["en"].startswith("a card drawn is not expected now; the game is waiting for "
                                  "a card played")
    assert words["fr"].startswith("Le jeu n'attend pas une carte tirée maintenant ; il attend "
                                  "une carte jouée")


def test_the_new_game_form_offers_the_known_monsters_by_level():
    """The set-up form's pickers (``/api/catalog``): each monster card with its printed name and
    level, the owner's taught ones too (the form offers a card on the level it is printed with,
    a card without a level on any: «révélez ensuite autant de Monstres que de joueurs»)."""
    owner = {"monster": {"goule": {"name": "Goule", "level": 1}, "ombre": {"name": "Ombre"}}}
    data = GAME.capabilities.pickers(GAME.known_definitions(owner), [])
    assert data["monsters"]["spider"] == {"name": {"fr": "Araignée", "en": "Spider",
                                                   "es": "Araña"}, "level": 2}
    assert data["monsters"]["goule"] == {"name": "Goule", "level": 1}
    assert data["monsters"]["ombre"] == {"name": "Ombre", "level": None}
    assert "goule" in data["ids"]["monster"] and "flamethrower-1" in data["ids"]["weapon"]


def test_a_sample_monster_taught_without_a_name_is_said_by_its_name(table):
    """The walk of issue 39 found «Ann tue ghoul»: the new-game form's sample monster (the
    Ghoul, «Goule») taught its impacts without a name (here in the set-up's definitions, in the
    walk at its kill) was then said by its id."""
    state = table.state
    assert "name" not in state["catalog"]["monster"]["ghoul"]
    said = {lang: render(Message("monster.killed", {"hero": "blind", "monster": "ghoul",
                                                    "column": 3, "level": 2}),
                         lang=lang, game=GAME, state=state) for lang in ("en", "fr", "es")}
    assert "Ghoul" in said["en"] and "Goule" in said["fr"] and "Gul" in said["es"], said
