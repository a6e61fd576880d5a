"""Who decides what: the Titan player's own phone sends the Titan's decisions of a round and
nothing else (rulebook, «Déroulement de la partie» and «Capacités du Titan»).

The Titan commits its Action cards (step 1), spends its Titan faces and gives the dice back
(step 3), applies an Action card nobody counters (step 5, «Dans le cas contraire, le Titan
applique l'effet de cette Action»), says what its printed card or ability did, and makes its own
choices (Crush, Obstruct, Sudden Change, Frenzy, and which card Mutilation took from its hand).
Rolls, gifts, moves, melee, cannons, Tactics and every payment are the heroes'; corrections and
teaching are the host's.
"""

from __future__ import annotations

from companion.engine import Event, RuleError

from .board import State

TITAN = "titan"
ROLES = (TITAN,)
TITAN_EVENTS = ("commit", "ability", "next", "resolve", "choose", "answer")
"""The events a Titan's phone may send (each further checked below)."""
TITAN_STEPS = {"commit": 1, "ability": 3, "resolve": 5}
"""The step of each of the Titan's decisions: its phone never sends one earlier, since that
would end a step that is the heroes' to end (see ``rules._folded``)."""
TITAN_CHOICES = ("crush", "obstruct", "sudden_change", "frenzy")
"""The Titan's own choices (their options would tell the face-down card)."""
TITAN_TASKS = (*TITAN_CHOICES, "mutilate")
"""The waiting choices that are the Titan's to make."""
HOST_EVENTS = ("adjust", "teach", "undo", "setup")


def check_titan(state: State, event: Event) -> None:
    """Refuse, naming the rule, an event the Titan's phone may not send in this state; the rules
    still judge whether an event of the Titan's is legal now."""
    kind = event.type
    if kind in HOST_EVENTS:
        raise RuleError("role.host_event", event=kind)
    if kind not in TITAN_EVENTS:
        raise RuleError("role.heroes_event", event=kind)
    own = TITAN_STEPS.get(kind)
    if own is not None and state["step"] != own:  # the shared page's folds end heroes' steps
        raise RuleError("role.titan_wait", step=state["step"])
    if kind == "next" and state["step"] != 3:
        raise RuleError("role.titan_next", step=state["step"])
    if kind == "resolve" and (event.fields.get("pay") or event.fields.get("cancelled")):
        raise RuleError("role.heroes_pay")
    task = state["queue"][0]["do"] if state["queue"] else None
    if kind == "choose" and task is not None and task not in TITAN_TASKS:
        raise RuleError("role.heroes_choice", choice=task)
