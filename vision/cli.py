"""The ``dice`` command group: ``read``, ``teach``, ``faces``, ``confirm``, ``table`` and ``watch``.

``companion/cli.py`` calls :func:`add_dice_parser` on its subparsers; each subcommand stores its
handler in ``func`` (``func(args) -> exit code``). Bad input (not an image, empty or truncated
file, unknown profile or face) prints one line on stderr and exits with code 2. What is printed
for people is in ``--lang`` (default: the language the caller gives, e.g. the config's).
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections.abc import Callable
from pathlib import Path

from .frames import iter_frames
from .imageio import ImageError, load_image, load_photo
from .profile import (
    ProfileError,
    forget_taught,
    list_profiles,
    load_profile,
    taught_faces,
)
from .reader import read, read_photo
from .roll import Roll
from .say import LANGUAGES, VisionError, say
from .settle import SettledRollDetector
from .table import confirm, forget, table_examples
from .teach import teach

BAD_INPUT = 2


def add_dice_parser(subparsers: argparse._SubParsersAction,
                    default_lang: Callable[[], str],
                    data_dir: Callable[[Path | None], Path]) -> argparse.ArgumentParser:
    """Register ``dice read|teach|watch`` on ``subparsers``; returns the ``dice`` parser.
    ``default_lang`` gives the language when ``--lang`` is not given; ``data_dir`` turns the
    ``--data-dir`` given (or None) into the companion's data directory, so taught faces land
    where ``companion run`` reads them."""
    dice = subparsers.add_parser("dice", help="read dice from camera photos")
    sub = dice.add_subparsers(dest="dice_command", required=True)
    profiles = ", ".join(list_profiles())

    def common(p: argparse.ArgumentParser) -> None:
        p.add_argument("--profile", required=True, help=f"die profile ({profiles})")
        p.add_argument(
            "--data-dir",
            type=Path,
            default=None,
            help="the companion's data directory, where taught faces are kept",
        )
        p.add_argument("--lang", choices=LANGUAGES, default=None,
                       help="language of what is printed (default: the config's)")
        p.set_defaults(default_lang=default_lang, resolve_data_dir=data_dir)

    p = sub.add_parser("read", help="read the dice in photos")
    p.add_argument("images", nargs="+", metavar="IMAGE")
    p.add_argument(
        "--json", action="store_true", help="print one JSON object per image, one per line"
    )
    p.add_argument("--expected", type=int, default=None, help="how many dice were rolled")
    p.add_argument("--colours", action="store_true",
                   help="name each die's colour too (whose die it is, where each player rolls "
                        "their own colour)")
    common(p)
    p.set_defaults(func=cmd_read)

    p = sub.add_parser("teach", help="learn one face of a coloured or symbol die from photos")
    p.add_argument("images", nargs="+", metavar="IMAGE")
    p.add_argument("--face", required=True, help="face id every die in the photos shows")
    p.add_argument("--count", type=int, required=True,
                   help="how many dice each photo shows (anything else found is not learned)")
    common(p)
    p.set_defaults(func=cmd_teach)

    p = sub.add_parser("faces", help="list or forget the faces taught for a profile")
    p.add_argument("action", choices=("list", "remove", "reset"),
                   help="list the taught faces, remove one (--face), or reset them all")
    p.add_argument("--face", help="the face to remove")
    common(p)
    p.set_defaults(func=cmd_faces)

    p = sub.add_parser("confirm", help="keep the dice of a photo, as the host gives them, as "
                                          "examples of this table")
    p.add_argument("image", metavar="PHOTO")
    p.add_argument("--die", action="append", required=True, metavar="X0,Y0,X1,Y1=FACE",
                   help="a die of the photo: its box in the photo's pixels (as dice read --json "
                        "prints it) and its face; once per die")
    p.add_argument("--camera", default=None, help="the camera's name, kept with the examples")
    common(p)
    p.set_defaults(func=cmd_confirm)

    p = sub.add_parser("table", help="list or forget the examples of this table")
    p.add_argument("action", choices=("list", "forget", "reset"),
                   help="list the examples, forget one (--id), or forget them all")
    p.add_argument("--id", help="the example to forget (as list prints it)")
    common(p)
    p.set_defaults(func=cmd_table)

    p = sub.add_parser("watch", help="print each settled roll seen by a camera or in a video")
    source = p.add_mutually_exclusive_group()
    source.add_argument("--camera", type=int, default=0, help="OpenCV camera index (default 0)")
    source.add_argument("--video", help="video file or folder of images")
    p.add_argument("--still", type=float, default=0.6, help="seconds the dice must stay still")
    common(p)
    p.set_defaults(func=cmd_watch)
    return dice


def _data_dir(args: argparse.Namespace) -> Path:
    return args.resolve_data_dir(args.data_dir)


def _lang(args: argparse.Namespace) -> str:
    """``--lang``, else the caller's default (asked once per command: it may read files)."""
    if args.lang is None:
        args.lang = args.default_lang()
    return args.lang


def _fail(args: argparse.Namespace, error: VisionError) -> int:
    print(say("cli.error", _lang(args), message=error.text(_lang(args))), file=sys.stderr)
    return BAD_INPUT


def format_roll(roll: Roll, lang: str = "en") -> str:
    """Human-readable lines: one per die (with its colour when it was asked for), then the
    notes, in ``lang``."""
    uncertain = "  " + say("cli.uncertain", lang)
    asked = any(d.colour for d in roll.dice)
    lines = [
        f"  {d.face:<14} {d.confidence:5.2f}  [{', '.join(map(str, d.box))}]"
        + (f"  {say(f'colour.{d.colour}' if d.colour else 'cli.colour_unsure', lang)}"
           if asked else "")
        + (uncertain if d.uncertain else "")
        for d in roll.dice
    ]
    lines += ["  " + say("cli.note", lang, note=say(f"note.{note}", lang)) for note in roll.notes]
    return "\n".join(lines)


def cmd_read(args: argparse.Namespace) -> int:
    """``dice read``: every image is read, whatever happened to the others; each image that
    could not be read is named on stderr with its problem (and, with ``--json``, as an object
    with an ``error``), and the exit code is 2 at the end if any image failed."""
    try:
        profile = load_profile(args.profile, _data_dir(args))
    except ProfileError as exc:
        return _fail(args, exc)
    status = 0
    for name in args.images:
        start = time.perf_counter()
        try:
            roll = read_photo(name, profile, data_dir=_data_dir(args), expected=args.expected,
                              colours=args.colours)
        except VisionError as exc:
            status = _fail_image(args, name, exc)
            continue
        except Exception as exc:  # noqa: BLE001 - one bad image must not stop the batch
            status = _fail_image(args, name, ImageError(
                "image.read_failed", path=name, detail=f"{type(exc).__name__}: {exc}"))
            continue
        ms = (time.perf_counter() - start) * 1000
        if args.json:
            print(json.dumps({"image": name, "ms": round(ms, 1), **roll.to_dict()}), flush=True)
        else:
            print(say("cli.read", _lang(args), image=name, count=len(roll.dice), ms=f"{ms:.0f}"))
            print(format_roll(roll, _lang(args)), flush=True)
    return status


def _fail_image(args: argparse.Namespace, name: str, error: VisionError) -> int:
    """Report one image of a batch that could not be read; the batch goes on."""
    if args.json:
        print(json.dumps({"image": name, "error": error.text(_lang(args))}), flush=True)
    return _fail(args, error)


def cmd_teach(args: argparse.Namespace) -> int:
    """``dice teach``: learn a face from photos and store it in the data directory; each photo
    where the dice found differ from ``--count`` is named, with what was learned from it."""
    lang = _lang(args)
    try:
        images = [load_image(name) for name in args.images]
        taught = teach(args.profile, args.face, images, _data_dir(args), count=args.count)
    except (ImageError, ProfileError) as exc:
        return _fail(args, exc)
    for name, found, kept in zip(args.images, taught.found, taught.kept, strict=True):
        if found != args.count:
            key = "cli.photo_fewer" if found < args.count else "cli.photo_more"
            print(say(key, lang, image=name, found=found, count=args.count, kept=kept))
    print(say("cli.learned", lang, count=taught.learned, face=repr(args.face),
              profile=args.profile))
    return 0


def cmd_faces(args: argparse.Namespace) -> int:
    """``dice faces list|remove|reset``: what the owner taught, and forgetting it."""
    lang, data_dir = _lang(args), _data_dir(args)
    try:
        if args.action == "list":
            taught = taught_faces(args.profile, data_dir)
            print(say("cli.faces_none", lang, profile=args.profile) if not taught else
                  "\n".join([args.profile] + [say("cli.faces_line", lang, face=face, count=n)
                                              for face, n in taught.items()]))
        elif args.action == "remove":
            if not args.face:
                raise ProfileError("profile.not_taught", name=repr(args.profile), face="?",
                                   faces=", ".join(taught_faces(args.profile, data_dir)) or "-")
            count = forget_taught(args.profile, data_dir, args.face)
            print(say("cli.faces_removed", lang, profile=args.profile, face=repr(args.face),
                      count=count))
        else:
            count = forget_taught(args.profile, data_dir)
            print(say("cli.faces_reset", lang, profile=args.profile, count=count))
    except ProfileError as exc:
        return _fail(args, exc)
    return 0


def parse_die(value: str) -> tuple[tuple[int, int, int, int], str]:
    """``X0,Y0,X1,Y1=FACE`` as a box and a face; :class:`ProfileError` naming the value."""
    box, sep, face = value.partition("=")
    try:
        x0, y0, x1, y1 = (int(round(float(v))) for v in box.split(","))
    except ValueError:
        x0 = None
    if x0 is None or not sep or not face.strip():
        raise ProfileError("cli.bad_die", value=value)
    return (x0, y0, x1, y1), face.strip()


def cmd_confirm(args: argparse.Namespace) -> int:
    """``dice confirm``: the dice of a photo as the host gives them become this table's
    examples (the boxes are in the photo's pixels, as ``dice read --json`` prints them)."""
    lang = _lang(args)
    try:
        dice = [parse_die(value) for value in args.die]
        image, scale = load_photo(args.image)
        dice = [(tuple(round(v * scale) for v in box), face) for box, face in dice]
        done = confirm(image, args.profile, dice, _data_dir(args), camera=args.camera)
    except (ImageError, ProfileError) as exc:
        return _fail(args, exc)
    print(say("cli.confirmed", lang, image=args.image, count=done.added, profile=args.profile,
              corrected=done.corrected, missed=done.missed))
    return 0


def cmd_table(args: argparse.Namespace) -> int:
    """``dice table list|forget|reset``: the examples of this table, and forgetting them."""
    lang, data_dir = _lang(args), _data_dir(args)
    try:
        load_profile(args.profile)  # an unknown profile is an error, not an empty table
        if args.action == "list":
            examples = table_examples(args.profile, data_dir)
            if not examples:
                print(say("cli.table_none", lang, profile=args.profile))
                return 0
            print(say("cli.table_summary", lang, profile=args.profile, count=len(examples),
                      corrected=sum(e.corrected and e.read is not None for e in examples),
                      missed=sum(e.read is None for e in examples)))
            for e in examples:
                print(say("cli.table_line", lang, id=e.id, face=e.face, read=e.read or "-",
                          box=", ".join(map(str, e.box)), frame="x".join(map(str, e.frame)),
                          camera=f" {e.camera}" if e.camera else ""))
        elif args.action == "forget" and not args.id:
            raise ProfileError("table.no_example", id="?", profile=repr(args.profile))
        else:
            count = forget(args.profile, data_dir, args.id if args.action == "forget" else None)
            print(say("cli.table_forgot", lang, profile=args.profile, count=count))
    except ProfileError as exc:
        return _fail(args, exc)
    return 0


def cmd_watch(args: argparse.Namespace) -> int:
    """``dice watch``: print each settled roll until the stream ends or Ctrl-C; an image of a
    folder that cannot be read is named on stderr and left out, and the exit code is then 2 at
    the end (as ``dice read`` does for a batch)."""
    left_out: list[ImageError] = []

    def leave_out(error: ImageError) -> None:
        left_out.append(error)
        _fail(args, error)

    try:
        profile = load_profile(args.profile, _data_dir(args))
        frames = iter_frames(args.video if args.video else args.camera, skipped=leave_out)
        data_dir = _data_dir(args)
        detector = SettledRollDetector(lambda f: read(f, profile, data_dir=data_dir),
                                       still_seconds=args.still)
        for stamp, frame in frames:
            settled = detector.feed(frame, stamp)
            if settled:
                what = say("cli.bumped" if settled.bumped else "cli.roll", _lang(args))
                print(say("cli.settled", _lang(args), stamp=f"{stamp:8.2f}", what=what,
                          faces=", ".join(settled.roll.faces)), flush=True)
                print(format_roll(settled.roll, _lang(args)), flush=True)
    except (ImageError, ProfileError) as exc:
        return _fail(args, exc)
    except KeyboardInterrupt:
        pass
    return BAD_INPUT if left_out else 0


def main(argv: list[str] | None = None) -> int:
    """Run the dice commands on their own: ``python -m vision.cli dice read ...`` (taught faces
    are kept in ``--data-dir``, else the current folder)."""
    parser = argparse.ArgumentParser(prog="companion")
    add_dice_parser(parser.add_subparsers(dest="command", required=True), lambda: "en",
                    lambda given: given or Path.cwd())
    args = parser.parse_args(argv)
    return args.func(args)


if __name__ == "__main__":
    raise SystemExit(main())
