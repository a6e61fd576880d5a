"""Rebuild the default examples shipped in the learned profiles from synthetic renders.

    .venv/bin/python -m vision.defaults

For each learned profile, renders frames showing one face at a time (seeded, so the output is
reproducible) and writes the feature vectors into ``vision/profiles/<file>.json``, with the version
of the face description that made them (``vision.features.version``: rebuild them whenever the
face embedder is retrained). Owners replace them with ``companion dice teach`` using their own
dice, camera and light.
"""

from __future__ import annotations

import json
from importlib import resources

import numpy as np

from .features import version
from .profile import forget_loaded
from .synth import render
from .teach import face_vectors

EXAMPLES_PER_FACE = 48


def rebuild(seed: int = 7) -> list[str]:
    """Rewrite the ``examples`` of every learned profile file; returns the profiles updated."""
    rng = np.random.default_rng(seed)
    updated = []
    for entry in sorted(resources.files("vision.profiles").iterdir(), key=lambda e: e.name):
        if not entry.name.endswith(".json"):
            continue
        data = json.loads(entry.read_text())
        if data["kind"] != "learned":
            continue
        examples = {}
        for face in data["faces"]:
            frames = (render(data["name"], rng, faces=[face] * 4)[0] for _ in range(12))
            vectors = face_vectors(frames)[:EXAMPLES_PER_FACE]
            examples[face] = [[round(v, 3) for v in vec] for vec in vectors]
        data["features"] = version()
        data["examples"] = examples
        with resources.as_file(entry) as path:
            path.write_text(json.dumps(data, indent=1) + "\n")
        updated.append(data["name"])
    forget_loaded()
    return updated


if __name__ == "__main__":
    for name in rebuild():
        print("rebuilt", name)
