"""Damage to the guardians and the temple: Shield, Guardian Angel, Poison, death and defeat.

Rulebook, "Déplacement des monstres" (a wounded guardian loses 1 Life; at 0 he is killed; with
no guardian on the path the temple loses 1 Life and falls at 0), Troll, Bouclier, Ange gardien
and Poison.
"""

from __future__ import annotations

from .table import Out, State, current_event, end, guardian_on, living


def strike(state: State, path: str, amount: int, out: Out, source: str) -> None:
    """An attack of ``amount`` damage on a path: its guardian suffers it, or the temple.

    A Shield takes the whole attack ("La prochaine attaque détruira le bouclier au lieu de
    blesser le gardien"). Damage is dealt one point at a time: if the first kills the guardian,
    the next falls on the temple ("le second dégât est porté contre le temple").
    """
    defender = guardian_on(state, path)
    if defender and state["guardians"][defender]["shield"]:
        state["guardians"][defender]["shield"] = False
        out.say("shield.broken", guardian=defender, source=source)
        return
    for _ in range(amount):
        if state["status"] != "playing":
            return
        defender = guardian_on(state, path)
        if defender:
            wound(state, defender, out, source)
        else:
            temple_wound(state, out, source)


def wound(state: State, guardian_id: str, out: Out, source: str, attack: bool = True) -> None:
    """One Life lost by a guardian. Guardian Angel keeps the last one ("il conserve toujours le
    dernier point de vie"); under Poison an attack marks the wounded guardian (the Poison's own
    loss at the end of the round does not)."""
    guardian = state["guardians"][guardian_id]
    if guardian["angel"] and guardian["life"] == 1:
        out.say("angel.saves", guardian=guardian_id, source=source)
        return
    guardian["life"] -= 1
    out.say("guardian.wounded", guardian=guardian_id, source=source, life=guardian["life"])
    if attack and current_event(state) == "poison" and not guardian["poison"]:
        guardian["poison"] = True
        out.say("guardian.poisoned", guardian=guardian_id)
    if guardian["life"] == 0:
        die(state, guardian_id, out)


def die(state: State, guardian_id: str, out: Out) -> None:
    """A guardian is killed: off the path, Mana and Ultimate kept; the last one loses the game."""
    guardian = state["guardians"][guardian_id]
    guardian.update(alive=False, path=None, poison=False)
    out.say("guardian.killed", guardian=guardian_id)
    if not living(state):
        end(state, "lost", "guardians_dead", out)


def temple_wound(state: State, out: Out, source: str) -> None:
    """The temple loses 1 Life; at 0 the game is lost."""
    temple = state["temple"]
    temple["life"] -= 1
    out.say("temple.wounded", source=source, life=temple["life"])
    if temple["life"] <= 0:
        end(state, "lost", "temple_fallen", out)
