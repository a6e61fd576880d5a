"""The live page ``/``: one HTML shell, its texts in every language, and the static assets."""

from __future__ import annotations

from flask import Blueprint, Response, abort, render_template, send_file

from companion.engine import RuleError, find_game, installed_games
from companion.i18n import LANGUAGES

from .catalogs import game_list
from .context import current, request_lang
from .texts import texts

bp = Blueprint("pages", __name__)
PAGE_KEYS = ("name.", "ui.", "hint.")


def page_texts() -> dict[str, dict[str, str]]:
    """The names and UI strings the page renders itself, in every language: those of every
    installed game (the host may set up any of them), the game on the table last so that its
    names for this table's players win."""
    session = current().session
    games = [g for g in installed_games().values() if g is not session.game]
    merged: dict[str, dict[str, str]] = {}
    for lang in LANGUAGES:
        table: dict[str, str] = {}
        for game in games:
            table.update(texts(lang, game))
        table.update(texts(lang, session.game, session.state))
        merged[lang] = {k: v for k, v in table.items() if k.startswith(PAGE_KEYS)}
    return merged


def game_names() -> dict[str, dict[str, dict[str, str]]]:
    """Each installed game's own names (``name.*``) in every language, by game: two games may
    name the same id differently (Last Bastion's mode "Normal", Attack on Titan's "normal"), and
    the page shows the names of the game on the table, also one set up after the page loaded."""
    return {game_id: {lang: {k: v for k, v in texts(lang, game).items() if k.startswith("name.")}
                      for lang in LANGUAGES}
            for game_id, game in installed_games().items()}


@bp.get("/")
def index() -> str:
    """The live dashboard (host controls appear after the PIN login)."""
    games = game_list()
    game = current().session.game
    return render_template("index.html", texts=page_texts(), names=game_names(),
                           game=game.id if game else None, lang=request_lang(), games=games,
                           renderers=[g for g in games
                                      if find_game(g).capabilities.page is not None],
                           simulate=current().simulator is not None, languages=LANGUAGES)


@bp.get("/games/<game_id>.js")
def game_page(game_id: str) -> Response:
    """The script that draws a game's table, from the game's own folder (its ``page``)."""
    try:
        page = find_game(game_id).capabilities.page
    except RuleError:
        abort(404)
    if page is None:
        abort(404)
    return send_file(page, mimetype="text/javascript", max_age=300)
