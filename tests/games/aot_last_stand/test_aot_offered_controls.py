"""Every control the phones offer is accepted (issue 39, «Every control the page offers, tapped,
is accepted»): at many states of seeded random games, each event the page would send from what it
renders (the one-tap moves of ``view.taps`` on the table's phone and on the Titan's, the commit
pickers, Eren's gifts, a taught ability cost, "the printed effect did nothing") is tried on a copy
of the state; none may be refused. The page draws its controls from these same lists
(companion/games/aot_last_stand/page.js); the rules quoted are those of
../shared/rules/attack-on-titan-last-stand.fr.txt («Déroulement de la partie»).
"""

from __future__ import annotations

import random
from collections import Counter
from itertools import product
from typing import Any

import pytest

from companion.engine import Event as Checked
from companion.engine import RuleError, validate
from companion.games.aot_last_stand import GAME
from companion.games.aot_last_stand.catalog import DATA

FACES = DATA["faces"]
TEAMS = [(("eren", 0), ("mikasa", 3), ("armin", 5)), (("levi", 5), ("hange", 0)),
         (("eren", 0), ("mikasa", 0), ("armin", 3), ("levi", 0)),
         (("sasha", 3), ("conny", 0), ("erwin", 5))]
PILE = ["sauvetage", "guerison", "tir-aveuglant", "mutilation", "chute-raide", "decapitation",
        "eradication"]
SEEDS = range(30)
Event = dict[str, Any]


def checked(event: Event) -> Checked:
    """An event as the session hands it to the rules (its fields validated)."""
    fields = {k: v for k, v in event.items() if k != "type"}
    return Checked(event["type"], validate(event["type"], fields, GAME.events[event["type"]]))


def setup(rng: random.Random) -> Event:
    team = rng.choice(TEAMS)
    pile = rng.sample(PILE, len(PILE))
    return {"type": "setup",
            "titan": {"name": "Théo", "card": "basic"},
            "heroes": [{"name": f"P{i}", "hero": h, "level": lv} for i, (h, lv) in
                       enumerate(team)],
            **({"tactics": pile} if rng.random() < 0.5 else {})}


def commits(cards: list[str]) -> list[Event]:
    """The commit picker: a face-up card, then any other card of the same list."""
    return [{"type": "commit", "up": up, "down": down} for up in cards for down in cards
            if up != down]


def gift_sets(view: dict[str, Any]) -> list[Event]:
    """Eren's gift picker: for each teammate nothing or a face of Eren's dice still free."""
    dice = Counter(view["heroes"]["eren"]["dice"])
    mates = [h for h in view["heroes"] if h != "eren"]
    found = []
    for faces in product([None, *dice], repeat=len(mates)):
        given = Counter(f for f in faces if f)
        if all(given[f] <= dice[f] for f in given):
            found.append({"type": "give", "gifts": {h: f for h, f in zip(mates, faces,
                                                                          strict=True) if f}})
    return found


def offered(state: dict[str, Any]) -> list[tuple[Event, bool]]:
    """Each event the two phones would send from what they show now, with whether it is the
    Titan's phone that sends it."""
    view, titan = GAME.view(state), GAME.titan_view(state)
    found = [(e, False) for e in view["taps"]] + [(e, True) for e in titan["taps"]]
    if view["step"] == 1 and "commit" in view["expects"]["events"] and not state["queue"]:
        found += [(e, False) for e in commits(view["titan"]["committable"])]
        found += [(e, True) for e in commits(titan["hand"])]
    if ("give" in view["expects"]["events"] and "eren" in view["heroes"] and
            not view["gift_given"] and all(h["rolled"] for h in view["heroes"].values())):
        found += [(e, False) for e in gift_sets(view)]
    if "ability" in titan["expects"]["events"]:
        found += [({"type": "ability", "n": a["n"], "define": {"cost": cost}}, True)
                  for a in titan["titan"]["abilities"] if a["cost"] is None and a["allowed"]
                  for cost in range(1, titan["titan"]["titan_dice"] + 1)]
    if "answer" in view["expects"]["events"]:
        found += [({"type": "answer", "effects": []}, who) for who in (False, True)]
    return found


def advance(state: dict[str, Any], rng: random.Random, choices: list[tuple[Event, bool]]
            ) -> Event:
    """The next event of the random game: the simulated table's roll when dice are awaited,
    else one of the offered controls."""
    expects = GAME.expects(state)
    dice = [t for t in expects.templates if t.blank and t.blank.kind == "dice"]
    if dice and (not choices or rng.random() < 0.7):
        template = dice[0]
        return {"type": template.type, **template.fields,
                "faces": [rng.choice(FACES) for _ in range(template.blank.count)]}
    return rng.choice(choices)[0]


@pytest.mark.parametrize("seed", SEEDS)
def test_every_offered_control_is_taken(seed):
    rng = random.Random(seed)
    state = GAME.setup(checked(setup(rng)).fields).state
    refused, tried = [], 0
    for _ in range(150):
        if state["status"] != "playing":
            break
        choices = offered(state)
        for event, titan in choices:
            tried += 1
            try:
                GAME.try_event(state, event, titan=titan)
            except RuleError as error:
                refused.append((state["step"], event, titan, error.key))
        event = advance(state, rng, choices)
        state = GAME.apply(state, checked(event)).state
    assert tried > 50
    assert refused == [], refused[:5]


def test_step_6_offers_only_the_moves_the_rules_take():
    """Found by the testers: step 6 offered Cannon, Melee and Move that were refused, and
    "Search (Armin)" with no Armin at the table. «Le Héros doit se trouver sur le Titan pour
    l'attaquer au corps-à-corps (niveaux 1, 2, 4, 6, 7 ou 8)», «[Tirer au canon] Le Héros doit
    se trouver sur la Tour (Niveau 3 ou 5)», one ➶ per level («Se déplacer»)."""
    state = GAME.setup(checked(setup_of((("mikasa", 0), ("levi", 3)))).fields).state
    for event in ({"type": "commit", "up": "basic-3", "down": "basic-4"},
                  {"type": "roll", "hero": "mikasa", "faces": ["combat", "cannon", "move",
                                                                "dodge", "dodge"]},
                  {"type": "roll", "hero": "levi", "faces": ["cannon", "combat", "dodge",
                                                              "dodge", "dodge"]}):
        state = GAME.apply(state, checked(event)).state
    while state["step"] != 6:  # the cards suffered; what the untaught ones did: nothing
        view = GAME.view(state)
        event = view["taps"][0] if view["taps"] else {"type": "answer", "effects": []}
        state = GAME.apply(state, checked(event)).state
    taps = GAME.view(state)["taps"]
    assert {"type": "move", "hero": "mikasa", "to": 1} in taps
    assert {"type": "move", "hero": "mikasa", "to": 3} in taps  # the Tower in one
    assert not any(e["type"] == "move" and e["hero"] == "levi" for e in taps)  # no ➶
    assert not any(e["type"] == "melee" for e in taps)  # Mikasa on the ground, Levi on the Tower
    assert {"type": "cannon", "hero": "levi", "count": 1} in taps
    assert not any(e["type"] == "cannon" and e["hero"] == "mikasa" for e in taps)
    assert not any(e["type"] == "search" for e in taps)  # no Armin
    for event in taps:
        GAME.try_event(state, event)


def setup_of(team) -> Event:
    return {"type": "setup", "titan": {"name": "Théo", "card": "basic"},
            "heroes": [{"name": f"P{i}", "hero": h, "level": lv} for i, (h, lv) in
                       enumerate(team)], "tactics": PILE}
