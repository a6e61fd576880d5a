"""Every message key the code can produce has a text in French and in English."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from catalogkeys import ROOT, keys_used

from companion.engine import Message, installed_games
from companion.i18n import catalog, render


@pytest.mark.parametrize("lang", ["fr", "en"])
def test_every_key_has_a_text(lang):
    texts = {}
    for game in installed_games().values():
        texts.update(catalog(lang, game))
    missing = sorted(k for k in keys_used() if k not in texts)
    assert not missing, f"no {lang} text for {missing}"


def test_the_two_languages_have_the_same_keys():
    for folder in [ROOT / "i18n", *[Path(g.messages_dir) for g in installed_games().values()]]:
        fr = json.loads((folder / "fr.json").read_text())
        en = json.loads((folder / "en.json").read_text())
        assert set(fr) == set(en), f"{folder}: {sorted(set(fr) ^ set(en))}"


def test_templates_only_name_parameters_that_render():
    """Rendering every template with its own placeholders filled never raises."""
    for lang in ("fr", "en"):
        for game in installed_games().values():
            texts = catalog(lang, game)
            for key in texts:
                assert render(Message(key, {}), lang, game)


def test_names_and_lists_are_translated():
    game = installed_games()["last-bastion"]
    message = Message("dice.rolled", {"faces": ["red", "white", "black"]})
    assert render(message, "fr", game) == "Dés : rouge, blanc, noir."
    assert render(message, "en", game) == "Dice: red, white, black."
