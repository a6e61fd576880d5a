"""What a button means now: the event a press stands for, read from the game's view.

``next`` confirms what the companion suggests: the default answer of the waiting prompt, the
suggested outcome of a roll, the only legal option of a choice, or the end of the turn when the
hero has nothing more to do. ``undo`` goes back one step. When a press cannot be turned into an
event (the game waits for dice, or a real choice the host must make) :func:`confirm_event` says
so with ``None`` and the table explains why.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

View = Mapping[str, Any]

#: How the default of a prompt becomes the fields of its answer event, by answer event type.
PROMPT_ANSWERS: dict[str, Callable[[Mapping[str, Any]], dict[str, Any]]] = {
    "resolve": lambda prompt: {},  # an empty resolve takes the companion's suggestion
    "assign": lambda prompt: {"hero": prompt["default"]},
    "answer": lambda prompt: ({"choice": prompt["default"]} if prompt.get("options")
                              else {"effects": prompt["default"]}),
}
#: The field naming the choice of a single-option expectation, by event type.
OPTION_FIELDS = {"place": "slot", "assign": "hero", "answer": "choice"}

UNDO = {"type": "undo"}


def confirm_event(view: View) -> dict[str, Any] | None:
    """The event a ``next`` press stands for now, or None when a press cannot decide."""
    expects = view.get("expects", {})
    events = expects.get("events", [])
    for prompt in view.get("prompts", []):
        answer = prompt.get("answer")
        if answer in events and answer in PROMPT_ANSWERS:
            return {"type": answer, **PROMPT_ANSWERS[answer](prompt)}
    if "resolve" in events:
        return {"type": "resolve"}
    options = expects.get("options") or []
    if len(events) == 1 and events[0] in OPTION_FIELDS and len(options) == 1:
        return {"type": events[0], OPTION_FIELDS[events[0]]: options[0]}
    if expects.get("kind") == "action" and "end_turn" in events:
        return {"type": "end_turn"}
    return None


def waiting_for(view: View) -> str:
    """What the table must provide, as the LEDs show it: ``setup``, ``card``, ``dice``,
    ``choice`` (a press confirms), ``host`` (a decision on the phone), ``action`` or ``nothing``."""
    kind = view.get("expects", {}).get("kind", "nothing")
    if kind == "choice":
        return "choice" if confirm_event(view) is not None else "host"
    return kind
