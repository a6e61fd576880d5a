"""Past games: the score sheet, turn-by-turn series, and the ``/history`` page and API."""

from __future__ import annotations

import time
from typing import Any

from flask import Blueprint, Response, jsonify, render_template

from companion.engine import Frame, Session, find_game
from companion.engine.journal import GameRecord
from companion.i18n import render

from .charts import line_chart
from .context import current, request_lang
from .errors import ApiError
from .texts import all_texts, say, texts

bp = Blueprint("history", __name__)


def series(frames: list[Frame]) -> dict[str, Any] | None:
    """Last Bastion's charts: Life per hero, tiles under grip and cards left at the end of each
    turn (the other games have no turn-by-turn series yet: None)."""
    if frames and frames[0].event.fields.get("game") != "last-bastion":
        return None
    by_turn: dict[int, dict[str, Any]] = {}
    for frame in frames:
        by_turn[frame.state["turn"]["number"]] = frame.state
    turns = sorted(by_turn)
    states = [by_turn[t] for t in turns]
    heroes = states[0]["heroes"] if states else {}
    return {
        "turns": turns,
        "life": {h["player"]: [s["heroes"][hid]["life"] for s in states]
                 for hid, h in heroes.items()},
        "grip": [sum(t["grip"] for row in s["tiles"] for t in row) for s in states],
        "cards_left": [s["deck"]["size"] - s["deck"]["drawn"] for s in states],
        "deck_size": states[0]["deck"]["size"] if states else 0,
    }


def game_summary(session: Session, record: GameRecord, with_frames: bool = False
                 ) -> dict[str, Any]:
    """One game for the API and the page: record, score sheet, series (and labelled frames)."""
    frames = session.frames(record.id)
    final = frames[-1].state if frames else None
    game = find_game(record.game)
    data: dict[str, Any] = {
        "id": record.id, "game": record.game, "started": record.started,
        "status": record.status, "reason": record.summary.get("reason"),
        "mode": record.summary.get("mode"), "players": record.summary.get("players") or [],
        "score": record.summary.get("score"),
        "sheet": game.view(final).get("score_sheet") if final else None,
        "series": series(frames),
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
                    "games": [game_summary(session, r, with_frames=r.id == current_id)
                              for r in records]})


@bp.get("/api/history/<int:game_id>")
def one_game(game_id: int) -> Response:
    """One game with its labelled history."""
    session = current().session
    return jsonify(game_summary(session, _record(session, game_id), with_frames=True))


@bp.get("/history")
def page() -> str:
    """Past games with date, players, heroes, mode, result, score sheet and charts."""
    session = current().session
    lang = request_lang()
    table = texts(lang, session.game, session.state)
    shown = []
    for record in reversed(session.past_games()):
        data = game_summary(session, record)
        data["date"] = time.strftime("%Y-%m-%d %H:%M", time.localtime(record.started))
        line = data["series"]
        data["charts"] = [] if line is None else [
            line_chart(table["ui.chart_life"], line["turns"], line["life"]),
            line_chart(table["ui.chart_grip"], line["turns"],
                       {table["ui.chart_grip"]: line["grip"]}, 3),
            line_chart(table["ui.chart_cards"], line["turns"],
                       {table["ui.chart_cards"]: line["cards_left"]}, line["deck_size"]),
        ]
        data["result"] = render({"key": "ui.result", "params": {
            "status": record.status, "reason": data["reason"]}}, texts=table)
        shown.append(data)
    return render_template("history.html", games=shown, t=table, lang=lang)
