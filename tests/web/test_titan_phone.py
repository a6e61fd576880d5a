"""The Titan player's own phone (role link) makes every decision of the Titan's round and none of
the heroes': it commits, spends Titan faces on abilities, gives the dice back, applies an Action
nobody counters and makes its own choices; rolls, moves, melee, cannons and payments are refused
with 403 naming the rule, and host corrections too. The host still does everything. Passages of
../shared/rules/attack-on-titan-last-stand.fr.txt cited per test."""

from __future__ import annotations

import pytest
from webtools import GAME_SETUPS

ROLLS = {"eren": ["titan", "titan", "dodge", "dodge", "move"], "mikasa": ["combat"] * 5}


class Titan:
    """The Titan's phone: a browser holding the role token, never the host cookie."""

    def __init__(self, client, token: str) -> None:
        self.client, self.headers = client, {"X-Role-Token": token}

    def send(self, event: dict, **body):
        return self.client.post("/api/role/events", headers=self.headers,
                                json={"event": event, **body})

    def view(self) -> dict:
        return self.client.get("/api/role", headers=self.headers).json["view"]


@pytest.fixture
def titan(app, host):
    assert host.send(GAME_SETUPS["aot-last-stand"]).status_code == 200
    return Titan(app.test_client(), host.post("/api/role/titan").json["token"])


def to_step_3(host, titan) -> None:
    assert titan.send({"type": "commit", "up": "pietinement", "down": "frenesie"}).status_code \
        == 200
    for hero, faces in ROLLS.items():
        assert host.send({"type": "roll", "hero": hero, "faces": faces}).status_code == 200
    assert host.send({"type": "next"}).status_code == 200


def refused(titan, viewer, event: dict, key: str) -> dict:
    """The Titan's phone is refused with 403 and ``key``; nothing changed."""
    version = viewer.get("/api/state").json["version"]
    reply = titan.send(event)
    assert reply.status_code == 403, reply.json
    assert reply.json["error"] == key and reply.json["message"]
    assert viewer.get("/api/state").json["version"] == version
    return reply.json


def test_the_titan_spends_its_faces_and_gives_the_dice_back(host, titan, viewer):
    """«Théo qui joue le Titan a récupéré 2 symboles lors de l'étape 2. Il choisit de les dépenser
    afin d'utiliser sa première aptitude : son Titan dévore donc un Citoyen [...] Il rend ensuite
    ces deux dés à leurs propriétaires.»"""
    to_step_3(host, titan)
    assert titan.view()["titan"]["abilities"][0] == {"n": 1, "cost": 2, "effects_known": True,
                                                     "allowed": True}
    reply = titan.send({"type": "ability", "n": 1})
    assert reply.status_code == 200, reply.json
    assert viewer.get("/api/state").json["view"]["citizens"]["left"] == 11
    assert titan.send({"type": "next"}).status_code == 200
    assert viewer.get("/api/state").json["view"]["step"] == 4


def test_the_third_ability_and_a_cost_taught_from_the_phone(host, titan, viewer):
    """«Le joueur Titan peut recourir à sa troisième capacité uniquement quand le marqueur Santé
    est sur la WEAK ZONE ou sur la KILL ZONE.»"""
    to_step_3(host, titan)
    assert titan.view()["titan"]["abilities"][2]["allowed"] is False
    reply = titan.send({"type": "ability", "n": 3, "define": {"cost": 1}})
    assert reply.status_code == 422 and reply.json["error"] == "ability.third_needs_weak_zone"
    assert host.send({"type": "adjust", "health": 8}).status_code == 200
    reply = titan.send({"type": "ability", "n": 3, "define": {"cost": 1}})
    assert reply.status_code == 200, reply.json
    state = viewer.get("/api/state").json
    assert state["view"]["prompts"][0]["key"] == "prompt.unknown_effect"
    assert titan.send({"type": "answer", "effects": [{"op": "heal", "amount": 1}]}).status_code \
        == 200
    assert viewer.get("/api/state").json["view"]["health"]["marker"] == 7


def test_the_heroes_events_are_refused_naming_the_rule(host, titan, viewer):
    """Rolls, moves, melee, cannons and payments are the heroes' («Les Héros peuvent, s'ils le
    souhaitent et s'ils disposent des dés requis, empêcher la résolution»)."""
    titan.send({"type": "commit", "up": "pietinement", "down": "frenesie"})
    body = refused(titan, viewer, {"type": "roll", "hero": "eren", "faces": ["move"] * 5},
                   "role.heroes_event")
    assert "roll" in body["message"]
    for event in ({"type": "move", "hero": "eren", "to": 3},
                  {"type": "melee", "hero": "eren", "count": 1},
                  {"type": "cannon", "hero": "mikasa", "count": 1},
                  {"type": "cycle", "pay": {"eren": 1}}):
        refused(titan, viewer, event, "role.heroes_event")
    for event in ({"type": "undo"}, {"type": "adjust", "health": 3},
                  {"type": "teach", "kind": "hero", "id": "sasha",
                   "definition": {"symbols": ["dodge"]}}):
        refused(titan, viewer, event, "role.host_event")
    refused(titan, viewer, {"type": "next"}, "role.titan_next")
    for hero, faces in ROLLS.items():
        host.send({"type": "roll", "hero": hero, "faces": faces})
    host.send({"type": "next"})
    titan.send({"type": "next"})
    host.send({"type": "next"})  # the heroes reroll nothing: step 5
    body = refused(titan, viewer, {"type": "resolve", "pay": {"eren": {"dodge": 2}}},
                   "role.heroes_pay")
    assert "empêcher" in body["message"]
    refused(titan, viewer, {"type": "resolve", "cancelled": True}, "role.heroes_pay")
    assert host.send({"type": "resolve", "pay": {"eren": {"dodge": 2}}}).status_code == 200


def test_the_titan_applies_an_action_nobody_counters(host, titan, viewer):
    """«Dans le cas contraire, le Titan applique l'effet de cette Action.» Piétinement: Eren, on
    the ground, loses a heart."""
    to_step_3(host, titan)
    titan.send({"type": "next"})
    host.send({"type": "next"})
    assert titan.send({"type": "resolve"}).status_code == 200
    view = viewer.get("/api/state").json["view"]
    assert view["heroes"]["eren"]["hearts"] == 2 and view["actions"][1]["face_up"] is True


def test_the_titans_choices_and_not_the_heroes(app, host, titan, viewer):
    """«Écraser les Héros : Le Titan choisit 1 Héros»; «Frapper les Héros : Les Héros décident
    lequel d'entre eux perd un jeton Cœur.»"""
    for card, op in (("basic-3", "crush"), ("basic-4", "strike")):
        host.send({"type": "teach", "kind": "action", "id": card, "definition": {
            "name": card, "effects": [{"op": op}], "counter": {"type": "none"}}})
    assert titan.send({"type": "commit", "up": "basic-3", "down": "basic-4"}).status_code == 200
    for hero, faces in ROLLS.items():
        host.send({"type": "roll", "hero": hero, "faces": faces})
    host.send({"type": "next"})
    titan.send({"type": "next"})
    host.send({"type": "next"})
    titan.send({"type": "resolve"})
    assert titan.view()["expects"]["options"] == ["eren", "mikasa"]
    assert titan.send({"type": "choose", "hero": "mikasa"}).status_code == 200
    assert viewer.get("/api/state").json["view"]["heroes"]["mikasa"]["hearts"] == 2
    titan.send({"type": "resolve"})  # the hidden card: Strike, the heroes choose
    refused(titan, viewer, {"type": "choose", "hero": "eren"}, "role.heroes_choice")
    assert host.send({"type": "choose", "hero": "eren"}).status_code == 200


def test_a_stale_or_forged_role_event(host, titan, viewer):
    """A phone that saw an older version is refused (409); ``at`` and ``source`` are the
    server's."""
    version = viewer.get("/api/state").json["version"]
    event = {"type": "commit", "up": "pietinement", "down": "frenesie"}
    reply = titan.send(event, based_on=version - 1)
    assert reply.status_code == 409 and reply.json["error"] == "event.stale"
    assert titan.send({**event, "at": 1.0}).status_code == 400
    assert titan.send(event, based_on=version).status_code == 200
    assert viewer.post("/api/role/events", json={"event": event}).status_code == 403


def test_the_titan_never_ends_a_heroes_step(host, titan, viewer):
    """«Une fois que tous les Héros sont satisfaits de leurs dés, l'étape 2 est terminée» and
    «6. Les joueurs Héros utilisent les symboles obtenus sur leurs dés»: the shared page may
    spend the Titan's faces once every hero has rolled, or commit the next cards in step 6, and
    so end the heroes' step; the Titan's phone waits for them (and is offered neither)."""
    titan.send({"type": "commit", "up": "pietinement", "down": "frenesie"})
    for hero, faces in ROLLS.items():
        host.send({"type": "roll", "hero": hero, "faces": faces})
    assert "ability" not in titan.view()["expects"]["events"]
    refused(titan, viewer, {"type": "ability", "n": 1}, "role.titan_wait")
    assert host.send({"type": "ability", "n": 1}).status_code == 200  # the heroes are satisfied
    assert viewer.get("/api/state").json["view"]["step"] == 3
    host.send({"type": "reroll", "hero": "eren", "faces": ["move", "move"]})  # given back
    host.send({"type": "resolve", "pay": {"eren": {"dodge": 2}}})
    assert viewer.get("/api/state").json["view"]["step"] == 6
    assert "commit" not in titan.view()["expects"]["events"]
    refused(titan, viewer, {"type": "commit", "up": "basic-3", "down": "basic-4"},
            "role.titan_wait")
    assert host.send({"type": "commit", "up": "basic-3", "down": "basic-4"}).status_code == 200
    assert viewer.get("/api/state").json["view"]["round"] == 2
