"""Every message key the code can produce has a text in every language (French, English,
Spanish...), every catalog has every English key with the same parameters, and the languages
configured are those whose catalogs are found (issue 44, items 3 and 4)."""

from __future__ import annotations

import json
import string
from pathlib import Path

import pytest
from catalogkeys import ROOT, keys_used

from companion.engine import Message, installed_games
from companion.i18n import LANGUAGES, catalog, render
from vision.say import LANGUAGES as VISION_LANGUAGES


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_key_has_a_text(lang):
    texts = {}
    for game in installed_games().values():
        texts.update(catalog(lang, game))
    missing = sorted(k for k in keys_used() if k not in texts)
    assert not missing, f"no {lang} text for {missing}"


REPOSITORY = ROOT.parent
FOLDERS = sorted({path.parent for path in REPOSITORY.glob("**/en.json")
                  if not {".venv", "node_modules", ".git"} & set(path.parts)})
"""Every catalog folder: each holds one ``<language>.json`` per language (docs/languages.md)."""
FOUND = sorted({path.stem for folder in FOLDERS for path in folder.glob("*.json")})
"""The languages whose catalogs are in the tree, whatever the configuration says."""


def fields(text: str) -> set[str]:
    """The parameters a template names (``{hero}``, ``{count:one=…}``: ``hero``, ``count``)."""
    return {name for _, name, _, _ in string.Formatter().parse(text) if name}


def texts_of(path: Path) -> dict[str, str]:
    """A catalog file's texts, its notes (``_translation``...) left out as the loader does."""
    return {k: v for k, v in json.loads(path.read_text(encoding="utf-8")).items()
            if not k.startswith("_")}


def test_the_configured_languages_are_those_whose_catalogs_are_found():
    """A language is its catalogs plus one line (``LANGUAGES``): neither goes without the other."""
    assert "companion/i18n" in {str(f.relative_to(REPOSITORY)) for f in FOLDERS}
    assert sorted(LANGUAGES) == FOUND
    assert sorted(VISION_LANGUAGES) == FOUND


@pytest.mark.parametrize("lang", FOUND)
@pytest.mark.parametrize("folder", FOLDERS, ids=lambda f: str(f.relative_to(REPOSITORY)))
def test_every_english_key_has_a_text_with_the_same_parameters(folder, lang):
    """Each catalog of a language has every key of English, no other, and each text names the
    parameters the English one names (a missing ``{hero}`` would drop it, an extra one shows a
    dash)."""
    english = texts_of(folder / "en.json")
    path = folder / f"{lang}.json"
    assert path.is_file(), f"{path} is missing: every catalog folder has one file per language"
    other = texts_of(path)
    assert set(other) == set(english), f"{path}: {sorted(set(other) ^ set(english))}"
    differ = {k: (fields(english[k]), fields(other[k])) for k in english
              if fields(english[k]) != fields(other[k])}
    assert not differ, f"{path}: parameters differ from English {differ}"


def printed_texts(node, where: str = ""):
    """Every per-language text of a game's catalog data: ``(where, {"fr": …, "en": …})``."""
    if isinstance(node, dict):
        if "en" in node and isinstance(node["en"], str):
            yield where, node
            return
        for key, value in node.items():
            yield from printed_texts(value, f"{where}/{key}")
    elif isinstance(node, list):
        for i, value in enumerate(node):
            yield from printed_texts(value, f"{where}/{i}")


@pytest.mark.parametrize("game", sorted(installed_games()))
def test_every_name_of_a_games_data_is_given_in_every_language(game):
    """A tile's, card's or hero's own name (``catalog.json``) is in each language found."""
    data = json.loads((Path(installed_games()[game].messages_dir).parent / "catalog.json")
                      .read_text(encoding="utf-8"))
    missing = [where for where, texts in printed_texts(data) if set(texts) != set(FOUND)]
    assert not missing, f"{game}: no text in every one of {FOUND} for {missing}"


def test_templates_only_name_parameters_that_render():
    """Rendering every template with its own placeholders filled never raises."""
    for lang in LANGUAGES:
        for game in installed_games().values():
            texts = catalog(lang, game)
            for key in texts:
                assert render(Message(key, {}), lang, game)


def test_names_and_lists_are_translated():
    game = installed_games()["last-bastion"]
    message = Message("dice.rolled", {"faces": ["red", "white", "black"]})
    assert render(message, "fr", game) == "Dés : rouge, blanc, noir."
    assert render(message, "en", game) == "Dice: red, white, black."


@pytest.mark.parametrize(("count", "said"), [(0, "0 pasos"), (1, "1 paso"), (2, "2 pasos"),
                                             (1.5, "1.5 pasos")])
def test_spanish_plurals_follow_cldr(count, said):
    """Spanish says «0 pasos» (CLDR: one is n = 1 only), as English and unlike French."""
    assert said in render(Message("undo.done", {"count": count, "labels": []}), "es")


def test_spanish_names_the_edition_prints():
    """«Turno de Anna» (no French elision), the Horde board and the tile as the Spanish rulebook
    names them (last-bastion.es.txt: «tablero de la Horda», «loseta de Mercado»)."""
    game = installed_games()["last-bastion"]
    assert render(Message("turn.start", {"hero": "Anna", "board": "red"}), "es", game) == \
        "Turno de Anna: fase de la Horda del tablero rojo."
    assert render(Message("tile.activated_cta", {"hero": "Gary", "tile": "market", "left": 0}),
                  "es", game) == ("Gary gasta una ficha de Llamado a las armas y activa Mercado "
                                  "(le quedan 0).")
