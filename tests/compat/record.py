"""Add recorded games to the compatibility corpus (docs/events.md, «Event formats»).

    python tests/compat/record.py FORMAT FILE... [--pythonpath DIRS]

Each FILE is replayed by ``companion replay FILE --json`` of the code on ``--pythonpath`` (a
checkout of the version that wrote that event format; this checkout by default) into a fresh
data directory, and kept in ``tests/compat/format-FORMAT/``: the file as it was, the final view
that version printed (``<name>.view.json``) and the data directory it left (``<name>/``: its
journal, its head and definitions). ``test_corpus.py`` replays them all with today's code.
"""

from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
from pathlib import Path

CORPUS = Path(__file__).resolve().parent
KEPT_ELSEWHERE = ("backups", "companion.lock")
"""What a replay leaves in its data directory that the corpus does not keep."""


def record(version: int, source: Path, pythonpath: str) -> Path:
    """Replay ``source`` with the code on ``pythonpath``; keep it, its view and its data
    directory in the corpus of event format ``version``; the folder it went to."""
    folder = CORPUS / f"format-{version}"
    folder.mkdir(exist_ok=True)
    name = source.stem
    data = folder / name
    if data.exists():
        raise SystemExit(f"{data} exists: the corpus keeps what it holds")
    shutil.copyfile(source, folder / source.name)
    env = {**os.environ, "PYTHONPATH": pythonpath, "COMPANION_CONFIG": os.devnull}
    # run outside any checkout: ``-m`` puts the working directory before PYTHONPATH
    done = subprocess.run([sys.executable, "-m", "companion", "replay", str(source), "--json",
                           "--lang", "en", "--data-dir", str(data)],
                          env=env, cwd=folder, capture_output=True, text=True, check=False)
    if done.returncode != 0:
        raise SystemExit(f"{source}: the replay failed ({done.returncode}): {done.stderr}")
    (folder / f"{name}.view.json").write_text(done.stdout, encoding="utf-8")
    for made in KEPT_ELSEWHERE:  # copies of the journal, and the writer's lock
        path = data / made
        shutil.rmtree(path) if path.is_dir() else path.unlink(missing_ok=True)
    return folder


def main() -> None:
    """The command line."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("format", type=int, help="the event format these files were written in")
    parser.add_argument("files", nargs="+", type=Path)
    parser.add_argument("--pythonpath", default=str(CORPUS.parents[1]),
                        help="the code that replays them (default: this checkout)")
    args = parser.parse_args()
    for source in args.files:
        print(record(args.format, source.resolve(), args.pythonpath) / source.name)


if __name__ == "__main__":
    main()
