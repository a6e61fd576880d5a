"""What a Call to Arms says, and the live view counting rounds as the rulebook does (issue 17)."""

from __future__ import annotations

from lastbastion import known, solo

from companion.engine import Message, Session, find_game
from companion.i18n import catalog, render

LB = find_game("last-bastion")


def words(message: Message, lang: str) -> str:
    return render(message, texts=catalog(lang, LB))


def hero_phase(session: Session) -> None:
    """Gary (Teagaan) alone on the South board, the Incube drawn: his Hero phase, on the
    central Fountain."""
    session.submit(solo(hero="teagaan"))
    for event in known("incube"):
        session.submit(event)
    session.submit({"type": "card", "id": "incube", "slot": "red.0"})


def test_a_call_to_arms_says_it_was_one_and_what_it_cost(session):
    """«Utiliser un jeton Appel aux Armes permet au joueur actif d'utiliser l'action de n'importe
    quelle tuile Bastion, sans avoir à se trouver dessus [...] il place ce jeton dans la réserve»
    (last-bastion.fr.txt, "Appel aux Armes"): the table hears that a token was spent and how
    many are left, not only "activates Market" as if Gary stood there."""
    hero_phase(session)
    step = session.submit({"type": "activate", "tile": "market", "call_to_arms": True})
    said = [words(m, "en") for m in step.announcements]
    assert any("Call to Arms" in s and "Market" in s and "(0 left)" in s for s in said), said
    assert "Call to Arms" in words(step.label, "en") and "Market" in words(step.label, "en")
    dit = [words(m, "fr") for m in step.announcements]
    assert any("Appel aux Armes" in s and "Marché" in s for s in dit), dit
    assert "Appel aux Armes" in words(step.label, "fr")


def test_activating_the_tile_one_stands_on_is_no_call_to_arms(session):
    """«Activer une tuile Bastion»: the hero on the tile uses its action, no token spent."""
    hero_phase(session)
    session.submit({"type": "move", "hero": "teagaan", "to": [0, 0]})
    step = session.submit({"type": "activate", "tile": "market"})
    said = [words(m, "en") for m in step.announcements] + [words(step.label, "en")]
    assert not any("Call to Arms" in s for s in said), said
    assert any("activates Market" in s for s in said), said


def test_the_live_view_counts_rounds_as_the_history_does(session):
    """«Les joueurs jouent à tour de rôle, dans le sens des aiguilles d'une montre» and «le tour de
    jeu d'un plateau neutre» (last-bastion.fr.txt, "Tour de jeu", "Plateau neutre"): a round is
    a turn of each of the four Horde boards, so Gary's second turn, alone at the table, is round
    2 (the game's fifth board turn), as the history page counts it."""
    hero_phase(session)
    assert (session.view()["turn"], session.view()["round"]) == (1, 1)
    session.submit({"type": "end_turn"})
    assert (session.view()["turn"], session.view()["round"]) == (5, 2)
    assert LB.tally(session.state).turn == 2
