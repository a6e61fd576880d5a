"""Losing what a hero does not hold (issue 13, finding 1).

Rulebook p.9, "Inventaire et réserve": «si un joueur doit perdre un jeton rond alors qu'il n'en a
pas, il ne perd rien et l'effet est ignoré» (and its F.A.Q.: «Si un joueur n'a pas de jeton rond,
il ne perd rien»). An effect goes to another hero only on a neutral board (p.7, "Plateau neutre":
«assumés [...] par un des joueurs ayant la capacité de les subir») and for what is left of an
effect once its hero is knocked out (F.A.Q.: «un autre joueur doit appliquer l'effet restant»).
"""

from __future__ import annotations

from lastbastion import card, play, setup_event

LOSE_CALL = [{"op": "lose", "token": "call_to_arms"}]
WIN_YELLOW_1 = [{"type": "move", "hero": "kazgin", "to": [2, 1]},
                {"type": "fight", "targets": ["yellow.1"]},
                {"type": "dice", "faces": ["yellow", "red", "red"], "grey": "red"},
                {"type": "resolve"}]
"""Gary beats a resistance-1 yellow card on yellow.1 from the South edge."""


def _duo(session, *events):
    """Gary (Kazgin, S, yellow) plays first; Paul (Mylfaar, N, red). Both hold 3 Life, 1 Call to
    Arms and 1 Equipment of their colour; Gary has given his Call to Arms back (a correction)."""
    return play(session, setup_event([("Gary", "kazgin", "S"), ("Paul", "mylfaar", "N")]),
                {"type": "adjust", "hero": "kazgin", "call_to_arms": 0}, *events)


def _keys(step):
    return [m.key for m in step.announcements]


def _paul_untouched(session):
    view = session.view()
    paul = view["heroes"]["mylfaar"]
    assert paul["call_to_arms"] == 1, "the teammate does not lose it in Gary's place"
    assert paul["equipment"]["red"] == 1
    assert paul["life"] == 3
    return view


def test_arrival_loss_of_a_token_the_active_hero_lacks_is_ignored(session):
    """The issue's smallest case: «Effets d'arrivée [...] le joueur actif doit le subir» (p.6);
    Gary has no Call to Arms, so nothing is lost and nobody is asked to lose one instead."""
    step = _duo(session, card("thief", "yellow", 1, slot="yellow.0", arrival=LOSE_CALL))
    view = _paul_untouched(session)
    assert view["heroes"]["kazgin"]["call_to_arms"] == 0
    assert "token.none" in _keys(step) and "token.lost" not in _keys(step)
    assert view["expects"]["kind"] == "action", "no assign: Gary's Hero phase goes on"
    assert view["phase"] == "hero" and view["active"] == "S"


def test_round_token_the_active_hero_lacks_is_not_taken_from_a_teammate(session):
    """A round token (read as Equipment) lost by a hero who holds none: ignored (p.9)."""
    _duo(session, {"type": "adjust", "hero": "kazgin", "equipment": {"yellow": 0}},
         card("boucher-like", "yellow", 1, slot="yellow.0",
              arrival=[{"op": "lose", "token": "round"}]))
    _paul_untouched(session)
    assert session.expects().kind == "action"


def test_exit_loss_the_fighter_lacks_is_ignored(session):
    """An exit effect is suffered by the active hero who won the fight; lacking the token, he
    loses nothing (p.9) and his teammate is not involved."""
    step = _duo(session, card("thief", "yellow", 1, slot="yellow.1", exit=LOSE_CALL),
                *WIN_YELLOW_1)
    view = _paul_untouched(session)
    assert view["boards"]["yellow"][1] is None, "the thief fell"
    assert "token.none" in _keys(step)


def test_full_board_power_the_active_hero_cannot_pay_is_ignored(session):
    """A full board's power is suffered by its active player (p.6, "Action du plateau Horde");
    Gary has no Call to Arms: ignored, not passed to Paul."""
    chain = [{"op": "draw"}]
    _duo(session,
         {"type": "teach", "kind": "board", "id": "yellow", "definition": {"full": LOSE_CALL}},
         card("a", "yellow", 1, slot="yellow.0", arrival=chain),
         card("b", "yellow", 1, slot="yellow.1", arrival=chain),
         card("c", "yellow", 1, slot="yellow.2"), {"type": "end_turn"},
         card("d", "red", 1, slot="red.0"))
    step = session.submit({"type": "end_turn"})  # W and E are neutral: on to Gary's full board
    assert "board.full" in _keys(step)
    view = _paul_untouched(session)
    assert view["active"] == "S" and view["phase"] == "hero"
    assert "token.none" in _keys(step)


def test_corruption_face_loss_the_roller_lacks_is_ignored(session):
    """The Corruption face rolled for Gary (an exit effect «lancer le dé Corruption et [...] en
    subir l'effet», F.A.Q.) takes a Call to Arms he does not have: ignored."""
    _duo(session,
         {"type": "teach", "kind": "corruption", "id": "corruption-2",
          "definition": {"effects": LOSE_CALL}},
         card("tormentor", "yellow", 1, slot="yellow.1", exit=[{"op": "corruption"}]),
         *WIN_YELLOW_1)
    step = session.submit({"type": "dice", "faces": ["corruption-2"]})
    _paul_untouched(session)
    assert "token.none" in _keys(step)
    assert session.expects().kind == "action"


def test_grip_on_an_already_gripped_hero_board_is_not_moved_to_a_teammate(session):
    """An Evil grip figure for the active hero's board, which already holds one: it has nowhere to
    go on that board, and the effect names its victim, so Paul's board stays free."""
    step = _duo(session, {"type": "adjust", "hero": "kazgin", "grip": True},
                card("binder", "yellow", 1, slot="yellow.0",
                     arrival=[{"op": "grip", "target": "hero"}]))
    view = session.view()
    assert view["heroes"]["mylfaar"]["grip"] is False
    assert view["reserve"]["grip"] == 11, "only the correction's figure left the reserve"
    assert "effect.ignored" in _keys(step)


def test_what_is_left_after_a_knock_out_goes_to_another_hero(session):
    """F.A.Q.: «le premier de ces effets fait perdre au héros son dernier jeton Point de Vie, le
    second effet est-il appliqué ? Oui, un autre joueur doit appliquer l'effet restant.»"""
    _duo(session, {"type": "adjust", "hero": "kazgin", "life": 1},
         card("reaper", "yellow", 1, slot="yellow.1",
              exit=[{"op": "lose", "token": "life"}, *LOSE_CALL]),
         *WIN_YELLOW_1)
    view = session.view()
    assert view["heroes"]["kazgin"]["state"] == "knocked_out"
    assert view["heroes"]["mylfaar"]["call_to_arms"] == 0, "Paul applies the remaining effect"


def test_neutral_board_effect_still_goes_to_a_hero_able_to_suffer_it(session):
    """p.7: on a neutral board the effect is suffered by a player able to suffer it; Gary holds
    no Call to Arms, so Paul, the only one who does, loses his."""
    _duo(session, card("thief", "green", 1, slot="green.0", recurring=LOSE_CALL),
         {"type": "end_turn"})
    view = session.view()
    assert view["heroes"]["mylfaar"]["call_to_arms"] == 0
    assert view["heroes"]["kazgin"]["call_to_arms"] == 0


def test_the_rest_of_a_loss_that_knocks_out_goes_to_another_hero(session):
    """The same F.A.Q. answer for one effect worth two Life: the first knocks Gary out, «un autre
    joueur doit appliquer l'effet restant»: Paul loses the second."""
    _duo(session, {"type": "adjust", "hero": "kazgin", "life": 1},
         card("reaper", "yellow", 1, slot="yellow.1",
              exit=[{"op": "lose", "token": "life", "amount": 2}]),
         *WIN_YELLOW_1)
    view = session.view()
    assert view["heroes"]["kazgin"]["state"] == "knocked_out"
    assert view["heroes"]["mylfaar"]["life"] == 2
    assert view["reserve"]["life"] == 15 - 6 + 2 + 2, "the correction's 2, then 1 each"
