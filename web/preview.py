"""The host page's camera view, so the owner can aim the camera at the tray.

``GET /api/preview.jpg`` (host only: the camera films the table and the room) gives what the
box's camera sees, with a box round each die found, as a JPEG; the page asks for a new one every
second. The box draws it (:meth:`web.context.Box.preview`): the web knows no camera.
"""

from __future__ import annotations

from flask import Blueprint, Response

from .context import current
from .errors import ApiError
from .host import require_login

bp = Blueprint("preview", __name__)


@bp.get("/api/preview.jpg")
def preview() -> Response:
    """The last camera frame with the dice boxes, as a JPEG (host only)."""
    require_login()
    jpeg = current().box.preview()
    if jpeg is None:
        raise ApiError(404, "preview.none")
    return Response(jpeg, mimetype="image/jpeg", headers={"Cache-Control": "no-store"})
