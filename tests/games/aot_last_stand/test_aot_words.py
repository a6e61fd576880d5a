"""What a player reads of Attack on Titan, in English and in French (issue 39, item 5): a card
the owner has not taught has a name, not its id ("basic-3"); a warning on the phones names the
page's way to teach, not a terminal command with JSON; a history label says what was paid in
words, not a Python dict; counts agree with their noun ("1 Titan face", "1 die"); the round is
«Tour», as in the rulebook («Fin du tour et nettoyage», ../shared/rules/attack-on-titan-last-
stand.fr.txt); the zones are named in the page's language («zone faible», not «WEAK ZONE»)."""

from __future__ import annotations

import json
import re

import pytest
from aot_helpers import commit, new_session, play, rolls, setup_event

from companion.engine import Event, validate
from companion.games.aot_last_stand import GAME
from companion.i18n import render

LANGS = ("en", "fr")
REPR = re.compile(r"\{'|\[\{|\{\"|--json|companion cards|\w+-\d\b")
"""A Python or JSON repr, a terminal command, a card id such as basic-3."""


@pytest.mark.parametrize("lang", LANGS)
def test_an_untaught_card_has_a_name_not_its_id(lang):
    names = GAME.names(lang)
    assert "basic-3" in names and not REPR.search(names["basic-3"]), names.get("basic-3")
    assert "3" in names["basic-3"]


@pytest.mark.parametrize("lang", LANGS)
def test_warnings_name_the_page_not_a_terminal_command(tmp_path, lang):
    session = new_session(tmp_path)
    session.submit(setup_event(heroes=(("sasha", 0), ("erwin", 3))))
    for warning in session.view()["warnings"]:
        text = render(warning, lang, GAME, session.state)
        assert not REPR.search(text), text
    session.close()


@pytest.mark.parametrize("lang", LANGS)
def test_the_history_says_a_payment_and_gifts_in_words(tmp_path, lang):
    """«[les Héros] doivent fournir ensemble autant de symboles ✎ que de Héros» (Frénésie,
    step 5); «Eren peut donner un dé à chacun de ses coéquipiers»: the history and the
    announcement name who paid or got what, in words."""
    session = new_session(tmp_path)
    play(session, setup_event(), commit("frenesie", "pietinement"),
         *rolls(eren=["tactic"] * 4 + ["move"], mikasa=["combat"] * 5, armin=["move"] * 5))
    gift = GAME.apply(session.state, checked({"type": "give", "gifts": {"mikasa": "move"}}))
    play(session, {"type": "give", "gifts": {"armin": "tactic"}})
    step = GAME.apply(session.state, checked({"type": "resolve", "pay": {"eren": {"tactic": 3}}}))
    texts = [render(m, lang, GAME, session.state) for m in (step.label, gift.label,
                                                          *gift.announcements)]
    for text in texts:
        assert not REPR.search(text) and "{" not in text, text
    assert "Eren 3 Tacti" in texts[0] and "Mikasa" in texts[1], texts
    session.close()


def checked(event):
    """An event as the session hands it to the rules."""
    fields = {k: v for k, v in event.items() if k != "type"}
    return Event(event["type"], validate(event["type"], fields, GAME.events[event["type"]]))


@pytest.mark.parametrize(("lang", "one"), [("en", "1 Titan face"), ("fr", "1 face Titan")])
def test_one_titan_face_is_singular(lang, one):
    message = {"key": "step.titan", "params": {"dice": 1}}
    assert one in render(message, lang, GAME, None)
    message = {"key": "ability.too_expensive", "params": {"n": 1, "cost": 2, "dice": 1}}
    assert ("2 Titan faces" if lang == "en" else "2 faces Titan") in render(message, lang, GAME,
                                                                            None)


@pytest.mark.parametrize("lang", LANGS)
def test_one_die_given_back_is_singular(lang):
    text = render({"key": "reroll.too_many", "params": {"hero": "eren", "returned": 1, "got": 2}},
                  lang, GAME, None)
    assert "/" not in text, text


def test_the_round_is_tour_as_in_the_rulebook():
    page = json.loads((GAME.messages_dir / "fr.json").read_text(encoding="utf-8"))
    assert page["ui.aot_round"].startswith("Tour")
    assert render({"key": "step.commit", "params": {"round": 5, "hand": 5}}, "fr", GAME,
                  None).startswith("Tour 5")


ZONES = {"en": ("the start space", "the normal zone", "the weak zone", "the kill zone"),
         "fr": ("case de départ", "zone normale", "zone faible", "zone mortelle"),
         "es": ("la casilla de salida", "la zona normal", "la zona débil", "la zona mortal")}
"""The zones of the health track in each language's own words (issue 39, item 5: «WEAK/KILL
ZONE» and «case Start» were the track's printed English in French): «Placez le marqueur Santé
sur la case « Start »», «la zone rouge « KILL ZONE »» (Mise en place, But du jeu)."""


@pytest.mark.parametrize("lang", sorted(ZONES))
def test_zones_are_named_in_the_pages_language(lang):
    said = [render({"key": "titan.damaged", "params": {"amount": 2, "health": 0, "zone": zone}},
                   lang, GAME, None) for zone in ("start", "normal", "weak", "kill")]
    for text, words in zip(said, ZONES[lang], strict=True):
        assert words in text, text
        assert not re.search(r"WEAK|KILL|ZONE|Start\b", text), text


@pytest.mark.parametrize("lang", sorted(ZONES))
def test_the_page_names_the_zones_as_the_announcements_do(lang):
    """The header's zone is the word the announcements use (less its article)."""
    from web.texts import ui_texts

    page = ui_texts(lang)
    header = [page[f"ui.aot_zone_{z}"].lower() for z in ("start", "normal", "weak", "kill")]
    for shown, said in zip(header, ZONES[lang], strict=True):
        assert said.endswith(shown), (shown, said)
    assert not re.search(r"WEAK|KILL", page["ui.aot_third_locked"])
