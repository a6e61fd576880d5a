"""``companion run``: the composition root that wires one table together.

It resolves the data directory, opens the session (the only writer), starts the voice, the
sensors (real ones on a Raspberry Pi, the simulated table elsewhere), hands the web app the box it
shows, and serves the page until Ctrl-C or SIGTERM. Nothing else in the project builds these
parts together: the web knows neither the hardware nor any game, the hardware no game.
"""

from __future__ import annotations

import argparse
import socket
import sys
from pathlib import Path
from typing import Any

import hardware
import hardware.build
from companion import config as settings
from companion.engine import Message, RuleError, Session
from companion.i18n import LANGUAGES, catalog, render
from companion.simulator import KeyboardTable
from companion.speech import Announcer, make_voice
from hardware.box import HardwareBox
from web import create_app
from web.config import WebConfig
from web.context import EXTENSION
from web.security import split_names
from web.server import DEFAULT_THREADS, serve

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
    session = Session(settings.data_paths(args.data_dir, config))
    simulate = args.simulate or not on_raspberry_pi()
    announcer = Announcer(make_voice(config["speech"]), lang, [hardware.MESSAGES_DIR]).start()
    announcer.attach(session)
    sensors = hardware.build.start(session, config, announcer, simulate=simulate)
    web = WebConfig(lang=lang, simulate=simulate, seed=args.seed,
                    hosts=split_names(config["web"]["hosts"]))
    app = create_app(session, web,
                     box=HardwareBox(session, config, sensors))
    ctx = app.extensions[EXTENSION]

    def say(message: Message | RuleError) -> None:
        if isinstance(message, RuleError):
            message = Message(message.key, message.params)
        print(render(message, texts=catalog(lang, session.game, session.state)), flush=True)

    keyboard = KeyboardTable(ctx.simulator, say) if ctx.simulator else None
    for problem in config.problem_texts(lang):
        print(problem, file=sys.stderr, flush=True)

    def ready(host: str, port: int) -> None:
        url = page_url(args.host, port)
        say(Message("run.url", {"url": url}))
        print_qr(url)
        if session.record is not None and session.record.status == "playing":
            say(Message("run.resumed", {"id": session.record.id, "version": session.version}))
        code = ctx.setup.current()
        if code is not None:  # presence at the table is the proof: print it and say it
            say(Message("run.pin_setup", {"code": code}))
            announcer.say(Message("run.pin_setup_spoken", {"code": " ".join(code)}))
        if keyboard is not None and keyboard.start():
            say(Message("run.keys"))

    try:
        serve(app, args.host, args.port, args.threads, ready)
    finally:
        if keyboard is not None:
            keyboard.stop()
        if sensors is not None:
            sensors.stop()
        announcer.stop()
        session.close()
    say(Message("run.stopped"))
    return 0


def add_run_parser(subparsers: Any) -> None:
    """Register ``run`` on the ``companion`` command's sub-parsers."""
    run = subparsers.add_parser("run", help="serve the live page and run the table")
    run.add_argument("--simulate", action="store_true",
                     help="virtual dice and cards (the default away from a Raspberry Pi)")
    run.add_argument("--host", default="0.0.0.0", help="address to listen on (default: all)")
    run.add_argument("--port", type=int, default=DEFAULT_PORT)
    run.add_argument("--seed", type=int, default=None, help="seed of the simulated table")
    run.add_argument("--threads", type=int, default=DEFAULT_THREADS,
                     help="threads for ordinary requests (live streams need none)")
    run.add_argument("--lang", choices=LANGUAGES, default=None,
                     help="language of the page and the voice (default: the config's)")
    run.add_argument("--data-dir", type=Path, default=None,
                     help="the data directory (default: the config's)")
    run.set_defaults(func=cmd_run)
