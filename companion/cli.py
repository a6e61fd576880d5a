"""The ``companion`` command: run the table, play back games, read the history, teach cards,
read dice, wire sensors. What it says is in ``--lang``, else the config's ``[general] language``."""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from companion.boxfile import export_box, import_box
from companion.engine import (
    DefinitionStore,
    Event,
    Message,
    RuleError,
    Session,
    StoreError,
    default_data_dir,
    find_game,
    installed_games,
)
from companion.i18n import LANGUAGES, catalog, render, render_error

from . import config as settings


def _say(args: argparse.Namespace, key: str, error: bool = False, **params: Any) -> None:
    """Print one message of the common catalog in the user's language (stderr if ``error``)."""
    print(render(Message(key, params), _lang(args)), file=sys.stderr if error else sys.stdout)


def _lang(args: argparse.Namespace) -> str:
    """``--lang``, else the language of the config files (read once per command)."""
    if getattr(args, "lang", None) is None:
        args.lang = settings.load()["general"]["language"]
    return args.lang


def _print_messages(session: Session, messages: Sequence[Any], lang: str, stream: Any) -> None:
    texts = catalog(lang, session.game, session.state)
    for message in messages:
        print(render(message, texts=texts), file=stream)


def cmd_games(args: argparse.Namespace) -> int:
    """List the installed games."""
    games = installed_games()
    if args.json:
        print(json.dumps([{"id": g.id, "events": sorted(g.events)} for g in games.values()]))
    else:
        for game_id in games:  # the flagship first, as the host page lists them
            print(game_id)
    return 0


def cmd_replay(args: argparse.Namespace) -> int:
    """Feed a JSON-lines file of events to the session, saying what happens."""
    path = Path(args.file)
    try:
        lines = path.read_text(encoding="utf-8").splitlines()
    except (OSError, UnicodeDecodeError) as exc:
        _say(args, "cli.unreadable", True, path=str(path), detail=str(exc))
        return 2
    session = Session(args.data_dir)
    speech = sys.stderr if args.json else sys.stdout
    for number, line in enumerate(lines, start=1):
        if not line.strip() or line.lstrip().startswith("#"):
            continue
        try:
            step = session.submit(Event.parse(line), source="replay")
        except RuleError as error:
            _say(args, "cli.line", True, number=number,
                 reason=render_error(error, _lang(args), session.game, session.state))
            return 2
        _print_messages(session, [*step.announcements, *step.prompts], _lang(args), speech)
    if args.json:
        print(json.dumps(session.view(), ensure_ascii=False))
    return 0


def cmd_history(args: argparse.Namespace) -> int:
    """Print the labelled history of the current game."""
    session = Session(args.data_dir)
    frames = session.history()
    texts = catalog(_lang(args), session.game, session.state)
    labels = [render(f.label, texts=texts) if f.label else f.event.type for f in frames]
    if args.json:
        print(json.dumps([{"seq": f.seq, "type": f.event.type, "at": f.event.at, "label": label}
                          for f, label in zip(frames, labels, strict=True)], ensure_ascii=False))
        return 0
    if not frames:
        print(render({"key": "expect.setup"}, _lang(args)))
    for frame, label in zip(frames, labels, strict=True):
        print(f"{frame.seq:>5}  {label}")
    return 0


def cmd_undo(args: argparse.Namespace) -> int:
    """Undo the last steps of the current game (appends an undo event)."""
    session = Session(args.data_dir)
    fields = {"to": args.to} if args.to is not None else {"steps": args.steps}
    try:
        step = session.submit(Event("undo", fields, "cli"))
    except RuleError as error:
        print(render_error(error, _lang(args), session.game), file=sys.stderr)
        return 2
    print(render(step.label, _lang(args), session.game, session.state))
    return 0


CARD_FLAGS = ("name", "type", "colour", "resistance", "text")
EFFECT_FLAGS = ("arrival", "recurring", "permanent", "exit")


def _definition_from(args: argparse.Namespace) -> dict[str, Any]:
    data: dict[str, Any] = json.loads(args.json) if args.json else {}
    for flag in CARD_FLAGS:
        value = getattr(args, flag)
        if value is not None:
            data[flag] = int(value) if flag == "resistance" else value
    for flag in EFFECT_FLAGS:
        value = getattr(args, flag)
        if value is not None:
            data[flag] = value if not value.lstrip().startswith("[") else json.loads(value)
    return data


def cmd_cards(args: argparse.Namespace) -> int:
    """List, add, edit or forget the owner's definitions of a game."""
    game = find_game(args.game)
    data_dir = Path(args.data_dir) if args.data_dir else default_data_dir()
    store = DefinitionStore(data_dir, game.id)
    owner = store.load()
    if args.action == "list":
        items = game.known_definitions(owner).get(args.kind, {})
        if args.json:
            print(json.dumps(items, ensure_ascii=False, indent=1))
        texts = catalog(_lang(args))
        for item_id, data in sorted(items.items()) if not args.json else ():
            origin = texts["cli.cards.owner" if item_id in owner.get(args.kind, {})
                           else "cli.cards.package"]
            print(f"{item_id:<28} {origin:<8} {json.dumps(data, ensure_ascii=False)}")
        return 0
    if not args.id:
        raise RuleError("event.missing_field", event=f"cards {args.action}", field="id")
    if args.action in ("export", "import"):
        return _box_file(args, game, data_dir)
    if args.action == "forget":
        if not store.forget(args.kind, args.id):
            raise RuleError("card.unknown", card=args.id)
        _say(args, "cli.cards.forgotten", kind=args.kind, id=args.id)
        return 0
    data = _definition_from(args)
    existing = owner.get(args.kind, {}).get(args.id)
    if args.action == "add" and existing is not None:
        _say(args, "cli.cards.exists", True, kind=args.kind, id=args.id)
        return 2
    if args.action == "edit":
        data = {**(existing or {}), **data}
    definition = game.check_definition(args.kind, {"id": args.id, **data})
    store.save(args.kind, args.id, definition)
    _say(args, "cli.cards.saved", kind=args.kind, id=args.id, path=str(store.path))
    return 0


def _box_file(args: argparse.Namespace, game: Any, data_dir: Path) -> int:
    """``cards export FILE``: the owner's definitions and tags of a game in one file;
    ``cards import FILE``: all of a file's entries, checked first, or none (docs/cards.md)."""
    path = Path(args.id)
    if args.action == "export":
        box = export_box(data_dir, game)
        path.write_text(json.dumps(box, ensure_ascii=False, indent=1, sort_keys=True) + "\n",
                        encoding="utf-8")
        _say(args, "box.exported", game=game.id, path=str(path), tags=len(box["tags"]),
             definitions=sum(len(items) for items in box["definitions"].values()))
        return 0
    try:
        box = json.loads(path.read_text(encoding="utf-8"))
    except OSError as exc:
        raise StoreError(f"{path}: cannot be read ({exc.strerror})") from None
    report = import_box(data_dir, box, replace=args.replace)
    texts = catalog(_lang(args), find_game(report.game))
    for entry in report.entries:
        line = render(Message("box.entry", {"outcome": entry.outcome, "kind": entry.kind,
                                            "id": entry.id}), texts=texts)
        print(line + (f" — {render(entry.reason, texts=texts)}" if entry.reason else ""))
    print(render(report.summary(), texts=texts), file=sys.stdout if report.written else sys.stderr)
    return 0 if report.written else 2


def build_parser() -> argparse.ArgumentParser:
    """The argument parser of every sub-command."""
    parser = argparse.ArgumentParser(prog="companion", description=__doc__)
    sub = parser.add_subparsers(dest="command", required=True)

    def common(p: argparse.ArgumentParser, data: bool = True) -> None:
        p.add_argument("--lang", choices=LANGUAGES, default=None,
                       help="language of what is said (default: the config's)")
        if data:
            p.add_argument("--data-dir", type=Path, default=None,
                           help="where the journal lives (default ~/.local/share/companion)")

    games = sub.add_parser("games", help="list the installed games")
    games.add_argument("--json", action="store_true")
    games.set_defaults(func=cmd_games)

    replay = sub.add_parser("replay", help="play a JSON-lines file of events")
    replay.add_argument("file")
    replay.add_argument("--json", action="store_true",
                        help="print the final view as JSON on stdout (announcements to stderr)")
    common(replay)
    replay.set_defaults(func=cmd_replay)

    history = sub.add_parser("history", help="the labelled history of the current game")
    history.add_argument("--json", action="store_true")
    common(history)
    history.set_defaults(func=cmd_history)

    undo = sub.add_parser("undo", help="undo the last steps of the current game")
    undo.add_argument("--steps", type=int, default=1)
    undo.add_argument("--to", type=int, default=None, help="go back to this history point")
    common(undo)
    undo.set_defaults(func=cmd_undo)

    cards = sub.add_parser("cards", help="the owner's definitions of cards, tiles, heroes...")
    cards.add_argument("action", choices=("list", "add", "edit", "forget", "export", "import"))
    cards.add_argument("id", nargs="?", help="the definition's id (export, import: the file)")
    cards.add_argument("--replace", action="store_true",
                       help="import: the file's values win where they differ from yours")
    cards.add_argument("--game", default="last-bastion")
    cards.add_argument("--kind", default="card")
    cards.add_argument("--json", help="the definition as a JSON object (list: print JSON)",
                       nargs="?", const="{}")
    for flag in (*CARD_FLAGS, *EFFECT_FLAGS):
        cards.add_argument(f"--{flag}")
    common(cards)
    cards.set_defaults(func=cmd_cards)

    from hardware.cli import add_hardware_parsers
    from vision.cli import add_dice_parser
    from web.cli import add_web_parsers

    add_dice_parser(sub, lambda: settings.load()["general"]["language"])
    add_web_parsers(sub)
    add_hardware_parsers(sub)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of the ``companion`` console script."""
    args = build_parser().parse_args(argv)
    try:
        return args.func(args)
    except StoreError as error:
        print(str(error), file=sys.stderr)
        return 2
    except RuleError as error:
        print(render_error(error, _lang(args)), file=sys.stderr)
        return 2
    except json.JSONDecodeError as error:
        _say(args, "cli.bad_json", True, detail=error.msg, column=error.colno)
        return 2
    except BrokenPipeError:  # output piped into a pager that quit early
        sys.stderr.close()
        return 0


if __name__ == "__main__":
    sys.exit(main())
