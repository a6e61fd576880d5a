"""Input source plugins: sensors that come in a package of their own.

A package declares a source in the entry-point group ``companion.sources``::

    [project.entry-points."companion.sources"]
    foot-pedal = "foot_pedal:FootPedal"

The object named is called as ``factory(settings, context)``: ``settings`` is the source's own
config table (``[sources.foot-pedal]``, a dict, checked by the plugin), ``context`` a
:class:`SourceContext`. It returns a source with the interface of the built-in ones
(:class:`hardware.inputs.Source`): ``start(emit)`` and ``stop()``, and optionally
``status() -> str | None`` (what is wrong now in the plugin's own words, None when it works;
it must also answer before ``start``, for ``companion doctor``).

A source runs when the config has its table, even empty: installing a package never starts a
device by itself. Failures are isolated: a plugin that cannot be loaded or built, that raises in
``start`` or in a thread it started, or whose ``status()`` names a problem, is reported once on
the host page and in ``companion doctor`` (a :class:`~hardware.status.Status` problem of the
device ``source <name>``) and the rest of the companion runs on.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from importlib.metadata import EntryPoint, entry_points
from pathlib import Path
from typing import Any

from companion.config import Config
from companion.engine import Expectation, Message

from .inputs import Emit, Source, Worker
from .status import Status

log = logging.getLogger(__name__)

GROUP = "companion.sources"
#: How often a running plugin's ``status()`` is asked, in seconds.
POLL_SECONDS = 2.0


@dataclass(frozen=True)
class SourceContext:
    """What a plugin may need besides its settings: its ``name``, the session's ``expects``
    (what the game waits for now: a dice source reads the profile and count there) and the
    companion's ``data_dir`` (for files of its own)."""

    name: str
    expects: Callable[[], Expectation]
    data_dir: Path


def installed() -> dict[str, EntryPoint]:
    """The source plugins installed in this environment, by name."""
    return {ep.name: ep for ep in entry_points(group=GROUP)}


def configured(config: Config) -> dict[str, dict[str, Any]]:
    """The ``[sources.<name>]`` tables of the config, by name."""
    return dict(config["sources"])


def device(name: str) -> str:
    """The status id of a plugin source (shown as it is on the host page and in doctor)."""
    return f"source {name}"


def failure(exc: BaseException) -> str:
    """An exception as a plugin failure's detail: its type and message."""
    return f"{type(exc).__name__}: {exc}"


def build(name: str, settings: Mapping[str, Any], context: SourceContext,
          plugins: Mapping[str, EntryPoint] | None = None) -> Source:
    """Load the plugin ``name`` and build its source; raises LookupError when it is not
    installed and whatever the plugin raises (a bad setting) otherwise."""
    plugins = installed() if plugins is None else plugins
    if name not in plugins:
        raise LookupError(name)
    return plugins[name].load()(dict(settings), context)


def own_status(source: Any) -> str | None:
    """What a source says is wrong with it (its optional ``status()``), None when it works."""
    report = getattr(source, "status", None)
    return report() if callable(report) else None


class PluginSource(Worker):
    """One configured plugin, built, started and watched with every failure caught.

    The threads that ``start`` launches are watched: an exception that ends one is reported as
    the plugin's problem instead of only reaching stderr.
    """

    def __init__(self, name: str, settings: Mapping[str, Any], context: SourceContext,
                 status: Status, plugins: Mapping[str, EntryPoint] | None = None) -> None:
        super().__init__()
        self.name, self.settings, self.context = name, settings, context
        self.status, self.plugins = status, plugins
        self.device = device(name)
        self.source: Source | None = None
        self.dead = False  # a thread of it ended with an exception
        self.before: set[threading.Thread] = set()

    def start(self, emit: Emit) -> None:
        """Build and start the plugin; a failure is reported and leaves it off."""
        self.status.held.add(self.device)
        try:
            self.source = build(self.name, self.settings, self.context, self.plugins)
        except LookupError:
            self.status.problem(self.device, missing(self.name, self.plugins))
            return
        except Exception as exc:  # noqa: BLE001 - any plugin bug must leave the rest running
            self._fail("problem.plugin_build", exc)
            return
        _install_hook()
        with _WATCH_LOCK:
            global _starting
            self.before, _starting = set(threading.enumerate()), self
            try:
                self.source.start(emit)
            except Exception as exc:  # noqa: BLE001
                self._fail("problem.plugin_start", exc)
                self.source = None
                return
            finally:
                _starting = None
                for thread in set(threading.enumerate()) - self.before:
                    _WATCHED[thread] = self
        self.check()
        self._launch(self._poll, name=f"watch {self.device}")

    def check(self) -> None:
        """Ask the running plugin how it is, and report a change."""
        if self.source is None or self.dead:
            return
        try:
            said = own_status(self.source)
        except Exception as exc:  # noqa: BLE001
            said = failure(exc)
        if said:
            self.status.problem(self.device, Message("problem.plugin_status", {"detail": said}))
        elif self.device in self.status.problems:
            self.status.resolved(self.device)

    def crashed(self, exc: BaseException | None) -> None:
        """A thread of the plugin ended with ``exc``: report it (for good: it is not asked
        how it is any more, as it may not know)."""
        self.dead = True
        self._fail("problem.plugin_crashed", exc)

    def stop(self) -> None:
        """Stop the plugin (a failure to stop is logged) and stop watching it."""
        super().stop()
        source, self.source = self.source, None
        with _WATCH_LOCK:
            for thread in [t for t, p in _WATCHED.items() if p is self]:
                del _WATCHED[thread]
        if source is not None:
            try:
                source.stop()
            except Exception:  # noqa: BLE001
                log.exception("%s: stop failed", self.device)

    def _poll(self) -> None:
        while not self._stop.wait(POLL_SECONDS):
            self.check()

    def _fail(self, key: str, exc: BaseException | None) -> None:
        detail = failure(exc) if exc is not None else "?"
        self.status.problem(self.device, Message(key, {"source": self.name, "detail": detail}))


def missing(name: str, plugins: Mapping[str, EntryPoint] | None = None) -> Message:
    """The problem of a ``[sources.<name>]`` table that names no installed plugin."""
    names = ", ".join(sorted(installed() if plugins is None else plugins))
    return Message("problem.plugin_missing", {"source": name, "installed": names or "-"})


def probe(name: str, settings: Mapping[str, Any], data_dir: Path,
          plugins: Mapping[str, EntryPoint] | None = None) -> Message | None:
    """What is wrong with a plugin that no companion runs (``companion doctor``): it is built
    from its settings, without starting, and asked how it is; None when it is fine."""
    context = SourceContext(name, lambda: Expectation("nothing", ()), data_dir)
    try:
        said = own_status(build(name, settings, context, plugins))
    except LookupError:
        return missing(name, plugins)
    except Exception as exc:  # noqa: BLE001 - a plugin bug is the finding
        return Message("problem.plugin_build", {"source": name, "detail": failure(exc)})
    return Message("problem.plugin_status", {"detail": said}) if said else None


def plugin_sources(config: Config, status: Status, expects: Callable[[], Expectation],
                   data_dir: Path, plugins: Mapping[str, EntryPoint] | None = None,
                   ) -> list[PluginSource]:
    """A :class:`PluginSource` for every ``[sources.<name>]`` table of the config (not started)."""
    return [PluginSource(name, settings, SourceContext(name, expects, data_dir), status, plugins)
            for name, settings in configured(config).items()]


# -- the threads of plugins ----------------------------------------------------------------------

_WATCH_LOCK = threading.RLock()
_WATCHED: dict[threading.Thread, PluginSource] = {}
_starting: PluginSource | None = None
_previous_hook: Callable[[threading.ExceptHookArgs], Any] | None = None


def _install_hook() -> None:
    """Chain :func:`_excepthook` in front of ``threading.excepthook`` (once)."""
    global _previous_hook
    with _WATCH_LOCK:
        if _previous_hook is None:
            _previous_hook, threading.excepthook = threading.excepthook, _excepthook


def _excepthook(args: threading.ExceptHookArgs) -> None:
    """Report an exception that ends a plugin's thread as the plugin's problem."""
    starting = _starting
    plugin = _WATCHED.get(args.thread) if args.thread is not None else None
    if plugin is None and starting is not None and args.thread not in starting.before:
        plugin = starting  # it ended before start() returned
    if plugin is None:
        if _previous_hook is not None:
            _previous_hook(args)
        return
    log.error("%s: its thread %s failed", plugin.device, getattr(args.thread, "name", "?"),
              exc_info=(args.exc_type, args.exc_value, args.exc_traceback))
    plugin.crashed(args.exc_value)
