"""The live page ``/``: one HTML shell, its texts in every language, and the static assets."""

from __future__ import annotations

from flask import Blueprint, render_template

from companion.engine import find_game
from companion.i18n import LANGUAGES

from .context import current, request_lang
from .texts import texts

bp = Blueprint("pages", __name__)
PAGE_KEYS = ("name.", "ui.", "hint.")


def page_texts() -> dict[str, dict[str, str]]:
    """The names and UI strings the page renders itself, in every language."""
    session = current().session
    game = session.game or find_game("last-bastion")
    return {lang: {k: v for k, v in texts(lang, game).items() if k.startswith(PAGE_KEYS)}
            for lang in LANGUAGES}


@bp.get("/")
def index() -> str:
    """The live dashboard (host controls appear after the PIN login)."""
    return render_template("index.html", texts=page_texts(), lang=request_lang(),
                           simulate=current().simulator is not None)
