"""What the companion infers in a round instead of asking for a tap (issue 17: a round on the
host's phone in at most 8 taps), each from a passage of
../shared/rules/attack-on-titan-last-stand.fr.txt, «Déroulement de la partie»; each inference
belongs to the event that lets it be made, so undo takes them back together.
"""

from __future__ import annotations

import pytest
from aot_helpers import NEXT, commit, play, refused, rolls, setup_event

from companion.engine import Event, RuleError
from companion.games.aot_last_stand import GAME

CALM = {"eren": ["combat"] * 5, "mikasa": ["cannon"] * 5, "armin": ["cannon"] * 5}
"""First rolls without a Titan face, a Dodge or a Tactic symbol: no card can be countered."""


def titan_refuses(session, event: dict, key: str) -> None:
    """The Titan's own phone may not send ``event`` now."""
    with pytest.raises(RuleError) as error:
        GAME.check_role("titan", session.state, Event(event["type"], {
            k: v for k, v in event.items() if k != "type"}, "web"))
    assert error.value.key == key


def test_heroes_satisfied_once_the_titan_spends_its_faces(table):
    """«Une fois que tous les Héros sont satisfaits de leurs dés, l'étape 2 est terminée», then
    «le Titan a maintenant l'opportunité d'activer ses capacités»: the Titan spending its faces
    says the heroes were satisfied, without a separate "next". Until every hero has rolled it is
    not offered; the Titan's own phone may not end the heroes' step; undo takes both back."""
    play(table, commit(), *rolls(eren=["titan", "titan", "move", "move", "combat"],
                                 mikasa=["combat"] * 5))
    assert "ability" not in table.expects().events
    play(table, *rolls(armin=["tactic"] * 5))
    assert "ability" in table.expects().events
    titan_refuses(table, {"type": "ability", "n": 1}, "role.titan_wait")
    table.submit({"type": "ability", "n": 1})
    view = table.view()
    assert (view["step"], view["citizens"]["devoured"]) == (3, 1)
    table.submit({"type": "undo"})
    view = table.view()
    assert (view["step"], view["citizens"]["devoured"], view["titan"]["titan_dice"]) == (2, 0, 2)
    play(table, {"type": "roll", "hero": "armin", "reroll": ["tactic"], "faces": ["move"]})


def test_heroes_satisfied_once_they_resolve_a_card_when_the_titan_has_no_face(table):
    """With no Titan face «le Titan [n'a pas de] symboles [...] récupérés lors de l'étape 2»:
    steps 3 and 4 have nothing to do, and the heroes countering the face-up card says they were
    satisfied with their dice (step 5, «Les Héros peuvent [...] empêcher la résolution»)."""
    play(table, commit("frenesie", "pietinement"),
         *rolls(eren=["tactic"] * 5, mikasa=["combat"] * 5, armin=["cannon"] * 5))
    assert table.expects().events[-1] == "resolve"
    play(table, {"type": "resolve", "pay": {"eren": {"tactic": 3}}})
    view = table.view()
    assert view["actions"][0] == {"card": "frenesie", "face_up": True, "resolved": True}
    assert view["cannons"]["left"] == 6
    table.submit({"type": "undo"})
    assert table.view()["step"] == 2


def test_dice_given_back_once_they_are_rerolled(table):
    """«utilisés ou non, le Titan rend les dés aux Héros à la fin de cette étape» and «les Héros
    ont une dernière chance de relancer les dés récupérés»: a given-back die rolled in step 3
    says the Titan gave them back; each hero's dice are offered to roll. Undo: step 3 again."""
    play(table, commit(), *rolls(eren=["titan", "move", "move", "combat", "combat"],
                                 mikasa=["titan", "titan"] + ["combat"] * 3,
                                 armin=["tactic"] * 5), NEXT)
    expects = table.expects()
    assert expects.kind == "dice" and expects.count == 1
    assert expects.message.key == "expect.titan_given_back"
    assert [(t.type, t.fields, t.blank.count) for t in expects.templates if t.blank and
            t.blank.kind == "dice"] == [("reroll", {"hero": "eren"}, 1),
                                        ("reroll", {"hero": "mikasa"}, 2)]
    play(table, {"type": "reroll", "hero": "mikasa", "faces": ["dodge", "titan"]})
    view = table.view()
    assert (view["step"], view["titan"]["titan_dice"]) == (4, 0)
    assert view["heroes"]["eren"]["given_back"] == 1
    assert view["heroes"]["mikasa"]["dice"] == ["combat", "combat", "combat", "dodge"]
    table.submit({"type": "undo"})
    assert (table.view()["step"], table.view()["titan"]["titan_dice"]) == (3, 3)
    assert GAME.titan_expects(table.state).events == ("ability", "next"), \
        "the Titan's phone still gives the dice back itself"


def test_rerolls_over_once_a_card_is_resolved(table):
    """Step 4 is a chance the heroes may leave: resolving the face-up card (step 5) says they
    keep the given-back die as it is («Les dés conservés auparavant ne peuvent pas être
    relancés» is about the others)."""
    play(table, commit(), *rolls(eren=["titan", "dodge", "dodge", "combat", "combat"],
                                 mikasa=["combat"] * 5, armin=["tactic"] * 5), NEXT, NEXT)
    assert table.view()["step"] == 4
    table.submit({"type": "resolve", "pay": {"eren": {"dodge": 2}}})
    view = table.view()
    assert view["actions"][0]["resolved"] and view["heroes"]["mikasa"]["hearts"] == 2
    assert view["heroes"]["eren"]["hearts"] == 3


def test_a_card_nobody_can_counter_applies_by_itself(table):
    """«Les Héros peuvent, s'ils le souhaitent et s'ils disposent des dés requis, empêcher la
    résolution de la carte visible. Dans le cas contraire, le Titan applique l'effet de cette
    Action.» Piétinement with no hero on the ground holding 2 Dodge, then Frénésie with fewer
    than 3 Tactic symbols among the heroes: both apply with no tap, and say why."""
    steps = [table.submit(e) for e in (commit(), *rolls(**CALM), NEXT)]
    view = table.view()
    assert view["step"] == 6
    assert [e["resolved"] for e in view["actions"]] == [True, True]
    assert (view["heroes"]["eren"]["hearts"], view["cannons"]["left"]) == (2, 5)
    keys = [m.key for m in steps[-1].announcements]
    assert keys.count("action.no_counter") == 2
    table.submit({"type": "undo"})
    assert table.view()["step"] == 2


@pytest.mark.parametrize(("faces", "waits"), [
    ({"eren": ["dodge", "dodge", "combat", "combat", "combat"]}, True),  # on the ground: 2
    ({"eren": ["dodge", "combat", "combat", "combat", "combat"]}, False),
    ({"armin": ["dodge"] * 5}, False),  # on the Tower, not hit: his dodges spare nobody
])
def test_a_dodge_is_asked_only_of_a_hit_hero_who_can_pay(table, faces, waits):
    """«Seulement le(s) Héros occupant des niveaux touchés par les Actions du Titan dépendent
    des [Esquive]»; «Chaque Héros au sol (au niveau 0) peut dépenser 2 de ses dés»."""
    play(table, commit(), *rolls(**{**CALM, **faces}), NEXT)
    assert (table.view()["step"] == 5) is waits


def test_a_card_or_power_not_taught_leaves_the_decision_to_the_table(table):
    """A card whose counter is not taught, or a hero whose symbol is not (Sasha's wildcard could
    pay anything), is asked about: the companion cannot tell that the heroes lack the dice."""
    play(table, commit("basic-3", "pietinement"), *rolls(**CALM), NEXT)
    assert table.expects().events == ("resolve",)


def test_a_power_not_taught_waits_too(session):
    play(session, setup_event((("sasha", 0), ("mikasa", 0))), commit(),
         *rolls(sasha=["combat"] * 5, mikasa=["combat"] * 5), NEXT)
    assert session.view()["step"] == 5


def test_step_6_over_once_the_titan_commits_the_next_cards(table):
    """«7. Les joueurs Héros récupèrent tous leurs dés. Le joueur Titan écarte les cartes Action
    jouées pendant ce tour», then «1. Le joueur Titan sélectionne ses cartes Action»: the next
    round's cards committed from the shared page end step 6; the Titan's own phone may not end
    the heroes' step; undo gives step 6 back with the heroes' dice."""
    play(table, commit(), *rolls(**CALM), NEXT)
    assert table.expects().message.key == "expect.heroes_next_round"
    assert table.expects().events[0] == "commit"
    assert GAME.titan_expects(table.state).message.key == "expect.heroes"
    titan_refuses(table, commit("basic-3", "basic-4"), "role.titan_wait")
    refused(table, commit("frenesie", "basic-3"), "commit.played_last_round")
    table.submit(commit("basic-3", "basic-4"))
    view = table.view()
    assert (view["round"], view["step"], view["titan"]["set_aside"]) == (
        2, 2, ["pietinement", "frenesie"])
    assert view["heroes"]["eren"]["dice"] == []
    table.submit({"type": "undo"})
    view = table.view()
    assert (view["round"], view["step"]) == (1, 6)
    assert view["heroes"]["eren"]["dice"] == ["combat"] * 5


def test_step_6_over_by_itself_once_no_die_is_left(table):
    """«Les Héros utilisent leurs dés restants»: once the last die is used nothing is left to do
    in step 6 and the round ends (step 7); the next round waits for the Titan's cards. (The
    Tactic on top has known conditions: see the next test.)"""
    table.submit({"type": "teach", "kind": "tactic", "id": "sauvetage", "definition": {
        "conditions": [{"symbol": "tactic", "count": 2}, {"level": 3, "symbol": "dodge",
                                                          "count": 1},
                       {"symbol": "move", "count": 2}]}})
    play(table, commit(), *rolls(eren=["move"] + ["combat"] * 4,
                                 mikasa=["cannon"] * 5, armin=["cannon"] * 5), NEXT)
    play(table, {"type": "move", "hero": "eren", "to": 1},
         {"type": "melee", "hero": "eren", "count": 4},
         {"type": "cannon", "hero": "armin", "count": 5})
    assert table.view()["step"] == 6, "Mikasa still holds her dice"
    step = table.submit({"type": "adjust", "hero": "mikasa", "dice": []})
    assert (table.view()["round"], table.view()["step"]) == (2, 1)
    assert "step.nothing_left" in [m.key for m in step.announcements]


def test_step_6_waits_while_a_tactic_may_still_be_said_met(table):
    """In step 6 the heroes may «activer la carte Tactique en jeu»: while its conditions are not
    taught (Sauvetage's are not public) only the heroes know whether they met them, dice or not,
    so step 6 waits for their word."""
    play(table, commit(), *rolls(**CALM), NEXT, {"type": "adjust", "hero": "eren", "dice": []},
         {"type": "adjust", "hero": "mikasa", "dice": []},
         {"type": "adjust", "hero": "armin", "dice": []})
    assert table.view()["step"] == 6
