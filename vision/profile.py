"""Die profiles: which faces a die has and how to read them, plus what the owner taught.

A profile is a JSON file in ``vision/profiles/``. Pip profiles are read by counting pips. Learned
profiles are read by comparing a face with examples: the shipped defaults (built from synthetic
renders by ``python -m vision.defaults``) and the examples the owner taught with their own camera,
stored in ``<data dir>/vision/<profile>.json``; taught faces replace the defaults of that face.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from functools import cached_property
from importlib import resources
from pathlib import Path

from .classify import FaceClassifier
from .features import FEATURES
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


def _shipped() -> dict[str, dict]:
    found = {}
    for entry in resources.files("vision.profiles").iterdir():
        if entry.name.endswith(".json"):
            data = json.loads(entry.read_text())
            found[data["name"]] = data
    return found


def list_profiles() -> list[str]:
    """Names of the shipped profiles, sorted."""
    return sorted(_shipped())


def taught_path(name: str, data_dir: Path) -> Path:
    """Where the examples taught for profile ``name`` are stored."""
    return Path(data_dir) / "vision" / (name.replace("/", "__") + ".json")


def load_profile(name: str, data_dir: Path | None = None) -> Profile:
    """Load profile ``name`` with the faces taught in ``data_dir`` (if given) merged in."""
    shipped = _shipped()
    if name not in shipped:
        raise ProfileError("profile.unknown", name=repr(name), known=", ".join(sorted(shipped)))
    data = shipped[name]
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


def _taught(name: str, data_dir: Path) -> dict[str, list[list[float]]]:
    path = taught_path(name, data_dir)
    if not path.exists():
        return {}
    try:
        taught = dict(json.loads(path.read_text())["examples"])
    except (ValueError, KeyError, TypeError) as exc:
        raise ProfileError("profile.unreadable", path=path, detail=exc) from None
    if any(len(v) != FEATURES for vectors in taught.values() for v in vectors):
        raise ProfileError("profile.outdated", path=path)
    return taught


def save_taught(profile: Profile, face: str, vectors: list[list[float]], data_dir: Path) -> Path:
    """Add ``vectors`` as examples of ``face`` to the owner's taught data; returns the file.

    The face must belong to the profile, unless the profile lets the owner name its faces.
    """
    if profile.kind != LEARNED:
        raise ProfileError("profile.pips", name=repr(profile.name))
    if face not in profile.faces and not profile.open_faces:
        raise ProfileError("profile.no_face", name=repr(profile.name), face=repr(face),
                           faces=", ".join(profile.faces))
    taught = _taught(profile.name, data_dir)
    taught.setdefault(face, []).extend([round(float(v), 4) for v in vec] for vec in vectors)
    path = taught_path(profile.name, data_dir)
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_suffix(".tmp")
    tmp.write_text(json.dumps({"profile": profile.name, "examples": taught}, indent=1))
    tmp.replace(path)
    return path
