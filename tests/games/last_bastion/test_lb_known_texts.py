"""The box's texts say what is known, and honestly what is not (issue 17, finding 2 and 5).

What the rulebook says is written out: the Trébuchet, the Carrière naine and the Étendard are
played with the Filet, Piège and Étendard figures («Les figurines Piège, Filet et Étendard sont
respectivement associées aux actions des tuiles Bastion Carrière naine, Trébuchet et Étendard»);
Warlords «ne sont pas affectés par les tuiles Bastion Tombeau des Rois Anciens, Trébuchet et
Carrière naine» but are by «la Tour des stratèges, la Fontaine divine ou l'Étendard»; the
Étendard lowers a monster's resistance («tuile Bastion Étendard et pouvoir du héros Mylfaar»)
(last-bastion.fr.txt). What no public source gives stays a "not known yet: teach it" in each
language, never a placeholder."""

from __future__ import annotations

import pytest

from companion.engine.catalog import localized
from companion.games.last_bastion.catalog import DATA

TEXTS = [(kind, item, spec["text"]) for kind in ("tile", "hero", "board")
         for item, spec in DATA[kind].items() if "text" in spec]
UNKNOWN = {("tile", "inn"), ("tile", "fountain"), ("tile", "tower"), ("hero", "hero-8"),
           ("board", "red"), ("board", "green"), ("board", "blue")}
"""Whose action or power no public source gives (../shared/research/components.md)."""


@pytest.mark.parametrize(("kind", "item", "text"), TEXTS, ids=lambda v: v if isinstance(
    v, str) else "")
def test_no_text_is_a_placeholder(kind, item, text):
    fr, en = localized(text, "fr"), localized(text, "en")
    assert "compléter" not in fr and "to be completed" not in en, (item, fr, en)
    if (kind, item) in UNKNOWN:
        assert "pas encore connu" in fr and "apprenez" in fr, fr
        assert "not known yet" in en and "teach" in en, en


def test_the_rulebook_facts_are_written_out():
    tile = {t: (localized(s["text"], "fr"), localized(s["text"], "en"))
            for t, s in DATA["tile"].items()}
    for item, figure_fr, figure_en in (("trebuchet", "Filet", "Net"),
                                        ("quarry", "Piège", "Trap"),
                                        ("standard", "Étendard", "Standard")):
        assert figure_fr in tile[item][0] and figure_en in tile[item][1]
    for item in ("tomb", "trebuchet", "quarry"):
        assert "jamais les Seigneurs de Guerre" in tile[item][0]
        assert "never Warlords" in tile[item][1]
    for item in ("tower", "fountain", "standard"):
        assert "Seigneurs de Guerre compris" in tile[item][0]
        assert "Warlords included" in tile[item][1]
    assert "résistance" in tile["standard"][0] and "resistance" in tile["standard"][1]


def test_a_hero_not_known_yet_is_named_in_each_language(tmp_path):
    """The eighth hero, whose board no public source names, is «Héros 8» on the French page and
    "Hero 8" on the English one: in the names the page shows and in what the table hears."""
    from companion.engine import Message, Session
    from companion.games.last_bastion import GAME
    from companion.i18n import render

    assert (GAME.names("fr")["hero-8"], GAME.names("en")["hero-8"]) == ("Héros 8", "Hero 8")
    session = Session(tmp_path / "data", games={"last-bastion": GAME})
    session.submit({"type": "setup", "game": "last-bastion", "mode": "normal",
                    "boards": {"N": "red", "E": "blue", "S": "yellow", "W": "green"},
                    "players": [{"name": "Anna", "hero": "hero-8", "side": "S"}],
                    "tiles": [["market", "tomb", "inn"], ["trebuchet", "fountain", "quarry"],
                              ["standard", "tower", "dispensary"]], "first": "S"})
    label = Message("history.setup", {"heroes": [session.state["heroes"]["hero-8"]["name"]]})
    assert "Héros 8" in render(label, "fr", GAME, session.state)
    assert "Hero 8" in render(label, "en", GAME, session.state)
    session.close()
