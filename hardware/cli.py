"""The hardware commands: ``companion tags list|enroll|forget``, ``companion config`` and
``companion doctor``.

``companion/cli.py`` calls :func:`add_hardware_parsers` on its subparsers; each command stores
its handler in ``func`` (``func(args) -> exit code``). Bad input prints one line on stderr and
exits with code 2; ``doctor`` exits with 1 when a check fails. Everything is said in ``--lang``,
else the config's ``[general] language``.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

from companion import config as settings
from companion.engine import DefinitionStore, Message, find_game, installed_games
from companion.engine.lock import writer_lock
from companion.engine.tags import TagMap, canonical_uid
from companion.i18n import LANGUAGES, render

from . import doctor
from .build import make_reader
from .rfid import PartialRead, TagReader
from .status import texts

BAD_INPUT = 2


def _config(args: argparse.Namespace) -> settings.Config:
    files = settings.default_files() + ([args.config] if args.config else [])
    return settings.load(files)


def _lang(args: argparse.Namespace, config: settings.Config) -> str:
    return args.lang or config["general"]["language"]


def _say(args: argparse.Namespace, config: settings.Config, key: str, error: bool = False,
         /, **params: object) -> None:
    """Print one message of the hardware catalog in the user's language (stderr if ``error``)."""
    print(render(Message(key, params), texts=texts(_lang(args, config))),
          file=sys.stderr if error else sys.stdout, flush=True)


def _data_dir(args: argparse.Namespace, config: settings.Config) -> Path:
    return settings.data_paths(args.data_dir, config).root


def cmd_tags_list(args: argparse.Namespace) -> int:
    """Print every enrolled tag."""
    tags = TagMap(_data_dir(args, _config(args))).items()
    if args.json:
        print(json.dumps(dict(tags), indent=1))
    for uid, entry in tags if not args.json else ():
        print(f"{uid:<22} {entry.get('game') or '-':<16} {entry['card']}")
    return 0


def cmd_tags_enroll(args: argparse.Namespace) -> int:
    """Teach a tag which card it stands for: given with --uid, or read from the reader. Refused
    while a companion runs on the data directory (it holds the reader and the tag map)."""
    config = _config(args)
    data_dir = _data_dir(args, config)
    with writer_lock(data_dir):
        return _enroll(args, config, data_dir)


def _enroll(args: argparse.Namespace, config: settings.Config, data_dir: Path) -> int:
    game = find_game(args.game or next(iter(installed_games())))
    cards = game.known_definitions(DefinitionStore(data_dir, game.id).load()).get("card", {})
    if args.card not in cards:
        _say(args, config, "cli.tags.unknown_card", True, card=repr(args.card), game=game.id)
        return BAD_INPUT
    reader = None if args.uid else make_reader(config["rfid"])
    if args.uid:
        uid = _uid(args, config, args.uid)
    elif reader is None:
        _say(args, config, "cli.tags.no_reader", True)
        return BAD_INPUT
    else:
        try:
            uid = _wait_for_tag(args, config, reader)
        except OSError as exc:
            _say(args, config, "cli.tags.reader_failed", True, detail=str(exc))
            return BAD_INPUT
        if uid is None:
            _say(args, config, "cli.tags.none_read", True, seconds=f"{args.timeout:g}")
    if uid is None:
        return BAD_INPUT
    TagMap(data_dir).enroll(uid, args.card, game.id)
    _say(args, config, "cli.tags.enrolled", uid=uid, card=args.card, game=game.id)
    return 0


def _uid(args: argparse.Namespace, config: settings.Config, raw: str) -> str | None:
    """The canonical UID, or None after saying it is not one."""
    try:
        return canonical_uid(raw)
    except ValueError:
        _say(args, config, "cli.tags.bad_uid", True, uid=raw)
        return None


def _wait_for_tag(args: argparse.Namespace, config: settings.Config,
                  reader: TagReader) -> str | None:
    _say(args, config, "cli.tags.swipe", True, reader=reader.name, state=reader.open())
    deadline = time.monotonic() + args.timeout
    try:
        while time.monotonic() < deadline:
            try:
                uid = reader.read_uid(0.05)
            except PartialRead:
                continue
            if uid is not None:
                return uid
        return None
    finally:
        reader.close()


def cmd_tags_forget(args: argparse.Namespace) -> int:
    """Forget a tag."""
    config = _config(args)
    uid = _uid(args, config, args.uid)
    if uid is None:
        return BAD_INPUT
    data_dir = _data_dir(args, config)
    with writer_lock(data_dir):
        found = TagMap(data_dir).forget(uid)
    if not found:
        _say(args, config, "cli.tags.not_enrolled", True, uid=uid)
        return BAD_INPUT
    _say(args, config, "cli.tags.forgotten", uid=uid)
    return 0


def cmd_config(args: argparse.Namespace) -> int:
    """Print the effective config, each value with where it came from, then the problems."""
    config = _config(args)
    print("\n".join(config.describe()))
    for problem in config.problem_texts(_lang(args, config)):
        print(problem, file=sys.stderr)
    return BAD_INPUT if config.problems else 0


def cmd_doctor(args: argparse.Namespace) -> int:
    """Check the box and say how to fix what is wrong."""
    config = _config(args)
    checks = doctor.run(config, _data_dir(args, config))
    lang = _lang(args, config)
    if args.json:
        print(json.dumps([c.to_json(lang) for c in checks], indent=1, ensure_ascii=False))
    else:
        print("\n".join(doctor.report(checks, lang)))
    return 1 if any(c.ok is False for c in checks) else 0


def add_hardware_parsers(subparsers: argparse._SubParsersAction) -> None:
    """Register ``tags``, ``config`` and ``doctor`` on the ``companion`` subparsers."""

    def common(parser: argparse.ArgumentParser) -> None:
        parser.add_argument("--config", type=Path, default=None,
                            help="one more config file, read last")
        parser.add_argument("--data-dir", type=Path, default=None,
                            help="where the journal and tags.json live")
        parser.add_argument("--lang", choices=LANGUAGES, default=None,
                            help="language of what is said (default: the config's)")

    tags = subparsers.add_parser("tags", help="RFID tags and the cards they stand for")
    sub = tags.add_subparsers(dest="tags_command", required=True)
    p = sub.add_parser("list", help="every enrolled tag")
    p.add_argument("--json", action="store_true")
    common(p)
    p.set_defaults(func=cmd_tags_list)
    p = sub.add_parser("enroll", help="teach a tag which card it is (swipe it, or give --uid)")
    p.add_argument("card", help="the card id, as in `companion cards list`")
    p.add_argument("--uid", help="the tag's UID in hex (default: read it from the reader)")
    p.add_argument("--game", default=None,
                   help="the game (default: the first `companion games` lists)")
    p.add_argument("--timeout", type=float, default=30.0, help="seconds to wait for a swipe")
    common(p)
    p.set_defaults(func=cmd_tags_enroll)
    p = sub.add_parser("forget", help="forget a tag")
    p.add_argument("uid")
    common(p)
    p.set_defaults(func=cmd_tags_forget)

    p = subparsers.add_parser("config", help="the effective config and where each value came from")
    common(p)
    p.set_defaults(func=cmd_config)

    p = subparsers.add_parser("doctor", help="check the box: interfaces, reader, camera, pins...")
    p.add_argument("--json", action="store_true")
    common(p)
    p.set_defaults(func=cmd_doctor)
