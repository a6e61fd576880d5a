"""``companion pin``: choose the host PIN of a data directory."""

from __future__ import annotations

import argparse
import getpass
import sys
from pathlib import Path
from typing import Any

from companion import config as settings
from companion.engine import Message
from companion.engine.lock import writer_lock
from companion.i18n import LANGUAGES, render

from .auth import PinError, PinStore, check_pin_format
from .texts import texts


def _read_pin(prompt: str) -> str:
    if sys.stdin.isatty():
        return getpass.getpass(prompt)
    return sys.stdin.readline().strip()


def cmd_pin(args: argparse.Namespace) -> int:
    """Choose a new host PIN (typed twice, never echoed); logged-in hosts must log in again."""
    table = texts(args.lang or settings.load()["general"]["language"])
    data_dir = settings.data_paths(args.data_dir).root
    with writer_lock(data_dir):  # a running companion holds the PIN: refused, naming it
        return _choose_pin(table, data_dir)


def _choose_pin(table: dict[str, str], data_dir: Path) -> int:
    first = _read_pin(render(Message("run.pin_prompt"), texts=table))
    if _read_pin(render(Message("run.pin_again"), texts=table)) != first:
        print(render(Message("run.pin_mismatch"), texts=table), file=sys.stderr)
        return 2
    try:
        PinStore(data_dir).set(check_pin_format(first))
    except PinError:
        print(render(Message("pin.bad_format"), texts=table), file=sys.stderr)
        return 2
    print(render(Message("run.pin_changed"), texts=table))
    return 0


def add_pin_parser(subparsers: Any) -> None:
    """Register ``pin`` on the ``companion`` command's sub-parsers."""
    pin = subparsers.add_parser("pin", help="choose a new host PIN")
    pin.add_argument("--lang", choices=LANGUAGES, default=None,
                     help="language of what is said (default: the config's)")
    pin.add_argument("--data-dir", type=Path, default=None,
                     help="the data directory (default: the config's)")
    pin.set_defaults(func=cmd_pin)
