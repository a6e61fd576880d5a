"""``companion run`` (the session, the web page and the table's inputs) and ``companion pin``."""

from __future__ import annotations

import argparse
import getpass
import socket
import sys
from pathlib import Path
from typing import Any

import hardware
import hardware.build
from companion import config as settings
from companion import mqtt
from companion.engine import Message, RuleError, Session
from companion.i18n import LANGUAGES, render
from companion.simulator import KeyboardTable
from companion.speech import Announcer, make_voice

from . import create_app
from .auth import PinError, PinStore, check_pin_format
from .config import WebConfig
from .context import EXTENSION
from .server import DEFAULT_THREADS, serve
from .texts import texts

DEFAULT_PORT = 8000
PI_MODEL = Path("/proc/device-tree/model")


def on_raspberry_pi() -> bool:
    """Whether this machine is a Raspberry Pi (its sensors can then be used)."""
    try:
        return "Raspberry Pi" in PI_MODEL.read_text(errors="replace")
    except OSError:
        return False


def lan_address() -> str:
    """An address of this machine that phones on the same network can reach (else loopback)."""
    try:
        infos = socket.getaddrinfo(socket.gethostname(), None, socket.AF_INET)
    except OSError:
        return "127.0.0.1"
    addresses = [info[4][0] for info in infos if not info[4][0].startswith("127.")]
    return addresses[0] if addresses else "127.0.0.1"


def page_url(host: str, port: int) -> str:
    """The URL to open on a phone."""
    shown = lan_address() if host in ("0.0.0.0", "::", "") else host
    return f"http://{shown}:{port}/"


def print_qr(url: str, out: Any = None) -> None:
    """A QR code of the URL in the terminal, for phones to scan."""
    import segno

    segno.make(url, error="m").terminal(out=out or sys.stdout, compact=True)


def cmd_run(args: argparse.Namespace) -> int:
    """Start the session, the voice, the web server and the table (its sensors on a Raspberry Pi;
    the simulated table elsewhere, with the sensors a config names); stop cleanly on Ctrl-C or
    SIGTERM."""
    config = settings.load()
    lang = args.lang or config["general"]["language"]
    session = Session(args.data_dir or config["general"]["data_dir"] or None)
    simulate = args.simulate or not on_raspberry_pi()
    table = texts(lang, session.game, session.state)
    announcer = Announcer(make_voice(config["speech"]), lang, [hardware.MESSAGES_DIR]).start()
    announcer.attach(session)
    sensors = hardware.build.start(session, config, announcer, simulate=simulate)
    try:
        broker = mqtt.start(session, config)
    except mqtt.Unavailable as exc:
        print(render(exc.message, lang), file=sys.stderr, flush=True)
        broker = None
    app = create_app(session, WebConfig(lang=lang, simulate=simulate, seed=args.seed),
                     table=sensors, settings=config)
    ctx = app.extensions[EXTENSION]

    def say(message: Message | RuleError) -> None:
        if isinstance(message, RuleError):
            message = Message(message.key, message.params)
        current = texts(lang, session.game, session.state)
        print(render(message, texts=current), flush=True)

    keyboard = KeyboardTable(ctx.simulator, say) if ctx.simulator else None
    for problem in config.problem_texts(lang):
        print(problem, file=sys.stderr, flush=True)

    def ready(host: str, port: int) -> None:
        url = page_url(args.host, port)
        print(render(Message("run.url", {"url": url}), texts=table), flush=True)
        print_qr(url)
        if session.record is not None and session.record.status == "playing":
            say(Message("run.resumed", {"id": session.record.id, "version": session.version}))
        if not ctx.pins.is_set():
            say(Message("run.pin_missing"))
        if keyboard is not None and keyboard.start():
            say(Message("run.keys"))

    try:
        serve(app, args.host, args.port, args.threads, ready)
    finally:
        if keyboard is not None:
            keyboard.stop()
        if broker is not None:
            broker.stop()
        if sensors is not None:
            sensors.stop()
        announcer.stop()
        session.close()
    say(Message("run.stopped"))
    return 0


def _read_pin(prompt: str) -> str:
    if sys.stdin.isatty():
        return getpass.getpass(prompt)
    return sys.stdin.readline().strip()


def cmd_pin(args: argparse.Namespace) -> int:
    """Choose a new host PIN (typed twice, never echoed); logged-in hosts must log in again."""
    table = texts(args.lang or settings.load()["general"]["language"])
    data_dir = Session(args.data_dir).data_dir
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


def add_web_parsers(subparsers: Any) -> None:
    """Register ``run`` and ``pin`` on the ``companion`` command's sub-parsers."""

    def common(parser: argparse.ArgumentParser) -> None:
        parser.add_argument("--lang", choices=LANGUAGES, default=None,
                            help="language of the page and the voice (default: the config's)")
        parser.add_argument("--data-dir", type=Path, default=None,
                            help="where the journal lives (default: the config's, else "
                                 "~/.local/share/companion)")

    run = subparsers.add_parser("run", help="serve the live page and run the table")
    run.add_argument("--simulate", action="store_true",
                     help="virtual dice and cards (the default away from a Raspberry Pi)")
    run.add_argument("--host", default="0.0.0.0", help="address to listen on (default: all)")
    run.add_argument("--port", type=int, default=DEFAULT_PORT)
    run.add_argument("--seed", type=int, default=None, help="seed of the simulated table")
    run.add_argument("--threads", type=int, default=DEFAULT_THREADS,
                     help="server threads; each open phone stream holds one")
    common(run)
    run.set_defaults(func=cmd_run)

    pin = subparsers.add_parser("pin", help="choose a new host PIN")
    common(pin)
    pin.set_defaults(func=cmd_pin)
