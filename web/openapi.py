"""The OpenAPI 3.1 description of the JSON API, served at ``/api/openapi.json``."""

from __future__ import annotations

from typing import Any

from flask import Blueprint, Response, jsonify

bp = Blueprint("openapi", __name__)

ERROR = {"$ref": "#/components/schemas/Error"}
HOST = [{"hostCookie": [], "csrf": []}]
HOST_READ = [{"hostCookie": []}]
ROLE = [{"roleToken": []}]


def _json(schema: dict[str, Any], description: str) -> dict[str, Any]:
    return {"description": description, "content": {"application/json": {"schema": schema}}}


def _errors(*codes: int) -> dict[str, Any]:
    reasons = {400: "malformed body, unknown or missing field, over a limit (depth, digits, "
                    "text length), event refused as malformed, or a Host not this machine's",
               401: "wrong PIN or setup code",
               403: "not a host, or CSRF token missing, used or unknown, or another site",
               404: "unknown game, action, die profile, face or photo (expired, or taught "
                    "already), no link or no camera frame",
               409: "stale version, PIN state conflict, no unknown tag waiting, no voice, "
                    "no camera frame to take a photo of, or taught dice that cannot be read",
               413: "body too large", 415: "body is not application/json",
               422: "the rules refuse the event now, the card is unknown, or a die named is "
                    "not in the photo or a face not of its profile",
               429: "too many PIN attempts (Retry-After says how long to wait)",
               503: "too many live streams open, from this address or in all (Retry-After)"}
    return {str(c): _json(ERROR, reasons[c]) for c in codes}


def _body(schema: dict[str, Any]) -> dict[str, Any]:
    return {"required": True, "content": {"application/json": {"schema": schema}}}


PIN = {"type": "object", "required": ["pin"], "additionalProperties": False,
       "properties": {"pin": {"type": "string", "pattern": "^[0-9]{4,12}$"}}}
FIRST_PIN = {"type": "object", "required": ["pin", "code"], "additionalProperties": False,
             "properties": {"pin": PIN["properties"]["pin"],
                            "code": {"type": "string", "description": "the setup code"}}}
SESSIONS = {"type": "object", "properties": {"sessions": {"type": "array", "items": {
    "type": "object", "properties": {
        "id": {"type": "string"}, "opened": {"type": "integer"}, "expires": {"type": "integer"},
        "agent": {"type": "string"}, "current": {"type": "boolean"}}}}}}
ACCEPTED = {"type": "object", "properties": {
    "version": {"type": "integer"}, "said": {"type": "array", "items": {"type": "object"}},
    "label": {"type": ["object", "null"]}, "event": {"type": "object"},
    "events": {"type": "array", "items": {"type": "object"}}}}

DOCUMENT: dict[str, Any] = {
    "openapi": "3.1.0",
    "info": {"title": "Table Companion", "version": "1",
             "description": "Live state of the game at the table, and host events. Texts come "
                            "rendered in every language ({\"fr\": ..., \"en\": ...}). See "
                            "docs/web.md and docs/events.md."},
    "paths": {
        "/api/state": {"get": {"summary": "The full picture: view, version, texts, helper, log",
                               "responses": {"200": _json({"$ref": "#/components/schemas/"
                                                                   "Picture"}, "current state")}}},
        "/api/stream": {"get": {
            "summary": "Server-Sent Events: `snapshot` first, then `update` per accepted event "
                       "(id = version), `ping` with the version when idle",
            "responses": {"200": {"description": "event stream",
                                  "content": {"text/event-stream": {}}},
                          **_errors(503)}}},
        "/api/events": {"post": {
            "summary": "Submit a host event (see docs/events.md)", "security": HOST,
            "requestBody": _body({"type": "object", "required": ["event"],
                                  "additionalProperties": False, "properties": {
                                      "event": {"type": "object", "required": ["type"]},
                                      "based_on": {"type": "integer",
                                                   "description": "version the host saw"}}}),
            "responses": {"200": _json(ACCEPTED, "accepted; next CSRF token in X-CSRF-Token"),
                          **_errors(400, 403, 409, 413, 415, 422)}}},
        "/api/host": {"get": {"summary": "Host status, PIN set?, simulated table?, fresh CSRF",
                              "responses": {"200": _json({"type": "object"}, "status")}}},
        "/api/pin": {"post": {"summary": "Choose the PIN on first run (logs in), with the "
                                         "setup code `companion run` printed and the table "
                                         "said",
                              "requestBody": _body(FIRST_PIN),
                              "responses": {"201": _json({"type": "object"}, "logged in"),
                                            **_errors(400, 401, 403, 409, 413, 415, 429)}}},
        "/api/login": {"post": {"summary": "Log in as host; sets an HttpOnly SameSite cookie",
                                "requestBody": _body(PIN),
                                "responses": {"200": _json({"type": "object"}, "logged in"),
                                              **_errors(400, 401, 403, 409, 413, 415, 429)}}},
        "/api/logout": {"post": {
            "summary": "Log out this host session, or every one with `all`", "security": HOST,
            "requestBody": _body({"type": "object", "additionalProperties": False,
                                  "properties": {"all": {"type": "boolean"}}}),
            "responses": {"200": _json({"type": "object"}, "logged out"),
                          **_errors(400, 403, 415)}}},
        "/api/sessions": {"get": {
            "summary": "Host: the logged-in host sessions", "security": HOST_READ,
            "responses": {"200": _json(SESSIONS, "sessions"), **_errors(403)}}},
        "/api/sessions/revoke": {"post": {
            "summary": "Host: end one host session by its id", "security": HOST,
            "requestBody": _body({"type": "object", "required": ["id"],
                                  "additionalProperties": False,
                                  "properties": {"id": {"type": "string"}}}),
            "responses": {"200": _json(SESSIONS, "the sessions left"),
                          **_errors(400, 403, 404, 415)}}},
        "/api/games": {"get": {"summary": "The installed games' ids, Last Bastion first",
                               "responses": {"200": _json({"type": "object"}, "games")}}},
        "/api/catalog": {"get": {
            "summary": "What the host picks from for `?game=` (default: the game on the table): "
                       "Last Bastion's cards (and those seen), heroes, tiles; other games' ids "
                       "by kind",
            "parameters": [{"name": "game", "in": "query", "schema": {"type": "string"}}],
            "responses": {"200": _json({"type": "object"}, "catalog"), **_errors(422)}}},
        "/api/definitions": {"get": {
            "summary": "What the owner may teach for `?game=` (default: the game on the table): "
                       "each kind with its fields, for the page's \"Teach a card\" form; send "
                       "a `teach` event with POST /api/events",
            "parameters": [{"name": "game", "in": "query", "schema": {"type": "string"}}],
            "responses": {"200": _json({"type": "object", "properties": {
                "game": {"type": "string"},
                "kinds": {"type": "array", "items": {"$ref": "#/components/schemas/Kind"}}}},
                "definition kinds"), **_errors(422)}}},
        "/api/definitions/export": {"get": {
            "summary": "Host: every definition and tag the owner taught for `?game=`, as a box "
                       "file to download (docs/cards.md, \"A box in one file\")",
            "security": [{"hostCookie": []}],
            "parameters": [{"name": "game", "in": "query", "schema": {"type": "string"}}],
            "responses": {"200": _json({"type": "object"}, "the box file"),
                          **_errors(403, 422)}}},
        "/api/definitions/import": {"post": {
            "summary": "Host: import a box file, checked whole, written whole or not at all; "
                       "the report per entry (added, updated, unchanged, conflicting, refused "
                       "with the reason). Up to 4 MB (the pictures of the cards taught from "
                       "photos)",
            "security": HOST,
            "requestBody": _body({"type": "object", "required": ["box"],
                                  "additionalProperties": False,
                                  "properties": {"box": {"type": "object"},
                                                 "replace": {"type": "boolean"}}}),
            "responses": {"200": _json({"type": "object"}, "imported: the report"),
                          "422": _json({"type": "object"}, "nothing imported: the report"),
                          **_errors(400, 403, 413, 415)}}},
        "/api/definitions/photo": {"post": {
            "summary": "Host: a `teach` event sent with the card's photo (`photo`, or "
                       "`camera`=1: what the table's camera sees): the card nearest the "
                       "photo's centre is taught to the card camera, its picture journaled with "
                       "the event (`alike`: taught cards the camera may not tell from it). A "
                       "file that is no image or a photo with no card is refused (422), no "
                       "camera frame too (409), nothing taught. Up to 20 MB",
            "security": HOST,
            "requestBody": {"required": True, "content": {"multipart/form-data": {"schema": {
                "type": "object", "required": ["event"],
                "properties": {"event": {"type": "string", "description": "the teach event, "
                                                                          "as JSON"},
                               "based_on": {"type": "string", "pattern": "^[0-9]+$"},
                               "photo": {"type": "string", "format": "binary"},
                               "camera": {"type": "string", "enum": ["1"],
                                          "description": "without `photo`: take the "
                                                         "camera's last frame"}}}}}},
            "responses": {"200": _json({"type": "object"}, "taught: as POST /api/events, "
                                       "with `alike`"),
                          **_errors(400, 403, 409, 413, 422)}}},
        "/api/role/{role}": {"post": {
            "summary": "Host: a new token (and page link) for a secret role of the game on the "
                       "table, e.g. `titan`; the previous token stops working",
            "security": HOST,
            "parameters": [{"name": "role", "in": "path", "required": True,
                            "schema": {"type": "string"}}],
            "requestBody": _body({"type": "object", "additionalProperties": False}),
            "responses": {"200": _json({"type": "object"}, "token and link"),
                          **_errors(400, 403, 404, 413, 415)}}},
        "/api/role": {"get": {
            "summary": "The role's own view (the Titan's hand and face-down card)",
            "security": ROLE,
            "responses": {"200": _json({"type": "object"}, "role view"), **_errors(403)}}},
        "/api/role/events": {"post": {
            "summary": "Submit one of the role's own decisions (Titan: commit, ability, next "
                       "in step 3, resolve without payment, answer, its own choose); one that "
                       "is not the role's is refused with 403 and the rule's key",
            "security": ROLE,
            "requestBody": _body({"type": "object", "required": ["event"]}),
            "responses": {"200": _json(ACCEPTED, "accepted"),
                          **_errors(400, 403, 409, 413, 415, 422)}}},
        "/api/simulate/{action}": {"post": {
            "summary": "Simulated table: roll the awaited dice (every player's, when each rolls "
                       "their own colour) or draw the awaited card",
            "security": HOST,
            "parameters": [{"name": "action", "in": "path", "required": True,
                            "schema": {"enum": ["roll", "draw"]}}],
            "requestBody": _body({"type": "object", "additionalProperties": False}),
            "responses": {"200": _json(ACCEPTED, "submitted"),
                          **_errors(400, 403, 404, 413, 415, 422)}}},
        "/api/box": {"get": {
            "summary": "The box: sensors running?, devices failing, recent changes, last raw tag "
                       "(and its card), the unknown tag waiting to be named",
            "security": HOST_READ,
            "responses": {"200": _json({"$ref": "#/components/schemas/Box"}, "box status"),
                          **_errors(403)}}},
        "/api/doctor": {"get": {
            "summary": "`companion doctor`'s checks (each with `fix` when it fails) and the box",
            "security": HOST_READ,
            "responses": {"200": _json({"type": "object", "properties": {
                "checks": {"type": "array", "items": {"$ref": "#/components/schemas/Check"}},
                "ok": {"type": "boolean"}, "box": {"$ref": "#/components/schemas/Box"}}},
                "report"), **_errors(403)}}},
        "/api/box/enroll": {"post": {
            "summary": "Name the unknown tag just swiped; when a card is awaited, give it too",
            "security": HOST,
            "requestBody": _body({"type": "object", "required": ["card"],
                                  "additionalProperties": False,
                                  "properties": {"card": {"type": "string"}}}),
            "responses": {"200": _json({"type": "object", "properties": {
                "uid": {"type": "string"}, "card": {"type": "string"},
                "version": {"type": "integer"}}}, "enrolled"),
                **_errors(400, 403, 409, 415, 422)}}},
        "/api/link": {"get": {
            "summary": "Where phones open the page: its LAN URLs (best first), its mDNS URL "
                       "(\"\" until announced) and a QR code (SVG) of the first URL",
            "security": HOST_READ,
            "responses": {"200": _json({"type": "object", "properties": {
                "urls": {"type": "array", "items": {"type": "string"}},
                "local": {"type": "string"}, "qr": {"type": "string"}}}, "the link"),
                **_errors(403, 404)}}},
        "/api/link/say": {"post": {
            "summary": "Say the page's address aloud", "security": HOST,
            "requestBody": _body({"type": "object", "additionalProperties": False}),
            "responses": {"200": _json({"type": "object", "properties": {
                "said": {"type": "object"}}}, "said"), **_errors(403, 404, 409)}}},
        "/api/preview.jpg": {"get": {
            "summary": "The camera's last frame with a box round each die found (refresh it "
                       "every second to aim the camera)",
            "security": HOST_READ,
            "responses": {"200": {"description": "JPEG", "content": {"image/jpeg": {}}},
                          **_errors(403, 404)}}},
        "/api/dice": {"get": {
            "summary": "Host: the die profiles the owner can teach (the one the game awaits "
                       "first), each with its faces, the examples taught per face and how many "
                       "cut-outs of each can be shown",
            "security": HOST_READ,
            "responses": {"200": _json({"type": "object", "properties": {
                "awaited": {"type": ["string", "null"]},
                "profiles": {"type": "array", "items": {"$ref": "#/components/schemas/"
                                                                "DiceProfile"}},
                "rolls": {"type": "array", "items": {"type": "string"},
                          "description": "the profiles a roll can be read for"}}},
                "profiles"), **_errors(403)}}},
        "/api/dice/photo": {"post": {
            "summary": "Host: take what the camera sees as a photo for teaching `profile`, kept "
                       "ten minutes: its id and each die found, with its reading",
            "security": HOST,
            "requestBody": _body({"type": "object", "required": ["profile"],
                                  "additionalProperties": False,
                                  "properties": {"profile": {"type": "string"}}}),
            "responses": {"200": _json({"$ref": "#/components/schemas/DicePhoto"}, "the photo"),
                          **_errors(400, 403, 404, 409, 413, 415)}}},
        "/api/dice/photo/{photo}/{index}.jpg": {"get": {
            "summary": "Host: one die of a photo, cut out", "security": HOST_READ,
            "parameters": [{"name": "photo", "in": "path", "required": True,
                            "schema": {"type": "string"}},
                           {"name": "index", "in": "path", "required": True,
                            "schema": {"type": "integer", "minimum": 0}}],
            "responses": {"200": {"description": "JPEG", "content": {"image/jpeg": {}}},
                          **_errors(403, 404)}}},
        "/api/dice/teach": {"post": {
            "summary": "Host: learn the dice of a photo the owner named, and no other; answers "
                       "once it is on disk (the photo is then forgotten)",
            "security": HOST,
            "requestBody": _body({"type": "object", "required": ["photo", "dice"],
                                  "additionalProperties": False, "properties": {
                                      "photo": {"type": "string"},
                                      "dice": {"type": "array", "minItems": 1, "items": {
                                          "type": "object", "required": ["die", "face"],
                                          "additionalProperties": False, "properties": {
                                              "die": {"type": "integer", "minimum": 0},
                                              "face": {"type": "string"}}}}}}),
            "responses": {"200": _json({"type": "object", "properties": {
                "profile": {"type": "string"},
                "learned": {"type": "object", "additionalProperties": {"type": "integer"}},
                "taught": {"type": "object", "additionalProperties": {"type": "integer"}}}},
                "learned"), **_errors(400, 403, 404, 409, 413, 415, 422)}}},
        "/api/dice/forget": {"post": {
            "summary": "Host: forget the taught `face` of `profile`, or every taught face "
                       "(no `face`: back to the shipped defaults)",
            "security": HOST,
            "requestBody": _body({"type": "object", "required": ["profile"],
                                  "additionalProperties": False,
                                  "properties": {"profile": {"type": "string"},
                                                 "face": {"type": "string"}}}),
            "responses": {"200": _json({"type": "object", "properties": {
                "profile": {"type": "string"}, "forgot": {"type": "integer"},
                "taught": {"type": "object", "additionalProperties": {"type": "integer"}}}},
                "forgotten"), **_errors(400, 403, 404, 409, 413, 415)}}},
        "/api/dice/example.jpg": {"get": {
            "summary": "Host: a cut-out kept of a taught face (`n`: 0 the newest)",
            "security": HOST_READ,
            "parameters": [{"name": "profile", "in": "query", "required": True,
                            "schema": {"type": "string"}},
                           {"name": "face", "in": "query", "required": True,
                            "schema": {"type": "string"}},
                           {"name": "n", "in": "query", "schema": {"type": "integer",
                                                                   "minimum": 0}}],
            "responses": {"200": {"description": "JPEG", "content": {"image/jpeg": {}}},
                          **_errors(400, 403, 404)}}},
        "/api/dice/roll": {"post": {
            "summary": "Host: read what the camera sees for `profile` (the awaited one, else "
                       "d6, when not given) with this table's examples, kept ten minutes: its "
                       "id, the frame's size, the profile's faces and each die's box, face, "
                       "confidence and doubt",
            "security": HOST,
            "requestBody": _body({"type": "object", "additionalProperties": False,
                                  "properties": {"profile": {"type": "string"}}}),
            "responses": {"200": _json({"$ref": "#/components/schemas/DiceRoll"}, "the roll"),
                          **_errors(400, 403, 404, 409, 413, 415)}}},
        "/api/dice/roll/{roll}.jpg": {"get": {
            "summary": "Host: the frame a roll was read from", "security": HOST_READ,
            "parameters": [{"name": "roll", "in": "path", "required": True,
                            "schema": {"type": "string"}}],
            "responses": {"200": {"description": "JPEG", "content": {"image/jpeg": {}}},
                          **_errors(403, 404)}}},
        "/api/dice/roll/confirm": {"post": {
            "summary": "Host: confirm a roll as the host gives it (corrections and dice the "
                       "reader missed included): given to the game when it waits for a roll "
                       "of that profile, then every die kept as an example of this table; "
                       "answers once on disk (the roll is then forgotten)",
            "security": HOST,
            "requestBody": _body({"type": "object", "required": ["roll", "dice"],
                                  "additionalProperties": False, "properties": {
                                      "roll": {"type": "string"},
                                      "dice": {"type": "array", "minItems": 1, "items": {
                                          "type": "object", "required": ["box", "face"],
                                          "additionalProperties": False, "properties": {
                                              "box": {"type": "array", "minItems": 4,
                                                      "maxItems": 4,
                                                      "items": {"type": "integer"}},
                                              "face": {"type": "string"}}}}}}),
            "responses": {"200": _json({"type": "object", "properties": {
                "profile": {"type": "string"}, "given": {"type": "boolean"},
                "version": {"type": "integer"},
                "kept": {"type": "object", "additionalProperties": {"type": "integer"}}}},
                "kept"), **_errors(400, 403, 404, 409, 413, 415, 422)}}},
        "/api/dice/table": {"get": {
            "summary": "Host: this table's examples of `profile`, newest first",
            "security": HOST_READ,
            "parameters": [{"name": "profile", "in": "query", "schema": {"type": "string"}}],
            "responses": {"200": _json({"type": "object", "properties": {
                "profile": {"type": "string"},
                "examples": {"type": "array", "items": {"$ref": "#/components/schemas/"
                                                                "TableExample"}}}},
                "the examples"), **_errors(400, 403, 404)}}},
        "/api/dice/table/example.jpg": {"get": {
            "summary": "Host: the cut-out kept of one of this table's examples",
            "security": HOST_READ,
            "parameters": [{"name": "profile", "in": "query", "schema": {"type": "string"}},
                           {"name": "id", "in": "query", "required": True,
                            "schema": {"type": "string"}}],
            "responses": {"200": {"description": "JPEG", "content": {"image/jpeg": {}}},
                          **_errors(400, 403, 404)}}},
        "/api/dice/table/forget": {"post": {
            "summary": "Host: forget one of this table's examples of `profile` (`id`), or "
                       "every one (no `id`)",
            "security": HOST,
            "requestBody": _body({"type": "object", "required": ["profile"],
                                  "additionalProperties": False,
                                  "properties": {"profile": {"type": "string"},
                                                 "id": {"type": "string"}}}),
            "responses": {"200": _json({"type": "object", "properties": {
                "profile": {"type": "string"}, "forgot": {"type": "integer"},
                "examples": {"type": "array", "items": {"$ref": "#/components/schemas/"
                                                                "TableExample"}}}},
                "forgotten"), **_errors(400, 403, 404, 413, 415)}}},
        "/api/history": {"get": {"summary": "Every game, newest first, with score sheet and "
                                            "turn-by-turn series; the current game's history",
                                 "responses": {"200": _json({"type": "object"}, "games")}}},
        "/api/history/{game_id}": {"get": {
            "summary": "One game with its labelled history",
            "parameters": [{"name": "game_id", "in": "path", "required": True,
                            "schema": {"type": "integer"}}],
            "responses": {"200": _json({"type": "object"}, "game"), **_errors(404)}}},
        "/api/openapi.json": {"get": {"summary": "This document",
                                      "responses": {"200": {"description": "OpenAPI"}}}},
    },
    "components": {
        "securitySchemes": {
            "hostCookie": {"type": "apiKey", "in": "cookie", "name": "companion_host"},
            "csrf": {"type": "apiKey", "in": "header", "name": "X-CSRF-Token"},
            "roleToken": {"type": "apiKey", "in": "header", "name": "X-Role-Token"}},
        "schemas": {
            "Error": {"type": "object", "required": ["error", "message"], "properties": {
                "error": {"type": "string", "description": "message key naming the problem"},
                "message": {"type": "string"}, "params": {"type": "object"},
                "version": {"type": "integer"}}},
            "Check": {"type": "object", "properties": {
                "name": {"type": "string"}, "ok": {"type": ["boolean", "null"],
                                                   "description": "null: not needed"},
                "detail": {"type": "string"}, "fix": {"type": "string"}}},
            "Box": {"type": "object", "properties": {
                "running": {"type": "boolean"},
                "problems": {"type": "object", "additionalProperties": {"type": "string"}},
                "events": {"type": "array", "items": {"type": "object", "properties": {
                    "device": {"type": "string"}, "problem": {"type": ["string", "null"]},
                    "at": {"type": "number"}}}},
                "last_tag": {"type": ["object", "null"]},
                "pending_tag": {"type": ["object", "null"], "properties": {
                    "uid": {"type": "string"}, "seconds_left": {"type": "integer"}}}}},
            "DiceProfile": {"type": "object", "properties": {
                "profile": {"type": "string"},
                "faces": {"type": "array", "items": {"type": "string"}},
                "taught": {"type": "object", "additionalProperties": {"type": "integer"}},
                "examples": {"type": "object", "additionalProperties": {"type": "integer"}},
                "problem": {"type": ["object", "null"],
                            "description": "the taught file cannot be read: why, by language"}}},
            "DicePhoto": {"type": "object", "properties": {
                "photo": {"type": "string"}, "profile": {"type": "string"},
                "dice": {"type": "array", "items": {"type": "object", "properties": {
                    "index": {"type": "integer"},
                    "reading": {"type": ["string", "null"]}}}}}},
            "DiceRoll": {"type": "object", "properties": {
                "roll": {"type": "string"}, "profile": {"type": "string"},
                "faces": {"type": "array", "items": {"type": "string"}},
                "width": {"type": "integer"}, "height": {"type": "integer"},
                "notes": {"type": "array", "items": {"type": "string"}},
                "dice": {"type": "array", "items": {"type": "object", "properties": {
                    "index": {"type": "integer"},
                    "box": {"type": "array", "items": {"type": "integer"}},
                    "face": {"type": "string"}, "confidence": {"type": "number"},
                    "uncertain": {"type": "boolean"}}}}}},
            "TableExample": {"type": "object", "properties": {
                "id": {"type": "string"}, "face": {"type": "string"},
                "read": {"type": ["string", "null"], "description": "what the reader had read "
                         "(null: it missed the die)"},
                "corrected": {"type": "boolean"}, "camera": {"type": ["string", "null"]},
                "added": {"type": "number"}}},
            "Kind": {"type": "object", "properties": {
                "kind": {"type": "string"},
                "fields": {"type": "array", "items": {"$ref": "#/components/schemas/Field"}},
                "skipped": {"type": "array", "items": {"type": "string"},
                            "description": "fields this form cannot hold (taught elsewhere)"}}},
            "Field": {"type": "object", "description": "one field of a definition; a list "
                      "has `item`, `min` and `max` (its length; `max` null: no maximum), an "
                      "object `fields`, an effect `ops` (each `op` with its `fields`), an "
                      "either `choices` (the owner picks one shape)",
                      "properties": {
                          "name": {"type": "string"}, "required": {"type": "boolean"},
                          "type": {"enum": ["text", "number", "choice", "yes_no", "list",
                                            "object", "effect", "either"]},
                          "choices": {"type": "array", "description": "either: the shapes, "
                                      "each a field with `as` naming it",
                                      "items": {"type": "object"}},
                          "ops": {"type": "array", "items": {"type": "object", "properties": {
                              "op": {"type": "string"},
                              "fields": {"type": "array",
                                         "items": {"$ref": "#/components/schemas/Field"}}}}},
                          "min": {"type": ["integer", "null"]},
                          "max": {"type": ["integer", "null"]},
                          "options": {"type": "array"},
                          "item": {"$ref": "#/components/schemas/Field"},
                          "fields": {"type": "array",
                                     "items": {"$ref": "#/components/schemas/Field"}}}},
            "Picture": {"type": "object", "required": ["version", "view"], "properties": {
                "version": {"type": "integer"}, "view": {"type": "object"},
                "texts": {"type": "object"}, "helper": {"type": ["object", "null"]},
                "log": {"type": "array"}}}}},
}


@bp.get("/api/openapi.json")
def document() -> Response:
    """The OpenAPI document."""
    return jsonify(DOCUMENT)
