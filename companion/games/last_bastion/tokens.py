"""Tokens between heroes and the limited reserve, knock-outs, and Evil grip figures.

Every token is either in the reserve or on a hero: gains come out of the reserve (and are lost if
it is empty), losses go back to it (and are ignored if the hero has none). Rulebook, "Inventaire et
réserve".
"""

from __future__ import annotations

from typing import Any

from companion.engine import Outcome

from .catalog import DATA
from .geometry import Position

State = dict[str, Any]


Out = Outcome  # what an event has said, labelled and taught so far


OUT_STATES = ("knocked_out", "dead")
"""The states of a hero out of play."""


def hero_able(hero: dict[str, Any]) -> bool:
    """Whether a hero is in play (neither knocked out nor dead)."""
    return hero["state"] not in OUT_STATES


def has_power(hero: dict[str, Any]) -> bool:
    """Whether a hero may use their power: healthy side up and board not gripped."""
    return hero["state"] == "healthy" and not hero["grip"]


def held(hero: dict[str, Any], token: str, colour: str | None = None) -> int:
    """How many tokens of a kind a hero holds (``equipment`` with a colour, or all colours)."""
    if token == "equipment":
        return hero["equipment"][colour] if colour else sum(hero["equipment"].values())
    return hero[token]


def gain(state: State, hero_id: str, token: str, out: Out, colour: str | None = None,
         amount: int = 1) -> int:
    """Move up to ``amount`` tokens from the reserve to a hero; return how many arrived."""
    hero, reserve = state["heroes"][hero_id], state["reserve"]
    pool, key = (reserve["equipment"], colour) if token == "equipment" else (reserve, token)
    got = min(amount, pool[key])
    pool[key] -= got
    if token == "equipment":
        hero["equipment"][colour] += got
    else:
        hero[token] += got
    what = f"equipment_{colour}" if token == "equipment" else token
    if got:
        out.say("token.gained", hero=hero_id, token=what, count=got)
    if got < amount:
        out.say("token.reserve_empty", hero=hero_id, token=what, count=amount - got)
    return got


def lose(state: State, hero_id: str, token: str, out: Out, colour: str | None = None,
         amount: int = 1) -> int:
    """Move up to ``amount`` tokens from a hero back to the reserve; knock out at 0 Life."""
    hero, reserve = state["heroes"][hero_id], state["reserve"]
    lost = min(amount, held(hero, token, colour))
    if token == "equipment":
        hero["equipment"][colour] -= lost
        reserve["equipment"][colour] += lost
    else:
        hero[token] -= lost
        reserve[token] += lost
    if lost:
        what = f"equipment_{colour}" if token == "equipment" else token
        out.say("token.lost", hero=hero_id, token=what, count=lost)
    if token == "life" and lost and hero["life"] == 0:
        knock_out(state, hero_id, out)
    return lost


def knock_out(state: State, hero_id: str, out: Out) -> None:
    """A hero with no Life left is out: knocked out, or dead if already wounded.

    Rulebook, "Héros blessé, héros mort": a second knock-out (wounded side) is death.
    """
    wounded = state["heroes"][hero_id]["state"] == "wounded"
    take_out(state, hero_id, "dead" if wounded else "knocked_out", out)


def take_out(state: State, hero_id: str, new_state: str, out: Out) -> None:
    """Put a hero out of play (``knocked_out`` or ``dead``): every token back to the reserve,
    figure off the Bastion; the game is lost when nobody is left in play.

    Rulebook, "Héros blessé, héros mort": «Tous ses jetons (Équipement, Appel aux Armes) sont
    perdus et placés dans la réserve. Sa figurine est placée sur son plateau Héros».
    """
    hero = state["heroes"][hero_id]
    for colour, count in hero["equipment"].items():
        state["reserve"]["equipment"][colour] += count
        hero["equipment"][colour] = 0
    for token in ("life", "call_to_arms"):
        state["reserve"][token] += hero[token]
        hero[token] = 0
    hero["tile"] = None
    hero["state"] = new_state
    out.say("hero.dead" if new_state == "dead" else "hero.knocked_out", hero=hero_id)
    if not any(hero_able(h) for h in state["heroes"].values()):
        end(state, "lost", "all_heroes_out", out)


def heal(state: State, hero_id: str, tile: Position, out: Out) -> None:
    """The Dispensary brings a knocked-out hero back, wounded, with 3 Life and 1 Call to Arms."""
    hero = state["heroes"][hero_id]
    hero["state"] = "wounded"
    hero["tile"] = list(tile)
    out.say("hero.healed", hero=hero_id)
    gain(state, hero_id, "life", out, amount=DATA["start"]["life"])
    gain(state, hero_id, "call_to_arms", out)


def end(state: State, status: str, reason: str, out: Out) -> None:
    """End the game (only the first ending counts). What was pending stays in the state, so a
    drawn card still waiting for its slot remains in the books; nothing runs any more."""
    if state["status"] != "playing":
        return
    state["status"], state["reason"] = status, reason
    out.say(f"game.{status}", reason=reason)


def figure_home(state: State, figure: str) -> Position | None:
    """The tile whose icon zone a Net, Trap or Standard figure belongs to."""
    for r, row in enumerate(state["tiles"]):
        for c, tile in enumerate(row):
            if state["catalog"]["tile"][tile["id"]].get("figure") == figure:
                return (r, c)
    return None


def grip_tile(state: State, pos: Position, out: Out) -> None:
    """Put an Evil grip figure on a tile: its figure goes to the reserve; a third one loses."""
    tile = state["tiles"][pos[0]][pos[1]]
    if tile["grip"]:
        return
    if state["reserve"]["grip"] == 0:
        out.say("grip.none_left")
        return
    state["reserve"]["grip"] -= 1
    tile["grip"] = True
    state["reserve"]["items"].extend(tile["items"])
    tile["items"] = []
    out.say("grip.tile", tile=tile["id"])
    if gripped_tiles(state) >= 3:
        end(state, "lost", "third_tile_gripped", out)


def ungrip_tile(state: State, pos: Position, out: Out) -> None:
    """Remove the grip from a tile; its figure comes back from the reserve if it is there."""
    tile = state["tiles"][pos[0]][pos[1]]
    if not tile["grip"]:
        return
    tile["grip"] = False
    state["reserve"]["grip"] += 1
    figure = state["catalog"]["tile"][tile["id"]].get("figure")
    if figure and figure in state["reserve"]["items"]:
        state["reserve"]["items"].remove(figure)
        tile["items"].append(figure)
    out.say("grip.tile_freed", tile=tile["id"])


def set_hero_grip(state: State, hero_id: str, gripped: bool, out: Out) -> None:
    """Put or remove an Evil grip figure on a hero board (the power is blocked meanwhile)."""
    hero = state["heroes"][hero_id]
    if hero["grip"] == gripped or (gripped and state["reserve"]["grip"] == 0):
        return
    hero["grip"] = gripped
    state["reserve"]["grip"] += -1 if gripped else 1
    out.say("grip.hero" if gripped else "grip.hero_freed", hero=hero_id)


def set_card_grip(state: State, slot: str, gripped: bool, out: Out) -> None:
    """Put or remove an Evil grip figure on a Horde card."""
    entry = slot_entry(state, slot)
    if entry is None or ("grip" in entry["items"]) == gripped:
        return
    if gripped:
        if state["reserve"]["grip"] == 0:
            return
        state["reserve"]["grip"] -= 1
        entry["items"].append("grip")
    else:
        entry["items"].remove("grip")
        state["reserve"]["grip"] += 1
    out.say("grip.card" if gripped else "grip.card_freed", card=entry["card"])


def gripped_tiles(state: State) -> int:
    """How many Bastion tiles are under Evil grip."""
    return sum(tile["grip"] for row in state["tiles"] for tile in row)


def slot_entry(state: State, slot: str) -> dict[str, Any] | None:
    """What a slot ``<colour>.<k>`` holds (None if empty)."""
    colour, k = slot.split(".")
    return state["slots"][colour][int(k)]
