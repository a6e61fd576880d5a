"""``companion run``: the composition root that wires one table together.

It resolves the data directory, opens the session (the only writer), starts the voice, the
sensors (real ones on a Raspberry Pi, the simulated table elsewhere), hands the web app the box it
shows, and serves the page until Ctrl-C or SIGTERM. Nothing else in the project builds these
parts together: the web knows neither the hardware nor any game, the hardware no game.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

import hardware
import hardware.build
from companion import config as settings
from companion import mqtt
from companion.cardphotos import sync_pictures
from companion.engine import Message, RuleError, Session
from companion.i18n import LANGUAGES, catalog, render
from companion.mdns import PageAnnouncer, announce_in_background, local_names
from companion.netaddr import WILDCARDS, lan_addresses, page_urls
from companion.notify import ServiceNotifier, page_answers
from companion.simulator import KeyboardTable
from companion.speech import RESULT, Announcer
from companion.voices import make_voice
from hardware.box import HardwareBox
from web import create_app
from web.config import WebConfig
from web.context import EXTENSION
from web.link import Link, attach
from web.security import split_names
from web.server import DEFAULT_THREADS, ConnectionLimits, serve

DEFAULT_PORT = 8000
DEFAULT_NAME = "Table Companion"  # the table's name on the network when [table] name is empty
PI_MODEL = Path("/proc/device-tree/model")


def on_raspberry_pi() -> bool:
    """Whether this machine is a Raspberry Pi (its sensors can then be used)."""
    try:
        return "Raspberry Pi" in PI_MODEL.read_text(errors="replace")
    except OSError:
        return False


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
    sync_pictures(session)  # a card picture journaled just before a power cut
    simulate = args.simulate or not on_raspberry_pi()
    announcer = Announcer(make_voice(config["speech"]), lang, [hardware.MESSAGES_DIR]).start()
    announcer.attach(session)
    sensors = hardware.build.start(session, config, announcer, simulate=simulate)
    try:
        broker = mqtt.start(session, config)
    except mqtt.Unavailable as exc:
        print(render(exc.message, lang), file=sys.stderr, flush=True)
        broker = None
    local_name = config["table"]["local_name"]
    web = WebConfig(lang=lang, simulate=simulate, seed=args.seed,
                    hosts=split_names(config["web"]["hosts"]) + tuple(local_names(local_name)))
    app = create_app(session, web,
                     box=HardwareBox(session, config, sensors))
    ctx = app.extensions[EXTENSION]
    link = Link([], say=lambda message: announcer.say(message, RESULT))
    attach(app, link)
    page: list[PageAnnouncer | None] = []  # the mDNS announcer, once the port is known

    def say(message: Message | RuleError) -> None:
        if isinstance(message, RuleError):
            message = Message(message.key, message.params)
        print(render(message, texts=catalog(lang, session.game, session.state)), flush=True)

    keyboard = KeyboardTable(ctx.simulator, say) if ctx.simulator else None
    for problem in config.problem_texts(lang):
        print(problem, file=sys.stderr, flush=True)
    service = ServiceNotifier()

    def found_local(url: str) -> None:
        link.local = url
        say(Message("run.local", {"url": url}))

    def ready(host: str, port: int) -> None:
        addresses = lan_addresses()
        link.urls = page_urls(args.host, port, addresses)
        for url in link.urls:
            say(Message("run.url", {"url": url}))
        print_qr(link.urls[0])
        if args.host in WILDCARDS:
            name = config["table"]["name"] or DEFAULT_NAME
            page.append(announce_in_background(name, port, addresses, found_local,
                                               local_name))
        local = "127.0.0.1" if args.host in WILDCARDS else host
        service.ready(link.urls[0], lambda: page_answers(f"http://{local}:{port}/api/state"))
        if session.record is not None and session.record.status == "playing":
            say(Message("run.resumed", {"id": session.record.id, "version": session.version}))
        code = ctx.setup.current()
        if code is not None:  # presence at the table is the proof: print it and say it
            say(Message("run.pin_setup", {"code": code}))
            announcer.say(Message("run.pin_setup_spoken", {"code": " ".join(code)}))
        if keyboard is not None and keyboard.start():
            say(Message("run.keys"))

    limits = ConnectionLimits(total=config["web"]["connections"],
                              request_timeout=config["web"]["request_timeout"])
    try:
        serve(app, args.host, args.port, args.threads, ready, limits)
    finally:
        service.stopping()
        for mdns in filter(None, page):
            mdns.close()
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
