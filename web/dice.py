"""The host's dice screen: teaching the dice (a photo of the tray, the owner names each die found,
and exactly the dice named are learned; the faces taught, with a few of their cut-outs, and
forgetting them), and reading a roll from the camera (the boxes, the faces read, the doubtful
ones marked) that the host confirms or corrects die by die: the dice confirmed are kept as
examples of this table, and given to the game when it waits for that roll; the table's examples
listed and forgotten.

Host only, like the camera view (the photos show the table and the room). The box does the
work (:class:`web.context.Box`: ``take_dice_photo``, ``teach_dice``...): the web knows no camera
and no vision. Every request is checked here before the box is asked, so a refusal (an unknown
profile, face, photo or die, a malformed body) learns nothing.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from flask import Blueprint, Response, jsonify, request

from .context import current, request_lang
from .errors import ApiError, read_json
from .host import require_host, require_login

bp = Blueprint("dice", __name__)


def awaited_profile() -> str | None:
    """The die profile the game waits for now, as the camera reads it (None: no dice awaited)."""
    template = current().session.expects().template("dice")
    return template.blank.profile if template is not None else None


def _profile(name: Any, usable: bool = False) -> dict[str, Any]:
    """The teachable profile ``name`` as the box lists it; 404 ``dice.unknown_profile``, and
    when ``usable``, 409 ``dice.unreadable`` if what was taught for it cannot be read."""
    if not isinstance(name, str) or not name:
        raise ApiError(400, "request.bad_field", field="profile", expected="a die profile")
    profiles = current().box.dice_profiles()
    for profile in profiles:
        if profile["profile"] == name:
            if usable and profile.get("problem"):
                problem = profile["problem"]
                raise ApiError(409, "dice.unreadable", profile=name,
                               problem=problem.get(request_lang(), problem["en"]))
            return profile
    raise ApiError(404, "dice.unknown_profile", profile=name,
                   known=", ".join(p["profile"] for p in profiles) or "-")


def _held(field: str, held_id: Any, find: Callable[[str], dict[str, Any] | None]) \
        -> dict[str, Any]:
    """What the box holds as ``held_id`` (a photo, a roll), found by ``find``; 400 when the id
    is not one, 404 ``dice.no_<field>`` when unknown, expired or already used."""
    if not isinstance(held_id, str) or not held_id:
        raise ApiError(400, "request.bad_field", field=field, expected=f"a {field} id")
    held = find(held_id)
    if held is None:
        raise ApiError(404, f"dice.no_{field}")
    return held


def _photo(photo_id: Any) -> dict[str, Any]:
    """The photo ``photo_id``; 404 ``dice.no_photo`` when unknown, expired or already taught."""
    return _held("photo", photo_id, current().box.dice_photo)


def _jpeg(data: bytes | None, key: str) -> Response:
    if data is None:
        raise ApiError(404, key)
    return Response(data, mimetype="image/jpeg", headers={"Cache-Control": "no-store"})


@bp.get("/api/dice")
def profiles() -> Response:
    """The profiles the owner can teach for the game on the table (every installed one when the
    game declares none; the one the game waits for first) and what each was taught, and the
    profiles a roll can be read for (``rolls``, in the same order)."""
    require_login()
    awaited = awaited_profile()
    found = current().box.dice_profiles()
    rolls = current().box.roll_profiles()
    game = current().session.game
    game_dice = game.capabilities.dice if game is not None else ()
    if any(p["profile"] in game_dice for p in found):
        found = [p for p in found if p["profile"] in game_dice]
    if any(name in game_dice for name in rolls):
        rolls = [name for name in rolls if name in game_dice]
    found.sort(key=lambda p: p["profile"] != awaited)
    rolls = sorted(rolls, key=lambda name: (name != awaited, name != "d6"))
    return jsonify({"awaited": awaited, "profiles": found, "rolls": rolls})


@bp.post("/api/dice/photo")
def take_photo() -> Response:
    """Take what the camera sees as a photo for teaching a profile: its id and each die found
    (the cut-outs are at ``/api/dice/photo/<id>/<index>.jpg``)."""
    require_host()
    name = _profile(read_json({"profile"}, {"profile"})["profile"], usable=True)["profile"]
    photo = current().box.take_dice_photo(name)
    if photo is None:
        raise ApiError(409, "dice.no_camera")
    return jsonify(photo)


@bp.get("/api/dice/photo/<photo>/<int:index>.jpg")
def crop(photo: str, index: int) -> Response:
    """The cut-out of one die of a photo, as a JPEG."""
    require_login()
    return _jpeg(current().box.dice_crop(photo, index), "dice.no_crop")


def _named(body: dict[str, Any], photo: dict[str, Any], faces: list[str]) -> dict[int, str]:
    """The dice the owner named, checked: ``{"die": index, "face": face}`` each, every index a
    die of the photo named once, every face one of the profile's."""
    named = body["dice"]
    if not isinstance(named, list) or not named:
        raise ApiError(400, "dice.none_named")
    chosen: dict[int, str] = {}
    for i, item in enumerate(named):
        field = f"dice[{i}]"
        if not isinstance(item, dict) or set(item) != {"die", "face"}:
            raise ApiError(400, "request.bad_field", field=field,
                           expected='{"die": number, "face": face}')
        die, face = item["die"], item["face"]
        if not isinstance(die, int) or isinstance(die, bool):
            raise ApiError(400, "request.bad_field", field=f"{field}.die", expected="a number")
        if not 0 <= die < len(photo["dice"]):
            raise ApiError(422, "dice.no_die", die=die, count=len(photo["dice"]))
        if die in chosen:
            raise ApiError(400, "dice.named_twice", die=die)
        if face not in faces:
            raise ApiError(422, "dice.unknown_face", face=str(face), profile=photo["profile"],
                           faces=", ".join(faces))
        chosen[die] = face
    return chosen


@bp.post("/api/dice/teach")
def teach() -> Response:
    """Learn the dice of a photo the owner named (``dice``: ``{"die", "face"}`` each; the dice
    not named, stray finds, are not learned); answers once it is on disk."""
    require_host()
    body = read_json({"photo", "dice"}, {"photo", "dice"})
    photo = _photo(body["photo"])
    profile = _profile(photo["profile"], usable=True)
    chosen = _named(body, photo, profile["faces"])
    learned = current().box.teach_dice(body["photo"], chosen)
    if learned is None:  # expired between the check and the teaching
        raise ApiError(404, "dice.no_photo")
    return jsonify({"profile": profile["profile"], "learned": learned,
                    "taught": _profile(profile["profile"])["taught"]})


@bp.post("/api/dice/forget")
def forget() -> Response:
    """Forget one taught face of a profile (``face``), or every one (no ``face``: the profile
    is back to its shipped defaults)."""
    require_host()
    body = read_json({"profile", "face"}, {"profile"})
    profile = _profile(body["profile"], usable=True)
    face = body.get("face")
    if "face" in body and not isinstance(face, str):  # a null face never means "every face"
        raise ApiError(400, "request.bad_field", field="face", expected="a face id")
    if face is not None and face not in profile["taught"]:
        raise ApiError(404, "dice.not_taught", face=str(face), profile=profile["profile"])
    forgot = current().box.forget_dice(profile["profile"], face)
    return jsonify({"profile": profile["profile"], "forgot": forgot,
                    "taught": _profile(profile["profile"])["taught"]})


@bp.get("/api/dice/example.jpg")
def example() -> Response:
    """A cut-out kept of a taught face (``profile``, ``face``, ``n``: 0 the newest)."""
    require_login()
    profile = _profile(request.args.get("profile"))
    face = request.args.get("face", "")
    if face not in profile["taught"]:
        raise ApiError(404, "dice.not_taught", face=face, profile=profile["profile"])
    index = request.args.get("n", "0")
    if not (index.isascii() and index.isdigit()):
        raise ApiError(400, "request.bad_field", field="n", expected="a number")
    return _jpeg(current().box.dice_example(profile["profile"], face, int(index)),
                 "dice.no_example")


def _roll_profile(name: Any) -> str:
    """A die profile a roll can be read for (the awaited one, else ``d6``, when not given);
    404 ``dice.unknown_profile`` for one not installed."""
    if name is None:
        return awaited_profile() or "d6"
    if not isinstance(name, str) or not name:
        raise ApiError(400, "request.bad_field", field="profile", expected="a die profile")
    known = current().box.roll_profiles()
    if name not in known:
        raise ApiError(404, "dice.unknown_profile", profile=name, known=", ".join(known) or "-")
    return name


def _roll(roll_id: Any) -> dict[str, Any]:
    """The roll ``roll_id``; 404 ``dice.no_roll`` when unknown, expired or already kept."""
    return _held("roll", roll_id, current().box.dice_roll)


@bp.post("/api/dice/roll")
def read_roll() -> Response:
    """Read what the camera sees for a profile (``profile``; the awaited one when not given)
    with this table's examples: the roll's id, the frame's size and each die's box, face and
    doubt (the frame is at ``/api/dice/roll/<id>.jpg``)."""
    require_host()
    name = _roll_profile(read_json({"profile"}).get("profile"))
    roll = current().box.read_dice_roll(name)
    if roll is None:
        raise ApiError(409, "dice.no_camera")
    return jsonify(roll)


@bp.get("/api/dice/roll/<roll>.jpg")
def roll_frame(roll: str) -> Response:
    """The frame a roll was read from, as a JPEG."""
    require_login()
    return _jpeg(current().box.dice_roll_frame(roll), "dice.no_roll")


def _confirmed(body: dict[str, Any], roll: dict[str, Any]) -> list[tuple[tuple[int, ...], str]]:
    """The dice the host confirmed, checked: ``{"box": [x0, y0, x1, y1], "face": face}`` each,
    the box inside the frame and the face one of the profile's."""
    dice = body["dice"]
    if not isinstance(dice, list) or not dice:
        raise ApiError(400, "dice.none_confirmed")
    checked = []
    for i, item in enumerate(dice):
        field = f"dice[{i}]"
        if not isinstance(item, dict) or set(item) != {"box", "face"}:
            raise ApiError(400, "request.bad_field", field=field,
                           expected='{"box": [x0, y0, x1, y1], "face": face}')
        box, face = item["box"], item["face"]
        if not (isinstance(box, list) and len(box) == 4
                and all(isinstance(v, int) and not isinstance(v, bool) for v in box)):
            raise ApiError(400, "request.bad_field", field=f"{field}.box",
                           expected="four whole numbers")
        x0, y0, x1, y1 = box
        if not (0 <= x0 < x1 <= roll["width"] and 0 <= y0 < y1 <= roll["height"]):
            raise ApiError(422, "dice.bad_box", box=",".join(map(str, box)),
                           width=roll["width"], height=roll["height"])
        if face not in roll["faces"]:
            raise ApiError(422, "dice.unknown_face", face=str(face), profile=roll["profile"],
                           faces=", ".join(roll["faces"]))
        checked.append((tuple(box), face))
    return checked


@bp.post("/api/dice/roll/confirm")
def confirm_roll() -> Response:
    """Confirm a roll as the host gave it (``dice``: ``{"box", "face"}`` each, corrections and
    dice the reader missed included): when the game waits for a roll of that profile, the faces
    are given to it first (a refused roll keeps nothing), then every die is kept as an example
    of this table. Answers once on disk, with what was kept and whether the roll was given."""
    require_host()
    body = read_json({"roll", "dice"}, {"roll", "dice"})
    roll = _roll(body["roll"])
    dice = _confirmed(body, roll)
    ctx = current()
    template = ctx.session.expects().template("dice")
    given = (template is not None and template.blank.profile == roll["profile"]
             and template.blank.colour is None)
    if given:  # a refusal (a RuleError) is answered by the app's handler, nothing kept
        ctx.session.submit(template.fill(sorted(face for _, face in dice)), source="web")
    kept = ctx.box.confirm_dice_roll(body["roll"], dice)
    if kept is None:  # expired between the check and the keeping
        raise ApiError(404, "dice.no_roll")
    return jsonify({"profile": roll["profile"], "kept": kept, "given": given,
                    "version": ctx.session.version})


@bp.get("/api/dice/table")
def table() -> Response:
    """The table's examples of a profile (``profile``), newest first."""
    require_login()
    name = _roll_profile(request.args.get("profile"))
    return jsonify({"profile": name, "examples": current().box.table_examples(name)})


@bp.get("/api/dice/table/example.jpg")
def table_cut_out() -> Response:
    """The cut-out kept of one of the table's examples (``profile``, ``id``)."""
    require_login()
    name = _roll_profile(request.args.get("profile"))
    return _jpeg(current().box.table_cut_out(name, request.args.get("id", "")),
                 "dice.no_example")


@bp.post("/api/dice/table/forget")
def forget_table() -> Response:
    """Forget one of the table's examples of a profile (``id``), or every one (no ``id``)."""
    require_host()
    body = read_json({"profile", "id"}, {"profile"})
    name = _roll_profile(body["profile"])
    example = body.get("id")
    if "id" in body and not isinstance(example, str):  # a null id never means "every one"
        raise ApiError(400, "request.bad_field", field="id", expected="an example id")
    if example is not None and example not in {
            e["id"] for e in current().box.table_examples(name)}:
        raise ApiError(404, "dice.no_table_example", id=example, profile=name)
    forgot = current().box.forget_table(name, example)
    return jsonify({"profile": name, "forgot": forgot,
                    "examples": current().box.table_examples(name)})
