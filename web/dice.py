"""Teaching the dice from the host page: a photo of the tray, the owner names each die found,
and exactly the dice named are learned; the faces taught, with a few of their cut-outs, and
forgetting them.

Host only, like the camera view (the photos show the table and the room). The box does the
work (:class:`web.context.Box`: ``take_dice_photo``, ``teach_dice``...): the web knows no camera
and no vision. Every request is checked here before the box is asked, so a refusal (an unknown
profile, face, photo or die, a malformed body) learns nothing.
"""

from __future__ import annotations

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


def _photo(photo_id: Any) -> dict[str, Any]:
    """The photo ``photo_id``; 404 ``dice.no_photo`` when unknown, expired or already taught."""
    if not isinstance(photo_id, str) or not photo_id:
        raise ApiError(400, "request.bad_field", field="photo", expected="a photo id")
    photo = current().box.dice_photo(photo_id)
    if photo is None:
        raise ApiError(404, "dice.no_photo")
    return photo


def _jpeg(data: bytes | None, key: str) -> Response:
    if data is None:
        raise ApiError(404, key)
    return Response(data, mimetype="image/jpeg", headers={"Cache-Control": "no-store"})


@bp.get("/api/dice")
def profiles() -> Response:
    """The profiles the owner can teach for the game on the table (every installed one when the
    game declares none; the one the game waits for first) and what each was taught."""
    require_login()
    awaited = awaited_profile()
    found = current().box.dice_profiles()
    game = current().session.game
    game_dice = game.capabilities.dice if game is not None else ()
    if any(p["profile"] in game_dice for p in found):
        found = [p for p in found if p["profile"] in game_dice]
    found.sort(key=lambda p: p["profile"] != awaited)
    return jsonify({"awaited": awaited, "profiles": found})


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
