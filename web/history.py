"""Past games: the score sheet, turn-by-turn series, and the ``/history`` page and API."""

from __future__ import annotations

import time
from typing import Any

from flask import Blueprint, Response, jsonify, render_template

from companion.engine import Frame, Game, Session, Tally, find_game
from companion.engine.journal import GameRecord
from companion.i18n import render

from .charts import line_chart
from .context import current, request_lang
from .errors import ApiError
from .texts import all_texts, next_language, say, texts, ui_texts

bp = Blueprint("history", __name__)


def series(game: Game, frames: list[Frame]) -> dict[str, Any]:
    """The game's charts, turn by turn: per chart title (a message key), the turns, each line's
    values at the end of each turn and the chart's top; empty for a game without ``tally``."""
    tally = game.capabilities.tally
    if tally is None or not frames:
        return {}
    by_turn: dict[int, Tally] = {}
    for frame in frames:
        point = tally(frame.state)
        by_turn[point.turn] = point
    turns = sorted(by_turn)
    first = by_turn[turns[0]]
    return {title: {"turns": turns, "top": first.tops.get(title),
                    "lines": {name: [by_turn[t].charts.get(title, {}).get(name, 0) for t in turns]
                              for name in lines}}
            for title, lines in first.charts.items()}


def player_colours(game: Game, frames: list[Frame]) -> dict[str, str]:
    """Each player's colour in a game whose view gives its heroes one (Last Bastion: the hero
    board's), so that a player's line in the charts has the colour of their board."""
    if not frames:
        return {}
    heroes = game.view(frames[-1].state).get("heroes")
    if not isinstance(heroes, dict):
        return {}
    return {h["player"]: h["colour"] for h in heroes.values()
            if isinstance(h, dict) and "player" in h and "colour" in h}


def game_summary(record: GameRecord, frames: list[Frame], with_frames: bool = False
                 ) -> dict[str, Any]:
    """One game for the API and the page: record, score sheet, series (and labelled frames),
    from its ``frames`` (:meth:`Session.frames`: replayed from the journal for this request,
    one game at a time, so that no game's frames stay in memory)."""
    final = frames[-1].state if frames else None
    game = find_game(record.game)
    data: dict[str, Any] = {
        "id": record.id, "game": record.game, "started": record.started,
        "status": record.status, "reason": record.summary.get("reason"),
        "mode": record.summary.get("mode"), "players": record.summary.get("players") or [],
        "score": record.summary.get("score"),
        "sheet": game.view(final).get("score_sheet") if final else None,
        "series": series(game, frames),
    }
    if with_frames and final is not None:
        catalogs = all_texts(game, final)
        data["frames"] = [{"seq": f.seq, "type": f.event.type, "at": f.event.at,
                           "label": say(f.label, catalogs) if f.label else None}
                          for f in frames]
    return data


def _record(session: Session, game_id: int) -> GameRecord:
    for record in session.past_games():
        if record.id == game_id:
            return record
    raise ApiError(404, "history.unknown_game", game=game_id)


@bp.get("/api/history")
def games() -> Response:
    """Every game of the data directory, newest first; the current one with its labelled
    history points (the ``seq`` an ``undo`` with ``to`` goes back to)."""
    session = current().session
    records = list(reversed(session.past_games()))
    current_id = session.record.id if session.record else None
    return jsonify({"current": current_id,
                    "games": [game_summary(r, session.frames(r.id), with_frames=r.id == current_id)
                              for r in records]})


@bp.get("/api/history/<int:game_id>")
def one_game(game_id: int) -> Response:
    """One game with its labelled history."""
    session = current().session
    return jsonify(game_summary(_record(session, game_id), session.frames(game_id),
                                with_frames=True))


@bp.get("/history")
def page() -> str:
    """Past games with date, players, heroes, mode, result, score sheet and charts."""
    session = current().session
    lang = request_lang()
    table = texts(lang, session.game, session.state)
    shown = []
    for record in reversed(session.past_games()):
        frames = session.frames(record.id)
        data = game_summary(record, frames)
        data["date"] = time.strftime("%Y-%m-%d %H:%M", time.localtime(record.started))
        game = find_game(record.game)
        game_texts = texts(lang, game)
        data["t"] = game_texts  # hero and side names of the game, not of the table now
        colours = player_colours(game, frames)
        axis = game_texts.get(f"ui.chart_x_{game.id}", game_texts["ui.chart_x"])
        data["charts"] = [
            line_chart(game_texts.get(title, title), chart["turns"],
                       {name or game_texts.get(title, title): values
                        for name, values in chart["lines"].items()}, chart["top"],
                       colours, axis)
            for title, chart in data["series"].items()]
        data["result"] = render({"key": "ui.result", "params": {
            "status": record.status, "reason": data["reason"]}}, texts=table)
        shown.append(data)
    following = next_language(lang)
    return render_template("history.html", games=shown, t=table, lang=lang, next=following,
                           next_name=ui_texts(following)["ui.language"])
