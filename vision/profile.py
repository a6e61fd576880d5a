"""Die profiles: which faces a die has and how to read them, plus what the owner taught.

A profile is data: the plain pip die (``d6``) is a JSON file in ``vision/profiles/``; every other
die is declared by the game that rolls it (its folder's ``dice.json``) and handed to vision by the
app layer (:func:`use_profiles`): vision names no game. Pip profiles are read by counting pips.
Learned profiles are read by comparing a face with examples: the defaults in the profile's data
(built from synthetic renders of its ``look``: ``python -m companion.dicehandoff defaults``) and
the examples the owner taught with their own camera, stored in
``<data dir>/vision/<profile>.json``; taught faces replace the defaults of that face.
"""

from __future__ import annotations

import json
import os
import shutil
import tempfile
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from functools import cache, cached_property
from importlib import resources
from pathlib import Path
from urllib.parse import quote

from .classify import FaceClassifier
from .features import version
from .say import VisionError

PIPS = "pips"
LEARNED = "learned"


class ProfileError(VisionError):
    """Unknown profile, bad face name or unusable taught data; the message says which."""


@dataclass(frozen=True)
class Profile:
    """A die profile.

    ``threshold`` is the confidence below which a die is marked uncertain. ``open_faces`` means
    the owner names the faces when teaching (the shipped ids are only placeholders).
    ``examples`` maps each face of a learned profile to feature vectors (see ``vision.features``).
    """

    name: str
    kind: str
    faces: tuple[str, ...]
    description: str = ""
    threshold: float = 0.5
    open_faces: bool = False
    examples: dict[str, list[list[float]]] = field(default_factory=dict)

    @cached_property
    def classifier(self) -> FaceClassifier:
        """The nearest-neighbour classifier over ``examples``, built once per loaded profile
        (learning its metric costs more than reading a frame)."""
        return FaceClassifier(self.examples)


@cache
def _shipped() -> dict[str, dict]:
    """The profile files of vision itself, parsed once per process (``vision.defaults`` clears
    this)."""
    found = {}
    for entry in resources.files("vision.profiles").iterdir():
        if entry.name.endswith(".json"):
            data = json.loads(entry.read_text())
            found[data["name"]] = data
    return found


_GIVEN: dict[str, tuple[dict, Path | None]] = {}  # profiles handed in, with their file


def use_profiles(profiles: Iterable[Mapping], source: Path | None = None) -> list[str]:
    """Make ``profiles`` known (each a profile's data: ``name``, ``kind``, ``faces``...): the
    dice a game declares, handed in by the app layer. ``source`` is the file they came from
    (``vision.defaults`` rewrites their defaults there). Handing the same profile again replaces
    it; returns the names. :class:`ProfileError`, with nothing changed, for data that is not a
    profile or one that would replace one of vision's own."""
    checked = []
    for data in profiles:
        name = data.get("name") if isinstance(data, Mapping) else None
        if not (isinstance(name, str) and name and data.get("kind") in (PIPS, LEARNED)
                and isinstance(data.get("faces"), list) and data["faces"]):
            raise ProfileError("profile.bad_data", source=str(source or "-"), name=repr(name))
        if name in _shipped():
            raise ProfileError("profile.taken", source=str(source or "-"), name=repr(name))
        checked.append(dict(data))
    for data in checked:
        _GIVEN[data["name"]] = (data, source)
        for key in [k for k in _LOADED if k[0] == data["name"]]:
            del _LOADED[key]
    return [data["name"] for data in checked]


def profile_source(name: str) -> Path | None:
    """The file profile ``name`` was handed in from (None: one of vision's own, or none)."""
    return _GIVEN[name][1] if name in _GIVEN else None


def profile_data(name: str) -> dict:
    """The data of profile ``name`` as declared (its ``look`` included); :class:`ProfileError`
    naming the known ones."""
    return _known(name)


def list_profiles() -> list[str]:
    """Names of the known profiles (vision's own and those handed in), sorted."""
    return sorted({*_shipped(), *_GIVEN})


def taught_path(name: str, data_dir: Path) -> Path:
    """Where the examples taught for profile ``name`` are stored."""
    return Path(data_dir) / "vision" / (name.replace("/", "__") + ".json")


def pictures_folder(name: str, data_dir: Path, face: str | None = None) -> Path:
    """Where pictures of the dice taught for profile ``name`` (of its ``face`` if given) are
    kept beside the taught file, so that forgetting a face forgets its pictures too, whoever
    forgets it (the command line or the host page). A face's folder name is quoted: no face id
    names a path outside it."""
    path = taught_path(name, data_dir)
    folder = path.parent / "examples" / path.stem
    return folder if face is None else folder / ("face-" + quote(face, safe=""))


# Loaded profiles by (name, taught file): the file's identity when loaded, and the profile.
_LOADED: dict[tuple[str, Path | None], tuple[tuple[int, int, int] | None, Profile]] = {}


def load_profile(name: str, data_dir: Path | None = None) -> Profile:
    """Profile ``name`` with the faces taught in ``data_dir`` (if given) merged in.

    Parsed once and kept (with its classifier, whose metric costs more than reading a frame)
    until the taught file changes: reading a frame never re-parses JSON.
    """
    path = taught_path(name, data_dir) if data_dir is not None else None
    stamp = _stamp(path)
    kept = _LOADED.get((name, path))
    if kept is not None and kept[0] == stamp:
        return kept[1]
    profile = _load(name, data_dir)
    _LOADED[(name, path)] = (stamp, profile)
    return profile


def forget_loaded() -> None:
    """Drop every parsed profile: the next load reads the files again (after
    ``vision.defaults`` rewrote the shipped ones)."""
    _shipped.cache_clear()
    _LOADED.clear()


def _stamp(path: Path | None) -> tuple[int, int, int] | None:
    """What tells a rewritten taught file from the one loaded before (``None``: no file)."""
    try:
        st = path.stat() if path is not None else None
    except OSError:
        return None
    return None if st is None else (st.st_mtime_ns, st.st_size, st.st_ino)


def _known(name: str) -> dict:
    """The declared data of profile ``name``; :class:`ProfileError` naming the known ones."""
    shipped = _shipped()
    if name in shipped:
        return shipped[name]
    if name not in _GIVEN:
        raise ProfileError("profile.unknown", name=repr(name), known=", ".join(list_profiles()))
    return _GIVEN[name][0]


def _load(name: str, data_dir: Path | None) -> Profile:
    data = _known(name)
    examples = {face: list(v) for face, v in data.get("examples", {}).items()}
    faces = list(data["faces"])
    taught = _taught(name, data_dir) if data_dir is not None else {}
    if taught and data.get("open_faces"):
        faces, examples = list(taught), {}
    examples.update(taught)
    faces += [f for f in taught if f not in faces]
    return Profile(
        name=name,
        kind=data["kind"],
        faces=tuple(faces),
        description=data.get("description", ""),
        threshold=float(data.get("threshold", 0.5)),
        open_faces=bool(data.get("open_faces", False)),
        examples=examples,
    )


def _taught(name: str, data_dir: Path, current: bool = True) -> dict[str, list[list[float]]]:
    """The examples taught for ``name`` (none: empty). Unless ``current`` is false (forgetting
    them all), examples described by another version of the face description (``features`` in
    the file, see :func:`vision.features.version`; files of the first versions have none) are
    refused: their numbers no longer mean what today's do."""
    path = taught_path(name, data_dir)
    if not path.exists():
        return {}
    try:
        data = json.loads(path.read_text())
        taught = {str(face): list(vectors) for face, vectors in dict(data["examples"]).items()}
    except (ValueError, KeyError, TypeError) as exc:
        raise ProfileError("profile.unreadable", path=path, detail=exc) from None
    if current and data.get("features") != version():
        raise ProfileError("profile.outdated", path=path, name=name)
    return taught


def save_taught(profile: Profile, examples: dict[str, list[list[float]]], data_dir: Path) -> Path:
    """Add the owner's examples of one or more faces (face: vectors) in one write, so that a
    crash leaves all of them taught or none; returns the file, on disk when this returns.
    Raises :class:`ProfileError`, with nothing written, for a pip profile or a face it does not
    have (unless the profile lets the owner name its faces)."""
    if profile.kind != LEARNED:
        raise ProfileError("profile.pips", name=repr(profile.name))
    for face in examples:
        if face not in profile.faces and not profile.open_faces:
            raise ProfileError("profile.no_face", name=repr(profile.name), face=repr(face),
                               faces=", ".join(profile.faces))
    taught = _taught(profile.name, data_dir)
    for face, vectors in examples.items():
        taught.setdefault(face, []).extend([round(float(v), 4) for v in vec] for vec in vectors)
    return _write_taught(profile.name, taught, data_dir)


def taught_faces(name: str, data_dir: Path) -> dict[str, int]:
    """How many examples the owner taught for each face of profile ``name`` (none: empty)."""
    _known(name)  # an unknown profile is an error, not an empty list
    return {face: len(vectors) for face, vectors in _taught(name, data_dir).items()}


def forget_taught(name: str, data_dir: Path, face: str | None = None) -> int:
    """Forget what the owner taught for ``face`` of profile ``name`` (every face when ``None``:
    the profile is back to its shipped defaults); returns how many examples were dropped.

    Raises :class:`ProfileError` for a face that was never taught. Forgetting every face works
    on faces taught by an older version too, and on a damaged file (the way out of "teach them
    again" and of "unreadable": nothing in it can be counted, so 0 are said dropped).
    """
    _known(name)
    if face is None:
        try:
            dropped = sum(len(v) for v in _taught(name, data_dir, current=False).values())
        except ProfileError:
            dropped = 0
        taught = {}
    else:
        taught = _taught(name, data_dir)
        if face not in taught:
            raise ProfileError("profile.not_taught", name=repr(name), face=repr(face),
                               faces=", ".join(taught) or "-")
        dropped = len(taught.pop(face))
    path = taught_path(name, data_dir)
    if taught:
        _write_taught(name, taught, data_dir)
    elif path.exists():
        path.unlink()
        _sync(path.parent)
    shutil.rmtree(pictures_folder(name, data_dir, face), ignore_errors=True)
    return dropped


def _write_taught(name: str, taught: dict[str, list[list[float]]], data_dir: Path) -> Path:
    """Replace the taught file of ``name`` in one step (a crash leaves the old or the new), on
    disk when this returns: the owner is told "learned" only once it is."""
    path = taught_path(name, data_dir)
    path.parent.mkdir(parents=True, exist_ok=True)
    write_atomic(path, json.dumps({"profile": name, "features": version(), "examples": taught},
                                  indent=1))
    return path


def write_atomic(path: Path, text: str | bytes) -> None:
    """Replace ``path`` with ``text`` (or bytes: a taught card's picture) in one step (a crash
    leaves the old or the new), on disk with its folder when this returns: what the owner
    taught is acknowledged only then."""
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.stem}-", suffix=".tmp")
    try:
        with os.fdopen(fd, "wb") as out:
            out.write(text.encode("utf-8") if isinstance(text, str) else text)
            out.flush()
            os.fsync(out.fileno())
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise
    _sync(path.parent)


def _sync(folder: Path) -> None:
    """Flush a rename or removal in ``folder`` to disk."""
    fd = os.open(folder, os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)
