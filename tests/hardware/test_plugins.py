"""Source plugins (``companion.sources`` entry points) inside one process: their settings come
from their own config table, and a plugin that fails (not installed, refusing its settings,
raising in ``start`` or in its thread, or reporting a problem) is reported on the host page's
status and in ``companion doctor`` while the others keep working."""

import threading

import hwtools
from hwtools import started_game, wait_until

from companion import config as settings
from companion.engine import Session
from hardware import build, doctor, sources
from hardware.inputs import Press
from hardware.status import Status

assert hwtools  # the repository first on sys.path


class Clicker:
    """A working plugin: presses ``next`` when the test calls :meth:`click`."""

    made: list["Clicker"] = []

    def __init__(self, settings, context) -> None:
        self.settings, self.context, self.emit = settings, context, None
        Clicker.made.append(self)

    def start(self, emit) -> None:
        self.emit = emit

    def click(self) -> None:
        self.emit(Press(self.settings.get("role", "next"), "clicker"))

    def stop(self) -> None:
        self.emit = None


def picky(settings, context):
    raise ValueError(f"speed = {settings.get('speed')!r} is not a number")


class Raises(Clicker):
    def start(self, emit) -> None:
        raise OSError("no such device /dev/hidraw9")


class DiesInThread(Clicker):
    def start(self, emit) -> None:
        def run():
            raise RuntimeError("the load cell sent garbage")
        threading.Thread(target=run, daemon=True).start()


class Complains(Clicker):
    def status(self):
        return "battery low (5%)"


PLUGINS = {name: sources.EntryPoint(name, f"{__name__}:{attr}", sources.GROUP)
           for name, attr in [("clicker", "Clicker"), ("picky", "picky"), ("raises", "Raises"),
                              ("dies", "DiesInThread"), ("complains", "Complains")]}


def load(tmp_path, text: str) -> settings.Config:
    path = tmp_path / "config.toml"
    path.write_text(text, encoding="utf-8")
    return settings.load([path])


def running(tmp_path, cfg: settings.Config) -> tuple[Session, Status, build.Table]:
    """A Last Bastion game waiting for the effect of a card with none printed (a "next" press
    confirms it), and a table running the config's plugins."""
    session = started_game(tmp_path / "data")
    session.submit({"type": "card", "id": "incube"})
    session.submit({"type": "place", "slot": "red.1"})
    Clicker.made.clear()
    table, status = plugin_table(session, cfg, PLUGINS)
    return session, status, table


def plugin_table(session: Session, cfg: settings.Config, plugins: dict,
                 ) -> tuple[build.Table, Status]:
    """A table running the plugins (entry points ``plugins``) the config names."""
    status = Status(session.data_dir)
    table = build.Table(session, status=status)
    for plugin in sources.plugin_sources(cfg, status, session.expects, session.data_dir, plugins):
        table.add(plugin)
    return table, status


def test_a_plugin_gets_its_own_table_and_the_session_it_drives(tmp_path):
    cfg = load(tmp_path, "[sources.clicker]\nrole = \"next\"\nspeed = 2\n")
    assert cfg.problems == [] and cfg["sources"] == {"clicker": {"role": "next", "speed": 2}}
    assert 'clicker = {"role" = "next", "speed" = 2}' in "\n".join(cfg.describe())
    session, status, table = running(tmp_path, cfg)
    try:
        [clicker] = Clicker.made
        assert clicker.settings == {"role": "next", "speed": 2}
        assert clicker.context.name == "clicker" and clicker.context.data_dir == session.data_dir
        assert clicker.context.expects().kind == "choice"
        clicker.click()   # the card has no printed effect: "next" confirms it
        assert hwtools.journal_types(session)[-1] == ("answer", "button")
        assert status.problems == {}
    finally:
        table.stop()
    assert clicker.emit is None  # stopped with the table
    session.close()


def test_a_table_that_is_not_a_table_is_refused_with_its_line(tmp_path):
    cfg = load(tmp_path, "[general]\nlanguage = \"fr\"\n[sources]\nclicker = 3\n")
    assert cfg["sources"] == {}
    assert cfg.problem_texts("en") == [
        f"{tmp_path / 'config.toml'}:4: sources.clicker = 3 must be a table [sources.clicker] "
        "of its own; it is ignored"]
    assert "doit être une table [sources.clicker] à part" in cfg.problem_texts("fr")[0]


def test_failing_plugins_are_reported_and_the_others_run(tmp_path):
    cfg = load(tmp_path, "[sources.clicker]\n[sources.picky]\nspeed = \"fast\"\n[sources.raises]\n"
                         "[sources.dies]\n[sources.complains]\n[sources.nonesuch]\n")
    session, status, table = running(tmp_path, cfg)
    try:
        assert wait_until(lambda: len(status.problems) == 5)
        english = status.snapshot("en")["problems"]
        assert english == {
            "source picky": "the plugin picky could not be loaded with the settings of "
                            "[sources.picky] (ValueError: speed = 'fast' is not a number)",
            "source raises": "the plugin raises failed to start (OSError: no such device "
                             "/dev/hidraw9)",
            "source dies": "the plugin dies stopped with an error (RuntimeError: the load cell "
                           "sent garbage)",
            "source complains": "reports: battery low (5%)",
            "source nonesuch": "no installed source plugin is called nonesuch (installed: "
                               "clicker, complains, dies, picky, raises): pip install its "
                               "package, or remove [sources.nonesuch] from the config"}
        french = status.snapshot("fr")["problems"]
        assert french["source dies"] == ("le greffon dies s'est arrêté sur une erreur "
                                         "(RuntimeError: the load cell sent garbage)")
        clicker = next(c for c in Clicker.made if type(c) is Clicker)
        clicker.click()                                   # the working one still drives the game
        assert hwtools.journal_types(session)[-1] == ("answer", "button")

        check = next(c for c in doctor.run(cfg, session.data_dir, live=status)
                     if c.name == "sources")
        assert check.ok is False and "check the plugin's [sources.NAME] table" in check.fix
        assert check.detail.startswith("clicker: working, picky: the plugin picky could not")
        assert "dies: the plugin dies stopped with an error" in check.detail
        assert check.text("fr")["name"] == "greffons de source"
    finally:
        table.stop()
    session.close()


def test_a_plugin_that_recovers_is_reported_back(tmp_path, monkeypatch):
    monkeypatch.setattr(sources, "POLL_SECONDS", 0.02)
    cfg = load(tmp_path, "[sources.complains]\n")
    status = Status(tmp_path)
    [plugin] = sources.plugin_sources(cfg, status, lambda: None, tmp_path, PLUGINS)
    plugin.start(lambda record: None)
    try:
        assert "source complains" in status.problems
        plugin.source.status = lambda: None            # the battery was changed
        assert wait_until(lambda: status.problems == {})
        assert [e["problem"] is None for e in status.snapshot()["events"]] == [False, True]
    finally:
        plugin.stop()


def test_doctor_without_a_running_companion_builds_and_asks_each_plugin(tmp_path, monkeypatch):
    monkeypatch.setattr(sources, "installed", lambda: PLUGINS)
    cfg = load(tmp_path, "[sources.clicker]\n[sources.complains]\n[sources.picky]\n")
    check = doctor.check_sources(cfg, tmp_path)
    assert check.ok is False
    assert check.detail == ("clicker: working, complains: reports: battery low (5%), picky: the "
                            "plugin picky could not be loaded with the settings of [sources.picky]"
                            " (ValueError: speed = None is not a number)")
    none = doctor.check_sources(load(tmp_path, ""), tmp_path)
    assert none.ok is None and none.detail == ("none configured ([sources.NAME] tables); "
                                               "installed: clicker, complains, dies, picky, raises")


def test_simulate_starts_the_plugins_a_config_names_and_only_them(tmp_path, monkeypatch):
    monkeypatch.setattr(sources, "installed", lambda: PLUGINS)
    session = Session(tmp_path / "data")
    assert build.start(session, load(tmp_path, ""), simulate=True) is None
    Clicker.made.clear()
    table = build.start(session, load(tmp_path, "[sources.clicker]\n"), simulate=True)
    try:
        assert table is not None and [type(c) for c in Clicker.made] == [Clicker]
        assert "source clicker" in table.status.held
    finally:
        table.stop()
    session.close()
