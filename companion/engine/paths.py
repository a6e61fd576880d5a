"""The data directory: found once, by one rule, and every file in it named in one place.

Every command, the session, the sensors and the web page ask a :class:`DataPaths` for their
files, so a taught die face, a tag or a host login written by one command is the one the others
read. The directory is, in order of precedence: ``--data-dir``, ``$COMPANION_DATA_DIR``, the
config's ``[general] data_dir``, ``$XDG_DATA_HOME/companion``, ``~/.local/share/companion``
(``~`` is expanded wherever it appears).
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

ENV_DIR = "COMPANION_DATA_DIR"


def resolve_data_dir(given: Path | str | None = None, configured: str | None = None,
                     environ: Mapping[str, str] | None = None) -> Path:
    """The data directory by the precedence rule above (``given`` is ``--data-dir``,
    ``configured`` the config's value); not created."""
    environ = os.environ if environ is None else environ
    for candidate in (given, environ.get(ENV_DIR), configured):
        if candidate:
            return Path(os.path.expanduser(str(candidate)))
    base = environ.get("XDG_DATA_HOME") or os.path.join(environ.get("HOME", "~"), ".local",
                                                        "share")
    return Path(os.path.expanduser(base)) / "companion"


@dataclass(frozen=True)
class DataPaths:
    """The files of one data directory, each named once."""

    root: Path

    @classmethod
    def resolve(cls, given: Path | str | None = None, configured: str | None = None,
                environ: Mapping[str, str] | None = None) -> DataPaths:
        """The paths of the directory :func:`resolve_data_dir` finds."""
        return cls(resolve_data_dir(given, configured, environ))

    @property
    def journal(self) -> Path:
        """Every event of every game (SQLite): the only truth."""
        return self.root / "journal.sqlite3"

    def definitions(self, game_id: str) -> Path:
        """The owner's taught definitions of one game (derived from the journal's teachings)."""
        return self.definitions_folder / f"{game_id}.json"

    @property
    def definitions_folder(self) -> Path:
        """Where the taught definitions of every game are."""
        return self.root / "definitions"

    @property
    def journal_head(self) -> Path:
        """The newest event's number and checksum, to tell when the journal lost its tail
        (beside any journal file, with its suffix ``.head``: see :mod:`.chain`)."""
        return self.journal.with_suffix(".head")

    @property
    def lock(self) -> Path:
        """Says which process writes this directory (pid and command); the lock itself is
        on the directory (:mod:`.lock`)."""
        return self.root / "companion.lock"

    @property
    def backups(self) -> Path:
        """Copies of the journal: at each game end, on demand, before a restore."""
        return self.root / "backups"

    @property
    def tags(self) -> Path:
        """RFID tag → card map."""
        return self.root / "tags.json"

    @property
    def hardware_status(self) -> Path:
        """The sensors' last status and the last raw tag read (for ``doctor`` and the page)."""
        return self.root / "hardware-status.json"

    @property
    def host_pin(self) -> Path:
        """The host PIN's hash and what goes with it."""
        return self.root / "web" / "host-pin.json"

    @property
    def folders(self) -> tuple[Path, ...]:
        """The companion's own folders (taught definitions, backups, host files, taught dice
        and their pictures): the temporary-file sweep looks through them at every depth, and
        only at the top of the directory, which may hold other files, besides."""
        return (self.definitions_folder, self.backups, self.host_pin.parent,
                self.root / "vision")

    @property
    def host_sessions(self) -> Path:
        """The logged-in hosts, by the SHA-256 of their cookie (they survive a restart)."""
        return self.root / "web" / "host-sessions.json"
