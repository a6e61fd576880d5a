"""The worked examples of the Last Heroes rulebook, each played through the session.

Every test cites the passage of ../shared/rules/last-heroes.fr.txt it encodes.
"""

from __future__ import annotations

from lastheroes_helpers import (
    END,
    idle,
    kill,
    level,
    load,
    play,
    player,
    refused,
    turn,
)

from companion.games.last_heroes.combat import covers, covers_with_upgrade


def others(n: int) -> list[dict]:
    """Ben's and Cleo's quiet turns, with their card number ``n``."""
    return [*idle("echo", n), *idle("ace", n)]


def test_the_spider_needs_two_bams(table):
    """«pour tuer l'Araignée ci-contre, il faut 2 Armes chargées, chacune avec au moins un BAM!.
    (Un POW! fait aussi l'affaire en remplacement d'un BAM!.)» A HIT! does not."""
    turn(table, load("flamethrower-6", "blind.left"))
    play(table, *others(3), load("flamethrower-3", "blind.right"))
    error = refused(table, kill("spider", "flamethrower-6", "flamethrower-3"), "kill.too_weak")
    assert error.params == {"monster": "spider", "needed": [2, 2], "given": [2, 1]}
    play(table, END, *others(4))
    play(table, load("flamethrower-10", "blind.right"),
         kill("spider", "flamethrower-6", "flamethrower-10"))
    ana = player(table, "blind")
    assert [m["card"] for m in ana["monsters"]] == ["spider"]
    assert [w["card"] for w in ana["loaded"]] == ["flamethrower-3"]
    assert table.view()["discard"][-2:] == ["flamethrower-6", "flamethrower-10"]


def test_the_snake_needs_four_weapons(table):
    """«pour tuer le Serpent ci-contre, il faut 4 Armes chargées, avec 2 POW!, 1 BAM! et 1 HIT!»;
    «Un Monstre doit être éliminé en une seule fois»: three weapons are not enough."""
    for n, source in ((10, "blind.left"), (11, "blind.right"), (6, "blind.left")):
        turn(table, load(f"flamethrower-{n}", source))
        play(table, *others(n - 3 if n > 6 else 5))
    play(table, load("flamethrower-3", "blind.right"))
    refused(table, kill("snake", "flamethrower-10", "flamethrower-11", "flamethrower-6"),
            "kill.weapon_count")
    table.submit(kill("snake", "flamethrower-10", "flamethrower-11", "flamethrower-6",
                      "flamethrower-3"))
    assert level(table, 2, 3)["monster"] is None
    assert player(table, "blind")["artefacts"] == ["impact"]


def test_four_pows_would_do_for_the_snake():
    """«(4 POW! pourraient aussi être utilisés, mais ce serait du gâchis.)» and «Chaque Arme
    chargée doit fournir un Impact de Force égale ou supérieure»; the Impact power lifts one
    weapon by one force («utilisez un HIT! pour un BAM! ou un BAM! pour un POW!»)."""
    snake = [3, 3, 2, 1]
    assert covers(snake, [3, 3, 3, 3])
    assert covers(snake, [1, 3, 2, 3])
    assert not covers(snake, [3, 2, 2, 1])
    assert covers_with_upgrade(snake, [3, 2, 2, 1])
    assert not covers_with_upgrade(snake, [2, 2, 2, 1])


def test_the_dragon_in_a_breach_needs_two_pows(table):
    """«si le Dragon se tient dans une Brèche, il ne faut plus que 2 Armes chargées pour le tuer
    au lieu de 4, chacune avec un POW!»; Ana's pawn goes back to her («rendez le pion Héros
    présent sur la carte à son propriétaire»)."""
    turn(table, load("flamethrower-6", "blind.left"))
    turn(table, load("crossbow-10", "echo.left"))
    play(table, *idle("ace", 3))
    play(table, load("flamethrower-7", "blind.right"),
         kill("spider", "flamethrower-6", "flamethrower-7"), END)
    assert level(table, 1, 3)["pawn"] == "blind" and level(table, 1, 3)["breach"]
    play(table, load("crossbow-11", "echo.right"))
    table.submit(kill("dragon", "crossbow-10", "crossbow-11"))
    assert [m["card"] for m in player(table, "echo")["monsters"]] == ["dragon"]
    assert player(table, "blind")["pawn"] is None


def test_a_level_1_breach_halves_the_level_2_monster_only(table):
    """«Si la Brèche se trouve au niveau 1, le Monstre de niveau 2 pourra être éliminé avec
    seulement 1 Arme au lieu de 2 ; par contre, il faudra toujours 4 Armes pour tuer le Monstre
    de niveau 3.» Cleo kills the Imp (level 1) and her pawn stands on the Ghoul."""
    play(table, *idle("blind", 3), *idle("echo", 3))
    turn(table, load("pistol-6", "ace.left"), kill("imp", "pistol-6"))
    assert player(table, "ace")["pawn"] == [3, 2]
    assert level(table, 3, 2)["breach"] and not level(table, 3, 3)["breach"]
    play(table, load("flamethrower-7", "blind.left"), kill("ghoul", "flamethrower-7"), END)
    assert player(table, "ace")["pawn"] is None, "the pawn went back to Cleo"
    assert player(table, "blind")["pawn"] == [3, 3]


def test_a_level_2_breach_wins_the_artefact_for_its_opener(table):
    """«Si la Brèche se trouve au niveau 2, le Monstre de niveau 3 pourra être éliminé avec
    seulement 2 Armes au lieu de 4.» and «sauf si un autre pion Héros est présent sur la carte du
    Monstre que vous venez de tuer. Dans ce cas, ce Héros remporte l'Artefact et le Pouvoir»."""
    turn(table, load("flamethrower-3", "blind.left"))
    turn(table, load("crossbow-6", "echo.left"))
    play(table, *idle("ace", 3))
    play(table, load("flamethrower-6", "blind.right"),
         kill("wolf", "flamethrower-6", "flamethrower-3"), END)
    assert player(table, "blind")["pawn"] == [2, 3]
    play(table, load("crossbow-10", "echo.right"))
    refused(table, kill("snake", "crossbow-10"), "kill.weapon_count")
    table.submit(kill("snake", "crossbow-10", "crossbow-6"))
    assert player(table, "blind")["artefacts"] == ["impact"]
    assert player(table, "blind")["powers"] == ["impact"]
    assert player(table, "echo")["artefacts"] == []
    assert player(table, "echo")["pawn"] is None, "a level-3 kill puts the pawn back in front"
    assert table.view()["battlefield"][1]["holder"] == "blind"
