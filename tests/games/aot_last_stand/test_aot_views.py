"""The shared view never shows the face-down Action card; the Titan's own view does. Every
message key of the game has a text in French and English. Rulebook: «L'Action jouée face cachée
reste inconnue des joueurs Héros tant que celle visible n'a pas été résolue.»"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from aot_helpers import NEXT, commit, new_session, play, rolls, setup_event
from catalogkeys import keys_used

from companion.engine import Message
from companion.games.aot_last_stand import GAME
from companion.games.aot_last_stand.rules import PROMPT_KEYS
from companion.i18n import catalog, render

FOLDER = Path(GAME.messages_dir).parent


def test_the_hidden_card_stays_hidden_until_revealed(tmp_path):
    """Neither the view, nor an announcement, a history label or a prompt names the hidden card
    before step 5 turns it over; the Titan's view does from the start."""
    session = new_session(tmp_path)
    steps = [session.submit(setup_event()), session.submit(commit("pietinement", "frenesie"))]
    steps += [session.submit(e) for e in rolls(eren=["titan", "titan", "move", "dodge", "dodge"],
                                               mikasa=["combat"] * 5, armin=["cannon"] * 5)]
    steps += [session.submit(NEXT), session.submit({"type": "ability", "n": 1}),
              session.submit(NEXT)]
    shared = json.dumps([session.view(), [f.label for f in session.history()],
                         [m.to_json() for s in steps for m in s.announcements],
                         [p.to_json() for s in steps for p in s.prompts]])
    assert "frenesie" not in shared
    assert session.view()["titan"]["hand_size"] == 5
    titan = GAME.titan_view(session.state)
    assert titan["hidden"] == "frenesie" and len(titan["hand"]) == 5
    play(session, NEXT, {"type": "resolve"})
    assert session.view()["actions"][1]["card"] == "frenesie"
    session.close()


def test_setup_picture(tmp_path):
    """«Installation»: 3 hearts, 5 dice, 12 Citizens, 6 Cannons, the marker on Start, the Titan's
    7 Action cards, the Tactic pile face up."""
    session = new_session(tmp_path)
    session.submit(setup_event(tactics=["guerison"]))
    view = session.view()
    assert view["heroes"]["armin"]["hearts"] == 3 and view["heroes"]["armin"]["level"] == 3
    assert (view["citizens"]["left"], view["cannons"]["left"]) == (12, 6)
    assert (view["health"]["marker"], view["health"]["zone"]) == (0, "start")
    assert view["titan"]["hand_size"] == 7 and view["step"] == 1
    assert view["tactic"] == {"top": "guerison", "pile": 7, "met": [], "needed": 3,
                              "conditions": None, "used": []}
    assert [h["colour"] for h in view["heroes"].values()] == ["red", "yellow", "green"]
    session.close()


def test_owner_definitions_are_kept_for_later_games(tmp_path):
    """A card taught on the spot is saved in the data directory and known in the next game."""
    session = new_session(tmp_path)
    play(session, setup_event(), commit("basic-3", "pietinement"),
         *rolls(eren=["move"] * 5, mikasa=["move"] * 5, armin=["move"] * 5), NEXT)
    step = session.submit({"type": "resolve", "define": {
        "name": {"fr": "Coup de pied", "en": "Kick"}, "effects": [{"op": "destroy", "amount": 1}],
        "counter": {"type": "collective"}}})
    assert step.learned[0][:2] == ("action", "basic-3")
    assert session.view()["cannons"]["left"] == 5
    session.submit(setup_event())
    assert session.state["catalog"]["action"]["basic-3"]["name"]["en"] == "Kick"
    assert GAME.names("fr", session.state)["basic-3"] == "Coup de pied"
    session.close()


@pytest.mark.parametrize("lang", ["fr", "en"])
def test_every_key_has_a_text(lang):
    texts = catalog(lang, GAME)
    missing = sorted(k for k in keys_used(FOLDER) | set(PROMPT_KEYS.values()) if k not in texts)
    assert not missing, f"no {lang} text for {missing}"
    for key in texts:
        assert render(Message(key, {}), lang, GAME)


def test_the_two_languages_have_the_same_keys():
    fr = json.loads((FOLDER / "messages" / "fr.json").read_text())
    en = json.loads((FOLDER / "messages" / "en.json").read_text())
    assert set(fr) == set(en), sorted(set(fr) ^ set(en))


def test_a_refusal_reads_as_a_sentence():
    message = Message("cannon.too_many", {"count": 2, "used": 1, "cannons": 2})
    assert render(message, "fr", GAME) == ("2 symboles Canon de plus, c'est trop : 1 déjà "
                                           "utilisés ce tour, 2 Canons sur la Tour.")
    assert render(Message("dice.rolled", {"hero": "eren", "faces": ["titan", "dodge"],
                                          "to_titan": 1}), "fr", GAME) == \
        "Eren lance Titan, Esquive ; 1 pour le Titan."
