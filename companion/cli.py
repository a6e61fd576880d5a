"""The ``companion`` command: run the table, play back games, read the history, teach cards,
read dice, wire sensors. What it says is in ``--lang``, else the config's ``[general] language``."""

from __future__ import annotations

import argparse
import errno
import json
import os
import stat
import sys
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from companion.boxfile import export_box, import_box
from companion.engine import (
    DataPaths,
    Event,
    Game,
    Message,
    RuleError,
    Session,
    StoreError,
    find_game,
    installed_games,
)
from companion.engine import backup as backups
from companion.engine import repair as repairs
from companion.engine.events import FIRST_FORMAT, header_format, parse_json
from companion.engine.journal import Journal
from companion.engine.lock import writer_lock
from companion.engine.registry import registry
from companion.i18n import LANGUAGES, catalog, render, render_error

from . import config as settings

MAX_LINE = 64 * 1024
"""The longest line ``replay`` reads (a recorded event is far shorter)."""


def _say(args: argparse.Namespace, key: str, error: bool = False, /, **params: Any) -> None:
    """Print one message of the common catalog in the user's language (stderr if ``error``)."""
    print(render(Message(key, params), _lang(args)), file=sys.stderr if error else sys.stdout)


def _lang(args: argparse.Namespace) -> str:
    """``--lang``, else the language of the config files (read once per command)."""
    if getattr(args, "lang", None) is None:
        args.lang = settings.load()["general"]["language"]
    return args.lang


def _paths(args: argparse.Namespace) -> DataPaths:
    """The data directory of this command (see :func:`companion.config.data_paths`)."""
    return settings.data_paths(args.data_dir)


def _print_messages(session: Session, messages: Sequence[Any], lang: str, stream: Any) -> None:
    texts = catalog(lang, session.game, session.state)
    for message in messages:
        print(render(message, texts=texts), file=stream)


def cmd_games(args: argparse.Namespace) -> int:
    """List the installed games, and the plugins that are broken (with their error)."""
    games, broken = installed_games(), registry().broken
    if args.json:
        print(json.dumps([{"id": g.id, "events": sorted(g.events)} for g in games.values()]
                         + [{"id": b.name, "package": b.package, "broken": b.error}
                            for b in broken]))
    else:
        for game_id in games:  # the flagship first, as the host page lists them
            print(game_id)
        for plugin in broken:
            _say(args, "cli.game_broken", name=plugin.name, package=plugin.package,
                 detail=plugin.error)
    return 0


def _read_lines(args: argparse.Namespace, path: Path) -> list[str] | None:
    """The lines of a replay file, or None after saying why it cannot be one: not a regular
    file (a folder, ``/dev/zero``), a line longer than :data:`MAX_LINE`, binary or not UTF-8."""
    try:
        if not stat.S_ISREG(os.stat(path).st_mode):
            _say(args, "cli.not_a_file", True, path=str(path))
            return None
        lines = []
        with path.open("rb") as source:
            while line := source.readline(MAX_LINE + 1):
                if len(line) > MAX_LINE:
                    _say(args, "cli.line_too_long", True, path=str(path),
                         number=len(lines) + 1, limit=MAX_LINE)
                    return None
                if b"\0" in line:
                    _say(args, "cli.binary", True, path=str(path), number=len(lines) + 1)
                    return None
                lines.append(line.decode("utf-8"))
        return lines
    except (OSError, UnicodeDecodeError) as exc:
        _say(args, "cli.unreadable", True, path=str(path),
             detail=getattr(exc, "strerror", None) or str(exc))
        return None


def _parse_json(line: str) -> Any:
    """One line of a replay file; JSON nested deeper than Python can follow is refused like bad
    JSON."""
    try:
        return parse_json(line)
    except RecursionError:
        raise RuleError("event.bad_json", detail="nested too deeply", column=1) from None


def cmd_replay(args: argparse.Namespace) -> int:
    """Feed a JSON-lines file of events to the session, saying what happens."""
    lines = _read_lines(args, Path(args.file))
    if lines is None:
        return 2
    session = Session(_paths(args))
    speech = sys.stderr if args.json else sys.stdout
    version = None
    for number, line in enumerate(lines, start=1):
        if not line.strip() or line.lstrip().startswith("#"):
            continue
        try:
            data = _parse_json(line)
            if version is None and (declared := header_format(data)) is not None:
                version = declared  # the file's first line says its event format
                continue
            version = version or FIRST_FORMAT  # a file without a header: the format before
            steps = session.submit_recorded(Event.from_json(data), version)
        except RuleError as error:
            _say(args, "cli.line", True, number=number,
                 reason=render_error(error, _lang(args), session.game, session.state))
            return 2
        for step in steps:
            _print_messages(session, [*step.announcements, *step.prompts], _lang(args), speech)
    if args.json:
        print(json.dumps(session.view(), ensure_ascii=False))
    return 0


def cmd_history(args: argparse.Namespace) -> int:
    """Print the labelled history of the current game (reads only: works while the companion
    runs). What cannot be replayed is said on stderr, with the way out."""
    session = Session(_paths(args), readonly=True)
    for problem in session.problems:
        _say(args, problem.key, True, **problem.params)
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
    session = Session(_paths(args))
    fields = {"to": args.to} if args.to is not None else {"steps": args.steps}
    try:
        step = session.submit(Event("undo", fields, "cli"))
    except RuleError as error:
        print(render_error(error, _lang(args), session.game), file=sys.stderr)
        return 2
    print(render(step.label, _lang(args), session.game, session.state))
    return 0


def cmd_repair(args: argparse.Namespace) -> int:
    """Set aside what does not replay (kept), so the game resumes at its last good event;
    ``--list`` shows what earlier repairs set aside."""
    paths = _paths(args)
    if args.list:
        journal = Journal(paths.journal, readonly=True)
        try:
            for seq, game_id, kind, reason in journal.set_aside_entries():
                _say(args, "repair.set_aside_item", seq=seq, game=game_id, event=kind,
                     reason=json.loads(reason))
        finally:
            journal.close()
        return 0
    done = repairs.repair(paths, installed_games())
    for message in done or [Message("repair.nothing", {"path": str(paths.journal)})]:
        print(render(message, _lang(args)))
    session = Session(paths)
    try:
        if session.record is not None:
            _say(args, "repair.resumed", game=session.record.id, seq=session.version)
    finally:
        session.close()
    return 0


def cmd_backup(args: argparse.Namespace) -> int:
    """Copy the journal (SQLite online backup: safe while the companion runs)."""
    made = backups.backup(_paths(args), args.file)
    _say(args, "cli.backup.done", path=str(made))
    return 0


def cmd_restore(args: argparse.Namespace) -> int:
    """Make a backup the journal (the current one saved first), then resume from it."""
    paths = _paths(args)
    with writer_lock(paths.root):
        saved = backups.restore(paths, Path(args.file))
    session = Session(paths)
    try:
        _say(args, "cli.restore.done", path=str(args.file), saved=str(saved) if saved else None,
             version=session.version)
    finally:
        session.close()
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
    """List, add, edit or forget the owner's definitions of a game; export or import them all
    (a box's file)."""
    if args.action in ("photo", "read"):
        return _card_photos(args)
    game = find_game(args.game or next(iter(installed_games())))
    session = Session(_paths(args), readonly=args.action in ("list", "export"))
    try:
        return _cards(args, game, session)
    finally:
        session.close()


def _cards(args: argparse.Namespace, game: Game, session: Session) -> int:
    """``cards`` on an open session: listing reads, the other actions write (under its lock)."""
    store = session.definitions(game.id)
    owner = session.owner_definitions(game.id)
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
        return _box_file(args, game, session.data_dir)
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


def _card_photos(args: argparse.Namespace) -> int:
    """``cards photo CARD_ID PHOTO``: teach a card from a photo; ``cards read PHOTO``: the
    cards the camera would report there."""
    from companion.cardphotos import pictures_folder
    from vision import VisionError, load_image
    from vision.cards import Deck, read_cards

    photo = args.id if args.action == "read" else args.photo
    if not args.id or not photo:
        raise RuleError("event.missing_field", event=f"cards {args.action}",
                        field="photo" if args.id else "id")
    paths = _paths(args)
    try:
        frame = load_image(photo)
        if args.action == "read":
            return _print_cards(args, photo, read_cards(frame, Deck(pictures_folder(paths.root))))
        return _teach_photo(args, paths, frame)
    except VisionError as error:
        print(error.text(_lang(args)), file=sys.stderr)
        return 2


def _teach_photo(args: argparse.Namespace, paths: DataPaths, frame: Any) -> int:
    """Teach ``args.id`` from the card nearest the centre of ``frame``: its picture journaled
    with a ``card_photo`` event of the box (under the data directory's lock, as every change),
    then written where the card camera reads it, as the teach form's photo is."""
    from companion.cardphotos import CARD_ID, pictures_folder, sync_pictures, taught_picture
    from hardware.cards import frame_card_picture
    from vision import VisionError

    if not CARD_ID.match(args.id):
        raise VisionError("cards.bad_id", id=repr(args.id))
    session = Session(paths)  # one writer per data directory
    try:
        sync_pictures(session)  # what an earlier teaching could not write yet
        picture = frame_card_picture(frame, args.id, paths.root)
        if "problem" in picture:
            print(picture["problem"].get(_lang(args), picture["problem"]["en"]), file=sys.stderr)
            return 2
        seq = session.submit_box(Event("card_photo", {"id": args.id}, "cli"),
                                 [taught_picture(args.id, picture["jpeg"])])
        sync_pictures(session)
    finally:
        session.close()
    path = pictures_folder(paths.root) / f"{args.id}@j{seq}.png"
    _say(args, "cli.cards.photo_saved", id=args.id, photo=args.photo, path=str(path))
    if picture["alike"]:
        _say(args, "cli.cards.photo_alike", id=args.id, alike=", ".join(picture["alike"]))
    return 0


def _print_cards(args: argparse.Namespace, photo: str, read: Any) -> int:
    """Print what ``cards read`` saw: JSON with ``--json``, else a line per card."""
    if args.json:
        print(json.dumps(read.to_json(), ensure_ascii=False))
        return 0
    lang = _lang(args)
    for card in read.cards:
        box = ",".join(str(v) for v in card.box)
        if card.id is None:
            _say(args, "cli.cards.read_unknown", box=box)
        else:
            unsure = render(Message("cli.cards.read_unsure"), lang) if card.uncertain else ""
            _say(args, "cli.cards.read_card", id=card.id, confidence=f"{card.confidence:.2f}",
                 unsure=unsure, box=box)
    if not read.cards:
        _say(args, "cli.cards.read_none", photo=photo)
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


@dataclass(frozen=True)
class Heavy:
    """Sub-commands whose module is slow to import (OpenCV, Flask, the hardware): their
    arguments are registered only when one of them runs, so rules commands start fast."""

    commands: dict[str, str]
    add: Callable[[Any], None]


def _add_dice(sub: Any) -> None:
    from vision.cli import add_dice_parser

    from .dicehandoff import declare_dice

    declare_dice()  # vision reads the dice the games declare
    add_dice_parser(sub, lambda: settings.load()["general"]["language"],
                    lambda given: settings.data_paths(given).root)


def _add_run(sub: Any) -> None:
    from .app import add_run_parser
    from .dicehandoff import declare_dice

    declare_dice()
    add_run_parser(sub)


def _add_pin(sub: Any) -> None:
    from web.cli import add_pin_parser

    add_pin_parser(sub)


def _add_cafe(sub: Any) -> None:
    from web.cafe import add_cafe_parser

    add_cafe_parser(sub)


def _add_hardware(sub: Any) -> None:
    from hardware.cli import add_hardware_parsers

    from .dicehandoff import declare_dice

    declare_dice()  # the doctor checks what was taught for each die
    add_hardware_parsers(sub)


HEAVY = (
    Heavy({"dice": "read dice from camera photos"}, _add_dice),
    Heavy({"run": "serve the live page and run the table"}, _add_run),
    Heavy({"pin": "choose a new host PIN"}, _add_pin),
    Heavy({"cafe": "every table on one MQTT broker, on one read-only page"}, _add_cafe),
    Heavy({"tags": "RFID tags and the cards they stand for",
           "config": "the effective config and where each value came from",
           "doctor": "check the box: interfaces, reader, camera, pins..."}, _add_hardware),
)


def build_parser(command: str | None = None) -> argparse.ArgumentParser:
    """The argument parser of every sub-command; the heavy ones' arguments only for
    ``command`` (all of them when None)."""
    parser = argparse.ArgumentParser(prog="companion", description=__doc__)
    sub = parser.add_subparsers(dest="command", required=True)

    def common(p: argparse.ArgumentParser, data: bool = True) -> None:
        p.add_argument("--lang", choices=LANGUAGES, default=None,
                       help="language of what is said (default: the config's)")
        if data:
            p.add_argument("--data-dir", type=Path, default=None,
                           help="the data directory (default: $COMPANION_DATA_DIR, the config's, "
                           "else $XDG_DATA_HOME/companion)")

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
    cards.add_argument("action", choices=("list", "add", "edit", "forget", "export", "import",
                                          "photo", "read"))
    cards.add_argument("id", nargs="?",
                       help="the definition's id (export, import: the file; read: the photo)")
    cards.add_argument("photo", nargs="?", help="photo: the photo of the card to teach")
    cards.add_argument("--replace", action="store_true",
                       help="import: the file's values win where they differ from yours")
    cards.add_argument("--game", default=None,
                       help="the game (default: the first `companion games` lists)")
    cards.add_argument("--kind", default="card")
    cards.add_argument("--json", help="the definition as a JSON object (list: print JSON)",
                       nargs="?", const="{}")
    for flag in (*CARD_FLAGS, *EFFECT_FLAGS):
        cards.add_argument(f"--{flag}")
    common(cards)
    cards.set_defaults(func=cmd_cards)

    repair = sub.add_parser("repair", help="set aside what does not replay; resume the game")
    repair.add_argument("--list", action="store_true", help="list what repairs set aside")
    common(repair)
    repair.set_defaults(func=cmd_repair)

    backup = sub.add_parser("backup", help="copy the journal (works while the companion runs)")
    backup.add_argument("file", nargs="?", type=Path, default=None,
                        help="where (default: backups/ in the data directory)")
    common(backup)
    backup.set_defaults(func=cmd_backup)

    restore = sub.add_parser("restore", help="put a backup back as the journal")
    restore.add_argument("file", type=Path)
    common(restore)
    restore.set_defaults(func=cmd_restore)

    for registers in HEAVY:
        if command is None or command in registers.commands:
            registers.add(sub)
        else:  # listed in --help without importing its module
            for name, text in registers.commands.items():
                sub.add_parser(name, help=text)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of the ``companion`` console script."""
    argv = sys.argv[1:] if argv is None else list(argv)
    command = next((word for word in argv if not word.startswith("-")), "")
    args = build_parser(command).parse_args(argv)
    try:
        return args.func(args)
    except StoreError as error:
        _say(args, error.key, True, **error.params)
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
    except OSError as error:
        if error.errno == errno.EADDRINUSE:
            _say(args, "cli.port_busy", True, port=getattr(args, "port", None))
        else:
            _say(args, "cli.system_error", True, path=error.filename,
                 detail=error.strerror or str(error))
        return 2


if __name__ == "__main__":
    sys.exit(main())
