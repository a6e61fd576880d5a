"""The worked examples of the Last Stand rulebook, and the hero powers, played through the session.

Every test cites the passage of ../shared/rules/attack-on-titan-last-stand.fr.txt it encodes.
"""

from __future__ import annotations

from aot_helpers import NEXT, commit, new_session, play, refused, rolls, setup_event, suffer


def to_step_6(session, **faces):
    """Step 1 to 6 with the given first rolls, no Titan face, nothing countered in step 5."""
    play(session, commit(), *rolls(**faces), NEXT)
    suffer(session)
    assert session.view()["step"] == 6


def test_corentin_rolls(session):
    """«Corentin lance ses 5 dés [...] donne immédiatement le [Titan] à Théo [...] décide de
    relancer son [...] et son [...]. Il obtient alors un [Titan] et un [...]. Il donne le [Titan] à
    Théo avant de relancer à nouveau le [...]» — and ends with three dice, two with the Titan."""
    play(session, setup_event(), commit())
    session.submit({"type": "roll", "hero": "eren",
                    "faces": ["titan", "combat", "move", "dodge", "cannon"]})
    assert session.view()["titan"]["titan_dice"] == 1
    session.submit({"type": "roll", "hero": "eren", "reroll": ["dodge", "cannon"],
                    "faces": ["titan", "tactic"]})
    session.submit({"type": "roll", "hero": "eren", "reroll": ["tactic"], "faces": ["move"]})
    view = session.view()
    assert view["heroes"]["eren"]["dice"] == ["combat", "move", "move"]
    assert view["titan"]["titan_dice"] == 2
    assert view["step"] == 2


def test_theo_devours_a_citizen_and_gives_the_dice_back(session):
    """«Théo qui joue le Titan a récupéré 2 symboles [Titan] [...] sa première aptitude : son Titan
    dévore donc un Citoyen [...] Il rend ensuite ces deux dés à leurs propriétaires.» Step 4: «Les
    dés relancés ne sont pas remis au joueur Titan si leur résultat sont des [Titan]»."""
    play(session, setup_event(), commit(),
         *rolls(eren=["titan", "titan", "move", "move", "combat"],
                mikasa=["combat"] * 5, armin=["tactic"] * 5), NEXT)
    assert session.expects().events == ("ability", "next", "reroll")
    play(session, {"type": "ability", "n": 1}, NEXT)
    view = session.view()
    assert view["citizens"] == {"left": 11, "devoured": 1}
    assert view["heroes"]["eren"]["given_back"] == 2
    assert session.expects().count == 2
    refused(session, {"type": "reroll", "hero": "eren", "faces": ["move"] * 3},
            "reroll.too_many")
    play(session, {"type": "reroll", "hero": "eren", "faces": ["titan", "dodge"]})
    view = session.view()
    assert view["titan"]["titan_dice"] == 0, "a Titan face in step 4 is only set aside"
    assert view["heroes"]["eren"]["dice"] == ["combat", "dodge", "move", "move"]


def test_step_4_ends_once_every_given_back_die_is_rerolled(session):
    """«les Héros ont une dernière chance de relancer les dés récupérés au cours de l'étape 3. Les
    dés conservés auparavant ne peuvent pas être relancés» (step 4): once each die the Titan gave
    back has been rerolled, nothing is left to do in step 4 and the Action cards are resolved
    (step 5) without a "next"; a hero who keeps a given-back die still ends it with "next"."""
    play(session, setup_event(), commit(),
         *rolls(eren=["titan", "titan", "move", "move", "combat"],
                mikasa=["titan"] + ["combat"] * 4, armin=["tactic"] * 5), NEXT, NEXT)
    play(session, {"type": "reroll", "hero": "eren", "faces": ["dodge", "dodge"]})
    assert session.view()["step"] == 4  # Mikasa's die is still to reroll, or to keep
    play(session, {"type": "reroll", "hero": "mikasa", "faces": ["move"]})
    assert session.view()["step"] == 5
    assert session.expects().events == ("resolve",)


def test_theo_stomp_then_frenzy(session):
    """«Piétinement [...] Chaque Héros au sol (au niveau 0) peut dépenser 2 de ses dés pour parer
    l'attaque, ou perdre un jeton Cœur. Ensuite, Théo révèle son Action cachée : Frénésie. Les trois
    Héros peuvent réunir ensemble 3, sinon le Titan détruit un Canon, dévore un Citoyen, et se
    soigne (en déplaçant le marqueur Santé de 2 cases vers la gauche).»"""
    play(session, setup_event(), commit(),
         *rolls(eren=["dodge", "dodge", "combat", "combat", "move"],
                mikasa=["dodge", "combat", "combat", "tactic", "tactic"],
                armin=["tactic", "cannon", "cannon", "move", "move"]), NEXT)
    assert session.view()["actions"][1] == {"card": None, "face_up": False, "resolved": False}
    session.submit({"type": "resolve", "pay": {"eren": {"dodge": 2}}})
    view = session.view()
    assert view["heroes"]["eren"]["hearts"] == 3
    assert view["heroes"]["mikasa"]["hearts"] == 2, "Mikasa on the ground did not dodge"
    assert view["heroes"]["armin"]["hearts"] == 3, "Armin on the Tower is not hit"
    assert view["actions"][1]["card"] == "frenesie", "revealed once the first is resolved"
    refused(session, {"type": "resolve", "pay": {"mikasa": {"tactic": 2}}},
            "counter.wrong_amount")
    play(session, {"type": "adjust", "health": 5}, {"type": "resolve"})
    view = session.view()
    counts = (view["cannons"]["left"], view["citizens"]["left"], view["health"]["marker"])
    assert counts == (5, 11, 3)


def test_frenzy_countered_by_three_heroes_together(session):
    """«Les trois Héros peuvent réunir ensemble 3» — the collective symbol, scaled by the number of
    heroes («3 Héros : 3 symboles»), paid by several heroes."""
    play(session, setup_event(), commit("frenesie", "pietinement"),
         *rolls(eren=["tactic", "move", "move", "combat", "combat"],
                mikasa=["tactic", "combat", "combat", "dodge", "dodge"],
                armin=["tactic", "cannon", "cannon", "move", "move"]), NEXT)
    session.submit({"type": "resolve", "pay": {h: {"tactic": 1} for h in ("eren", "mikasa",
                                                                          "armin")}})
    view = session.view()
    assert (view["cannons"]["left"], view["citizens"]["left"]) == (6, 12)
    assert view["heroes"]["eren"]["dice"] == ["combat", "combat", "move", "move"]


def test_eren_two_moves(session):
    """«Eren se situe sur la plateforme 4 et dispose de 2 symboles. Il peut monter jusqu'à la
    plate-forme 6 ou s'arrêter sur le deuxième étage de la Tour (5). Il peut également redescendre
    au premier étage de la Tour, au palier 3 ou 2.»"""
    for to, left in ((6, 0), (5, 1), (3, 1), (2, 0)):
        session.submit(setup_event())
        session.submit({"type": "adjust", "hero": "eren", "level": 4})
        to_step_6(session, eren=["move", "move", "combat", "combat", "cannon"],
                  mikasa=["combat"] * 5, armin=["cannon"] * 5)
        session.submit({"type": "move", "hero": "eren", "to": to})
        view = session.view()["heroes"]["eren"]
        assert view["level"] == to
        assert view["dice"].count("move") == left
    refused(session, {"type": "move", "hero": "eren", "to": 8}, "dice.not_enough")


def test_ground_to_tower_in_one_move(session):
    """«Avec 1 seul [mouvement], un Héros peut se déplacer entre le sol (niveau 0) et le premier
    étage (soit le niveau 3 de la Tour), ou bien entre le 1er étage et le 2ème étage (niveau 5).»"""
    session.submit(setup_event())
    to_step_6(session, eren=["move", "move", "combat", "combat", "cannon"],
              mikasa=["combat"] * 5, armin=["cannon"] * 5)
    play(session, {"type": "move", "hero": "eren", "to": 3},
         {"type": "move", "hero": "eren", "to": 5})
    assert session.view()["heroes"]["eren"]["level"] == 5


def test_tactic_cycling(session):
    """«La carte Tactique active est « Sauvetage ». En dessous de cette carte se trouvent les
    Tactiques « Guérison » et « Tir Aveuglant ». Les Héros décident de dépenser 2 [Tactique] [...]
    « Tir Aveuglant » est donc la nouvelle carte Tactique en jeu.»"""
    session.submit(setup_event())
    assert session.view()["tactic"]["top"] == "sauvetage"
    to_step_6(session, eren=["tactic", "move", "move", "combat", "combat"],
              mikasa=["tactic", "combat", "combat", "dodge", "dodge"], armin=["cannon"] * 5)
    session.submit({"type": "cycle", "pay": {"eren": 1, "mikasa": 1}})
    assert session.view()["tactic"]["top"] == "tir-aveuglant"
    refused(session, {"type": "cycle", "pay": {"eren": 1}}, "dice.not_enough")


def test_tactic_with_its_three_conditions(session):
    """«Condition 1 : Un Héros doit se trouver au niveau 4 et fournir 2 symboles. Condition 2 : Un
    Héros doit se trouver au niveau 3 et fournir 1 symbole. Condition 3 : Les Héros doivent fournir
    collectivement 2 symboles. [...] si toutes les conditions sont remplies, la carte Tactique est
    activée [...] celle-ci est retirée du jeu.» The example's conditions, taught to Sauvetage."""
    conditions = [{"level": 4, "symbol": "combat", "count": 2},
                  {"level": 3, "symbol": "dodge", "count": 1},
                  {"symbol": "tactic", "count": 2}]
    play(session, setup_event(), {"type": "teach", "kind": "tactic", "id": "sauvetage",
                                  "definition": {"conditions": conditions}},
         {"type": "adjust", "hero": "eren", "level": 4})
    to_step_6(session, eren=["combat", "combat", "tactic", "move", "move"],
              mikasa=["tactic", "combat", "combat", "dodge", "dodge"],
              armin=["dodge", "cannon", "cannon", "move", "move"])
    session.submit({"type": "adjust", "devoured": 6})
    refused(session, {"type": "provide", "condition": 1, "pay": {"mikasa": {"combat": 2}}},
            "tactic.wrong_level")
    play(session, {"type": "provide", "condition": 1, "pay": {"eren": {"combat": 2}}},
         {"type": "provide", "condition": 2, "pay": {"armin": {"dodge": 1}}})
    assert session.view()["tactic"]["met"] == [1, 2]
    session.submit({"type": "provide", "condition": 3,
                    "pay": {"eren": {"tactic": 1}, "mikasa": {"tactic": 1}}})
    view = session.view()
    assert view["tactic"]["used"] == ["sauvetage"]
    assert view["tactic"]["top"] == "guerison"
    assert view["citizens"]["devoured"] == 2, "Sauvetage turns 4 Citizens face up again"


def test_levi_keeps_his_titan_faces(session):
    """«Levi ne donne pas ses faces [Titan] au Titan. Toutefois, il n'a pas le droit de relancer ces
    dés.»"""
    play(session, setup_event((("levi", 0), ("mikasa", 0))), commit())
    session.submit({"type": "roll", "hero": "levi",
                    "faces": ["titan", "titan", "combat", "move", "dodge"]})
    assert session.view()["titan"]["titan_dice"] == 0
    refused(session, {"type": "roll", "hero": "levi", "reroll": ["titan"], "faces": ["move"]},
            "roll.levi_titan")


def test_eren_gives_a_die_to_each_teammate(session):
    """«À la fin de la phase 2 de chaque tour, Eren peut donner un dé à chacun de ses coéquipiers.
    Dans tous les cas, il récupère ses dés à la fin du tour.»"""
    play(session, setup_event(), commit(),
         *rolls(eren=["cannon", "combat", "move", "move", "dodge"], mikasa=["combat"] * 5,
                armin=["tactic"] * 5))
    refused(session, {"type": "give", "gifts": {"eren": "move"}}, "give.not_teammate")
    session.submit({"type": "give", "gifts": {"mikasa": "move", "armin": "cannon"}})
    view = session.view()
    assert view["step"] == 5, "the gift ends step 2 (no Titan face: steps 3 and 4 are skipped)"
    assert view["heroes"]["armin"]["dice"].count("cannon") == 1
    assert view["heroes"]["eren"]["dice"] == ["combat", "dodge", "move"]


def test_mikasa_combat_counts_double(session):
    """«Chaque face [Combat] obtenu par Mikasa compte comme 2» (the symbol is the research's
    inference); «Chaque [Combat] engendre 1 dégât au Titan»."""
    play(session, setup_event(), {"type": "adjust", "hero": "mikasa", "level": 1})
    to_step_6(session, eren=["move"] * 5, mikasa=["combat", "move", "move", "dodge", "dodge"],
              armin=["cannon"] * 5)
    session.submit({"type": "melee", "hero": "mikasa", "count": 2})
    assert session.view()["health"]["marker"] == 2
    assert session.view()["heroes"]["mikasa"]["dice"] == ["dodge", "dodge", "move", "move"]


def test_hange_fires_from_anywhere_and_cannons_do_two(session):
    """«Hange peut utiliser ses [Canon] sans avoir à se trouver sur la Tour»; «Chaque [Canon]
    engendre 2 dégâts au Titan»."""
    play(session, setup_event((("hange", 0), ("eren", 0))))
    to_step_6(session, hange=["cannon", "cannon", "move", "move", "dodge"], eren=["cannon"] * 5)
    session.submit({"type": "cannon", "hero": "hange", "count": 2})
    assert session.view()["health"]["marker"] == 4
    refused(session, {"type": "cannon", "hero": "eren", "count": 1}, "cannon.not_on_tower")


def test_armin_searches_the_pile(session):
    """«Avec un seul [Tactique], Armin peut rechercher une carte Tactique pour la placer au-dessus
    de la pile, sans pour autant changer l'ordre des autres cartes.»"""
    session.submit(setup_event())
    to_step_6(session, eren=["move"] * 5, mikasa=["combat"] * 5,
              armin=["tactic", "cannon", "cannon", "move", "move"])
    session.submit({"type": "search", "hero": "armin", "card": "chute-raide"})
    view = session.view()
    assert view["tactic"]["top"] == "chute-raide"
    refused(session, {"type": "search", "hero": "eren", "card": "guerison"}, "search.no_power")


def test_sasha_wildcard_once_taught(session):
    """«Sasha peut utiliser ses [symbole] comme s'ils étaient n'importe quel autre symbole.» The
    symbol is lost in the text: until taught her power is off; taught Dodge, her dodge moves her."""
    play(session, setup_event((("sasha", 0), ("eren", 0))))
    to_step_6(session, sasha=["dodge", "combat", "combat", "cannon", "cannon"],
              eren=["combat"] * 5)
    refused(session, {"type": "move", "hero": "sasha", "to": 3}, "dice.not_enough")
    step = session.submit({"type": "teach", "kind": "hero", "id": "sasha",
                           "definition": {"symbols": ["dodge"]}})
    assert step.learned == [("hero", "sasha", {"symbols": ["dodge"]})]
    session.submit({"type": "move", "hero": "sasha", "to": 3})
    assert session.view()["heroes"]["sasha"]["level"] == 3


def test_erwin_swaps_his_two_symbols(session):
    """«Erwin peut utiliser ses [A] comme des [B], et inversement.» (taught: Cannon and Combat)."""
    play(session, setup_event((("erwin", 0), ("eren", 0)),
                              definitions={"hero": {"erwin": {"symbols": ["cannon", "combat"]}}}),
         {"type": "adjust", "hero": "erwin", "level": 1})
    to_step_6(session, erwin=["cannon", "cannon", "move", "move", "dodge"], eren=["combat"] * 5)
    session.submit({"type": "melee", "hero": "erwin", "count": 2})
    assert session.view()["health"]["marker"] == 2


def test_step_5_says_what_cancels_the_card(tmp_path):
    """«Les Héros peuvent annuler une Action du Titan en dépensant les symboles décrits au bas de
    la carte» and «Le nombre de symboles à réunir est déterminé par le nombre de joueurs»: with
    step 5 the table hears what the card asks — Stomp's dodge on the ground, Frenzy's Tactic
    symbols, one per hero — and a card not taught yet says so."""
    from companion.games.aot_last_stand import GAME
    from companion.i18n import render

    session = new_session(tmp_path)
    play(session, setup_event(), commit("pietinement", "basic-3"),
         *rolls(eren=["combat"] * 5, mikasa=["dodge"] * 2 + ["cannon"] * 3,
                armin=["cannon"] * 5), NEXT)  # Mikasa on the ground may dodge
    said = render(session.expects().message, "en", GAME, session.state)
    assert said == ("Step 5: counter or suffer Stomp: each hero on the ground dodges with "
                    "2 Dodge.")
    session.submit({"type": "resolve"})
    said = render(session.expects().message, "fr", GAME, session.state)
    assert said.endswith("sa parade n'est pas apprise : dites si les Héros l'ont payée.")
    session.close()
    other = new_session(tmp_path / "two")
    play(other, setup_event(), commit("frenesie", "pietinement"),
         *rolls(eren=["combat"] * 5, mikasa=["cannon"] * 5, armin=["tactic"] * 5), NEXT)
    assert render(other.expects().message, "fr", GAME, other.state) == (
        "Étape 5 : contrez ou subissez Frénésie : les Héros paient ensemble 3 Tactique.")
