"""The worked examples of the Last Bastion rulebook, each as a game played through the session.

Every test cites the passage of ../shared/rules/last-bastion.fr.txt it encodes.
"""

from __future__ import annotations

import pytest
from lastbastion import card, known, play, setup_event

from companion.engine import RuleError


def test_replicateur_sombre_chain(session):
    """«Gary joue le héros jaune, il pioche la carte Horde « Réplicateur Sombre ». Comme ce monstre
    est de couleur bleue, il doit le placer en priorité sur le plateau bleu. Puis, il doit appliquer
    l'effet d'entrée [...] mettre une autre carte Horde en jeu. Il pioche un monstre de couleur
    noire. Il doit donc le placer en priorité sur son plateau Horde, donc le jaune.»"""
    play(session, setup_event([("Gary", "kazgin", "S"), ("Paul", "mylfaar", "N")]))
    session.submit({"type": "card", "id": "replicateur-sombre"})
    assert session.expects().options == ["blue.0", "blue.1", "blue.2"]
    session.submit({"type": "place", "slot": "blue.1"})
    assert session.expects().kind == "card", "the arrival effect draws another card at once"
    session.submit(card("ombre-noire", "black", 2))
    assert session.expects().options == ["yellow.0", "yellow.1", "yellow.2"]
    session.submit({"type": "place", "slot": "yellow.2"})
    view = session.view()
    assert view["boards"]["blue"][1]["name"] == "Réplicateur Sombre"
    assert view["boards"]["yellow"][2]["id"] == "ombre-noire"
    assert view["phase"] == "hero"
    assert view["deck"]["remaining"] == view["deck"]["size"] - 2


def test_coloured_card_goes_elsewhere_when_its_board_is_full(session):
    """«Si les 3 emplacements du plateau Horde concerné sont déjà pris, le joueur actif choisit un
    autre emplacement libre de son choix.»"""
    play(session, setup_event([("Gary", "kazgin", "S")]))
    play(session, card("r1", "red", 1, slot="red.0"), {"type": "end_turn"})
    # neutral boards W, N, E take their Horde phase without drawing; Gary again
    play(session, card("r2", "red", 1, slot="red.1"), {"type": "end_turn"},
         card("r3", "red", 1, slot="red.2"), {"type": "end_turn"})
    # the full red board's power (its text is not public) is asked of the table
    assert session.view()["prompts"][0]["key"] == "prompt.printed_effect"
    session.submit({"type": "answer"})
    session.submit(card("r4", "red", 1))
    assert len(session.expects().options) == 9
    with pytest.raises(RuleError) as refused:
        session.submit({"type": "place", "slot": "red.0"})
    assert refused.value.key == "place.illegal"


def test_boucher_on_a_neutral_board(session):
    """«Sur ce plateau rouge se trouve une carte Horde « Boucher » [...] un joueur doit en assumer
    l'effet. Seuls Paul et Géraldine ont au moins un jeton rond, l'un des deux doit en assumer
    l'effet. N'ayant pas de jeton rond, Gary ne peut pas en assumer l'effet à leur place.»
    (Plateau neutre.) A round token is read as an Equipment token: Gary, still in play, has none."""
    play(session,
         setup_event([("Gary", "kazgin", "W"), ("Paul", "mylfaar", "E"),
                      ("Geraldine", "teagaan", "S")], first="W"),
         {"type": "teach", "kind": "card", "id": "boucher",
          "definition": {"resistance": 2, "complete": True}})
    # Gary (W, green) draws the Boucher; red is free so it goes on the neutral red board (N).
    session.submit({"type": "card", "id": "boucher", "slot": "red.1"})
    play(session, {"type": "adjust", "hero": "kazgin", "equipment": {"green": 0}})
    session.submit({"type": "end_turn"})
    # The neutral red board's Horde phase: Paul or Géraldine must lose a round token.
    expects = session.expects()
    assert expects.kind == "choice" and expects.events == ("assign",)
    assert sorted(expects.options) == ["mylfaar", "teagaan"]
    with pytest.raises(RuleError) as refused:
        session.submit({"type": "assign", "hero": "kazgin"})
    assert refused.value.key == "assign.not_able"
    session.submit({"type": "assign", "hero": "teagaan"})
    view = session.view()
    assert view["heroes"]["teagaan"]["equipment"]["yellow"] == 0
    assert view["heroes"]["mylfaar"]["equipment"]["blue"] == 1
    assert view["active"] == "E" and view["expects"]["kind"] == "card"


def test_corner_fight_against_incube_and_replicateur(session):
    """«Les deux emplacements adjacents sont occupés par des monstres : les « Incube » (rouge,
    résistance 2) et un « Réplicateur Sombre » (bleu, résistance 1). Il lance les 3 dés Combat et
    obtient une face rouge, une face blanche et une face jaune [...] Il dépense un jeton Équipement
    rouge qui vient s'ajouter à la face rouge pour vaincre les « Incube » et il utilise la face
    blanche pour vaincre le « Réplicateur Sombre ».»"""
    play(session,
         setup_event([("Gary", "twindalli", "S"), ("Paul", "mylfaar", "N")],
                     boards={"N": "red", "E": "yellow", "S": "green", "W": "blue"}),
         *known("incube", "replicateur-sombre"),
         {"type": "card", "id": "incube", "slot": "red.0"},  # red.0 faces the NW corner
         {"type": "end_turn"},  # W is neutral; N is Paul's
         {"type": "card", "id": "replicateur-sombre", "slot": "blue.2"},  # blue.2 faces NW too
         card("goblin", "green", 1, slot="green.0"),  # the Réplicateur's arrival draw
         {"type": "end_turn"},  # E is neutral; S is Gary's
         card("orc", "green", 1, slot="green.1"),
         {"type": "adjust", "hero": "twindalli", "equipment": {"red": 1}},
         {"type": "move", "hero": "twindalli", "to": [0, 0]})
    session.submit({"type": "fight", "targets": ["red.0", "blue.2"]})
    session.submit({"type": "dice", "faces": ["red", "white", "yellow"]})
    suggestion = session.view()["prompts"][0]["default"]
    assert sorted(suggestion["falls"]) == ["blue.2", "red.0"]
    assert suggestion["spend"] == {"twindalli": {"red": 1}}
    session.submit({"type": "resolve"})
    view = session.view()
    assert view["boards"]["red"][0] is None and view["boards"]["blue"][2] is None
    assert view["heroes"]["twindalli"]["equipment"]["red"] == 0
    assert view["reserve"]["equipment"]["red"] == 3, "4 in the box, 1 on Paul, the spent one back"
    assert "incube" in view["discard"] and "replicateur-sombre" in view["discard"]
    label = session.history()[-1].label
    assert label["key"] == "history.fight" and label["params"]["spent"] == {"red": 1}


def test_market_with_call_to_arms_before_fighting_canon(session):
    """«Gary se trouve face au monstre « Canon de l'Infamie » (noir, résistance 3). Avant de le
    combattre [...] il défausse son jeton Appel aux Armes et active la tuile Marché : il lance 2
    dés Combat et prend dans la réserve les 2 jetons Équipement équivalents. Gary est maintenant
    prêt à affronter le monstre.» (Appel aux Armes)"""
    play(session, setup_event([("Gary", "twindalli", "S"), ("Paul", "mylfaar", "N")]),
         *known("canon-de-l-infamie"),
         {"type": "card", "id": "canon-de-l-infamie", "slot": "yellow.1"},  # faces [2, 1]
         {"type": "move", "hero": "twindalli", "to": [2, 1]},
         {"type": "activate", "tile": "market", "call_to_arms": True})
    expects = session.expects()
    assert (expects.kind, expects.count, expects.profile) == ("dice", 2, "last-bastion/combat")
    play(session, {"type": "dice", "faces": ["black", "green"]}, {"type": "resolve"})
    gary = session.view()["heroes"]["twindalli"]
    assert gary["call_to_arms"] == 0 and gary["equipment"]["black"] == 1
    assert gary["equipment"]["green"] == 1
    # the Call to Arms was an extra action: the fight is still allowed this turn
    play(session, {"type": "fight", "targets": ["yellow.1"]},
         {"type": "dice", "faces": ["black", "white", "red"]}, {"type": "resolve"})
    view = session.view()
    assert view["boards"]["yellow"][1] is None
    assert view["heroes"]["twindalli"]["equipment"]["black"] == 0


def test_incube_with_one_red_face_and_a_red_token(session):
    """«Gary lance les dés Combat et n'obtient qu'une face rouge. Comme il dispose d'un jeton
    Équipement de couleur rouge, il peut choisir de dépenser celui-ci pour vaincre le monstre.»"""
    play(session, setup_event([("Gary", "teagaan", "N"), ("Paul", "mylfaar", "S")]),
         *known("incube"),
         {"type": "card", "id": "incube", "slot": "red.1"},
         {"type": "move", "hero": "teagaan", "to": [0, 1]},
         {"type": "fight", "targets": ["red.1"]},
         {"type": "dice", "faces": ["red", "blue", "green"]})
    assert session.view()["prompts"][0]["default"] == {"falls": ["red.1"],
                                                        "spend": {"teagaan": {"red": 1}}}
    session.submit({"type": "resolve"})
    assert session.view()["boards"]["red"][1] is None


def test_the_active_player_orders_the_recurring_effects(session):
    """«Quand plusieurs effets doivent être appliqués durant une même phase, le joueur actif
    choisit l'ordre dans lequel il les applique.» (Phase Horde)"""
    play(session, setup_event([("Gary", "kazgin", "S")], reserve={"life": 3}),
         card("leech", "yellow", 4, slot="yellow.0",
              recurring=[{"op": "lose", "token": "life"}]),
         {"type": "end_turn"},
         card("healer", "green", 4, slot="green.0"),  # another turn for Gary
         {"type": "end_turn"})
    # one card with a recurring effect: no question; now a second one on Gary's board
    session.submit(card("donor", "yellow", 4, slot="yellow.1",
                        recurring=[{"op": "gain", "token": "life"}]))
    session.submit({"type": "end_turn"})
    prompt = session.view()["prompts"][0]
    assert prompt["key"] == "prompt.choose_order"
    assert prompt["options"] == ["yellow.0", "yellow.1"]
    with pytest.raises(RuleError) as refused:
        session.submit({"type": "answer", "choice": ["yellow.1"]})
    assert refused.value.key == "answer.not_an_order"
    # Gary has 1 Life left: gaining first keeps him standing, losing first knocks him out
    session.submit({"type": "answer", "choice": ["yellow.1", "yellow.0"]})
    view = session.view()
    assert (view["heroes"]["kazgin"]["life"], view["status"]) == (1, "playing")
    session.submit({"type": "undo"})
    session.submit({"type": "answer"})  # the default: slot order, the leech first
    view = session.view()
    assert view["heroes"]["kazgin"]["state"] == "knocked_out" and view["status"] == "lost"
