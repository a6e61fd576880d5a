"""Rebuild the default examples of the learned profiles from synthetic renders.

    .venv/bin/python -m companion.dicehandoff defaults

For each learned profile known (vision's own and those the games declared, handed in by the
app layer: ``companion.dicehandoff``, which runs this), renders frames showing one face at a
time (seeded, so the output is reproducible) and writes the feature vectors into the file the
profile came from (a game's ``dice.json``), with the version of the face description that made them
(``vision.features.version``: rebuild them whenever the face embedder is retrained). Owners
replace them with ``companion dice teach`` using their own dice, camera and light.
"""

from __future__ import annotations

import json
from importlib import resources
from pathlib import Path

import numpy as np

from .features import version
from .profile import forget_loaded, profile_data, profile_source, use_profiles
from .synth import render, synth_profiles
from .teach import face_vectors

EXAMPLES_PER_FACE = 48


def rebuild(seed: int = 7) -> list[str]:
    """Rewrite the ``examples`` of every learned profile that can be drawn, in its file;
    returns the profiles updated."""
    rng = np.random.default_rng(seed)
    updated = []
    for name in sorted(synth_profiles()):
        data = profile_data(name)
        examples = {}
        for face in data["faces"]:
            frames = (render(name, rng, faces=[face] * 4)[0] for _ in range(12))
            vectors = face_vectors(frames)[:EXAMPLES_PER_FACE]
            examples[face] = [[round(v, 3) for v in vec] for vec in vectors]
        _write(name, {**data, "features": version(), "examples": examples})
        updated.append(name)
    forget_loaded()
    return updated


def _write(name: str, data: dict) -> None:
    """Replace profile ``name`` in its file: a game's list of ``profiles``, or one of vision's
    own files; a profile handed in is handed in again, rebuilt."""
    source = profile_source(name)
    if source is None:
        for entry in resources.files("vision.profiles").iterdir():
            if entry.name.endswith(".json") and json.loads(entry.read_text())["name"] == name:
                with resources.as_file(entry) as path:
                    path.write_text(json.dumps(data, indent=1) + "\n")
        return
    held = json.loads(Path(source).read_text())
    held["profiles"] = [data if p["name"] == name else p for p in held["profiles"]]
    Path(source).write_text(json.dumps(held, indent=1) + "\n")
    use_profiles([data], source)
