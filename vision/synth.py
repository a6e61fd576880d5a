"""Synthetic dice renders of any profile that says how its dice look, deterministic by seed.

Each frame is a plain tray of a random colour with a light gradient, noise and blur; dice are
rotated rounded squares with a visible side band and a soft shadow, sometimes translucent, placed
so that they may touch each other or the frame edge. How a profile's dice look is its data (its
``look``: the body colour, or the colours a die's body may have, and per face the marks drawn and
their ink), from what is known of the real dice (../shared/research/components.md and data/);
the marks are a small drawing vocabulary (:data:`MARKS`: pips, an inset colour, a rune, simple
icons and symbols). The artwork is drawn by us, not copied from the dice: it tests the reader and
makes the profiles' defaults, which the owner's own photos (``teach``) then replace.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass, replace

import cv2
import numpy as np

from .evaluate import Truth
from .profile import LEARNED, ProfileError, list_profiles, profile_data

Colour = tuple[int, int, int]
SIZE = 640

COLOURS: dict[str, Colour] = {  # BGR
    "red": (40, 40, 200),
    "green": (60, 160, 40),
    "blue": (190, 80, 30),
    "yellow": (40, 210, 230),
    "black": (35, 35, 35),
    "white": (235, 235, 235),
    "violet": (170, 50, 130),
}
# Pip positions of faces 1-6, in units of the pip spacing.
LAYOUTS = {
    1: [(0, 0)],
    2: [(-1, -1), (1, 1)],
    3: [(-1, -1), (0, 0), (1, 1)],
    4: [(-1, -1), (1, -1), (-1, 1), (1, 1)],
    5: [(-1, -1), (1, -1), (0, 0), (-1, 1), (1, 1)],
    6: [(-1, -1), (1, -1), (-1, 0), (1, 0), (-1, 1), (1, 1)],
}
IVORY, STONE, INK = (205, 225, 235), (110, 110, 105), (25, 25, 25)
WHITE_BODY, BLACK_BODY = (228, 232, 234), (38, 36, 36)
PAINTS: dict[str, Colour] = {**COLOURS, "ivory": IVORY, "stone": STONE, "ink": INK,
                             "white-body": WHITE_BODY, "black-body": BLACK_BODY}
"""The colours a look may name: for a body, a face or its ink."""


@dataclass(frozen=True)
class DieLook:
    """How one face is drawn: the face colour, the side colour and a function drawing the marks."""

    top: Colour
    side: Colour
    marks: Callable[[np.ndarray, int, Colour], None]
    ink: Colour
    bodies: tuple[Colour, ...] = ()  # when given, each die's body (top and sides) is one of these


def _no_marks(canvas: np.ndarray, s: int, ink: Colour) -> None:
    """Plain face."""


def _pips(n: int) -> Callable[[np.ndarray, int, Colour], None]:
    def draw(canvas: np.ndarray, s: int, ink: Colour) -> None:
        for x, y in LAYOUTS[n]:
            cv2.circle(
                canvas,
                (int(s * (0.5 + 0.27 * x)), int(s * (0.5 + 0.27 * y))),
                max(2, int(s * 0.09)),
                ink,
                -1,
                cv2.LINE_AA,
            )

    return draw


def _inset(canvas: np.ndarray, s: int, ink: Colour) -> None:
    """A face printed in one colour: a rounded square inset from the white die's edges."""
    a, b, r = int(s * 0.16), int(s * 0.84), max(2, s // 10)
    cv2.rectangle(canvas, (a + r, a), (b - r, b), ink, -1, cv2.LINE_AA)
    cv2.rectangle(canvas, (a, a + r), (b, b - r), ink, -1, cv2.LINE_AA)
    for x, y in ((a + r, a + r), (b - r, a + r), (a + r, b - r), (b - r, b - r)):
        cv2.circle(canvas, (x, y), r, ink, -1, cv2.LINE_AA)


def _icon(kind: str) -> Callable[[np.ndarray, int, Colour], None]:
    """Simple icons: a head, crossed blades, a shield, a running figure, a cannon, a hook."""
    def draw(canvas: np.ndarray, s: int, ink: Colour) -> None:
        t = max(2, s // 12)

        def p(x: float, y: float) -> tuple[int, int]:
            return int(s * x), int(s * y)

        if kind == "head":  # a head: a round face with two dark eyes and a jaw
            cv2.circle(canvas, p(0.5, 0.45), int(s * 0.25), ink, -1, cv2.LINE_AA)
            cv2.rectangle(canvas, p(0.36, 0.6), p(0.64, 0.76), ink, -1, cv2.LINE_AA)
            for x in (0.41, 0.59):
                cv2.circle(canvas, p(x, 0.43), max(1, s // 16), canvas[1, 1].tolist(), -1)
        elif kind == "blades":  # crossed blades with guards
            for a, b in (((0.24, 0.24), (0.76, 0.76)), ((0.24, 0.76), (0.76, 0.24))):
                cv2.line(canvas, p(*a), p(*b), ink, t, cv2.LINE_AA)
            cv2.line(canvas, p(0.62, 0.78), p(0.78, 0.62), ink, t, cv2.LINE_AA)
            cv2.line(canvas, p(0.22, 0.62), p(0.38, 0.78), ink, t, cv2.LINE_AA)
        elif kind == "shield":  # a shield
            pts = np.array([(0.25, 0.22), (0.75, 0.22), (0.75, 0.5), (0.5, 0.8), (0.25, 0.5)])
            cv2.fillPoly(canvas, [(pts * s).astype(np.int32)], ink, cv2.LINE_AA)
        elif kind == "runner":  # a running figure: head, body, legs apart
            cv2.circle(canvas, p(0.55, 0.24), max(2, s // 11), ink, -1, cv2.LINE_AA)
            for a, b in (((0.52, 0.34), (0.45, 0.56)), ((0.45, 0.56), (0.3, 0.78)),
                         ((0.45, 0.56), (0.66, 0.76)), ((0.3, 0.42), (0.7, 0.4))):
                cv2.line(canvas, p(*a), p(*b), ink, t, cv2.LINE_AA)
        elif kind == "cannon":  # a barrel on a wheel
            cv2.line(canvas, p(0.22, 0.62), p(0.74, 0.36), ink, 2 * t, cv2.LINE_AA)
            cv2.circle(canvas, p(0.42, 0.66), int(s * 0.13), ink, t, cv2.LINE_AA)
        elif kind == "hook":  # a grappling hook: a shank and a hook
            cv2.line(canvas, p(0.5, 0.2), p(0.5, 0.66), ink, t, cv2.LINE_AA)
            cv2.ellipse(canvas, p(0.5, 0.6), (int(s * 0.2), int(s * 0.16)), 0, 0, 180, ink, t,
                        cv2.LINE_AA)
            cv2.line(canvas, p(0.3, 0.6), p(0.24, 0.5), ink, t, cv2.LINE_AA)
            cv2.line(canvas, p(0.7, 0.6), p(0.76, 0.5), ink, t, cv2.LINE_AA)

    return draw


def _rune(canvas: np.ndarray, s: int, ink: Colour) -> None:
    """An angular rune: a stave with two branches."""
    t = max(2, s // 12)
    c = s // 2
    cv2.line(canvas, (c, int(s * 0.22)), (c, int(s * 0.78)), ink, t, cv2.LINE_AA)
    cv2.line(canvas, (c, int(s * 0.35)), (int(s * 0.72), int(s * 0.22)), ink, t, cv2.LINE_AA)
    cv2.line(canvas, (c, int(s * 0.55)), (int(s * 0.72), int(s * 0.42)), ink, t, cv2.LINE_AA)


def _symbol(kind: str) -> Callable[[np.ndarray, int, Colour], None]:
    def draw(canvas: np.ndarray, s: int, ink: Colour) -> None:
        c, t = (s // 2, s // 2), max(2, s // 12)
        if kind == "disk":
            cv2.circle(canvas, c, int(s * 0.3), ink, -1, cv2.LINE_AA)
        elif kind == "cross":
            for a, b in (((0.25, 0.25), (0.75, 0.75)), ((0.25, 0.75), (0.75, 0.25))):
                cv2.line(
                    canvas,
                    (int(s * a[0]), int(s * a[1])),
                    (int(s * b[0]), int(s * b[1])),
                    ink,
                    t,
                    cv2.LINE_AA,
                )
        elif kind == "ring":
            cv2.circle(canvas, c, int(s * 0.28), ink, t, cv2.LINE_AA)
        elif kind == "triangle":
            pts = np.array([(0.5, 0.22), (0.78, 0.72), (0.22, 0.72)]) * s
            cv2.fillPoly(canvas, [pts.astype(np.int32)], ink, cv2.LINE_AA)
        elif kind == "bar":
            cv2.rectangle(
                canvas,
                (int(s * 0.22), int(s * 0.44)),
                (int(s * 0.78), int(s * 0.56)),
                ink,
                -1,
                cv2.LINE_AA,
            )
        elif kind == "dot":
            cv2.circle(canvas, c, int(s * 0.11), ink, -1, cv2.LINE_AA)

    return draw


SYMBOLS = ("disk", "cross", "ring", "triangle", "bar", "dot")


MARKS: dict[str, Callable[[np.ndarray, int, Colour], None]] = {
    "none": _no_marks, "inset": _inset, "rune": _rune,
    **{f"pips-{n}": _pips(n) for n in LAYOUTS},
    **{kind: _icon(kind) for kind in ("head", "blades", "shield", "runner", "cannon", "hook")},
    **{kind: _symbol(kind) for kind in SYMBOLS},
}
"""The marks a face's look may name."""


def _looks(profile: str) -> dict[str, DieLook]:
    """Face id -> look, from the profile's ``look``; :class:`ProfileError` for a profile
    that does not say how its dice look, or says it with unknown colours or marks."""
    look = profile_data(profile).get("look")
    try:
        body = look["body"]
        bodies = tuple(PAINTS[c] for c in body) if isinstance(body, list) else ()
        top = bodies[0] if bodies else PAINTS[body]
        return {str(face): DieLook(top, top, MARKS[drawn["marks"]], PAINTS[drawn["ink"]], bodies)
                for face, drawn in look["faces"].items()}
    except (KeyError, TypeError, IndexError) as exc:
        raise ProfileError("profile.no_look", name=repr(profile), detail=exc) from None


def synth_profiles() -> list[str]:
    """The learned profiles known now whose dice can be drawn (those with a ``look``)."""
    return [name for name in list_profiles()
            if profile_data(name)["kind"] == LEARNED and "look" in profile_data(name)]


def render(
    profile: str,
    rng: np.random.Generator,
    count: int | None = None,
    faces: list[str] | None = None,
    translucent: float = 0.2,
    bodies: list[str] | None = None,
) -> tuple[np.ndarray, tuple[Truth, ...]]:
    """Render one 640x640 frame of ``count`` dice (random faces unless ``faces`` is given; for
    dice that come in several body colours, random bodies unless ``bodies`` names each die's,
    among :data:`PAINTS`)."""
    looks = _looks(profile)
    names = sorted(looks)
    if faces is None:
        count = count or int(rng.integers(1, 9))
        faces = [names[int(i)] for i in rng.integers(0, len(names), count)]
    image = _tray(rng)
    side = int(rng.integers(30, 56))
    truths = []
    for i, (face, (cx, cy)) in enumerate(zip(faces, _places(rng, len(faces), side),
                                              strict=True)):
        alpha = float(rng.uniform(0.6, 0.8)) if rng.random() < translucent else 1.0
        look = looks[face]
        if look.bodies:
            body = look.bodies[int(rng.integers(len(look.bodies)))]
            if bodies is not None:
                body = PAINTS[bodies[i]]
            look = replace(look, top=body, side=body)
        box = _draw_die(image, look, (cx, cy), side, float(rng.uniform(0, 90)), alpha, rng)
        truths.append(Truth(face, box))
    image = _camera(image, rng)
    return image, tuple(truths)


def render_set(profile: str, frames: int, seed: int) -> Iterator[tuple[str, np.ndarray, tuple]]:
    """``frames`` renders of ``profile`` as ``(name, image, truths)``, like the photo sets."""
    rng = np.random.default_rng(seed)
    for i in range(frames):
        image, truths = render(profile, rng)
        yield f"{profile}#{i}", image, truths


def _tray(rng: np.random.Generator) -> np.ndarray:
    colour = rng.integers(20, 236, 3).astype(np.float32)
    gy, gx = np.mgrid[0:SIZE, 0:SIZE].astype(np.float32) / SIZE
    angle = rng.uniform(0, 2 * np.pi)
    light = 1.0 + 0.15 * ((gx - 0.5) * np.cos(angle) + (gy - 0.5) * np.sin(angle))
    return np.clip(colour[None, None, :] * light[:, :, None], 0, 255).astype(np.float32)


def _places(rng: np.random.Generator, n: int, side: int) -> list[tuple[int, int]]:
    """Centres at least one die apart (so dice may touch), some against the frame edge."""
    placed: list[tuple[int, int]] = []
    margin = int(side * 0.75)
    while len(placed) < n:
        if placed and rng.random() < 0.4:  # touching a die already placed
            bx, by = placed[int(rng.integers(len(placed)))]
            a = rng.uniform(0, 2 * np.pi)
            c = (int(bx + 1.15 * side * np.cos(a)), int(by + 1.15 * side * np.sin(a)))
        else:
            c = tuple(int(v) for v in rng.integers(margin, SIZE - margin, 2))
        inside = margin <= c[0] < SIZE - margin and margin <= c[1] < SIZE - margin
        if inside and all(np.hypot(c[0] - p[0], c[1] - p[1]) >= 1.12 * side for p in placed):
            placed.append(c)
    return placed


def _draw_die(
    image: np.ndarray,
    look: DieLook,
    centre: tuple[int, int],
    side: int,
    angle: float,
    alpha: float,
    rng: np.random.Generator,
) -> tuple[int, int, int, int]:
    """Draw shadow, side band and top face; return the die's box."""
    rot = cv2.getRotationMatrix2D((side / 2, side / 2), angle, 1.0)
    rot[:, 2] += np.array(centre) - side / 2
    square = np.array([[0, 0], [side, 0], [side, side], [0, side]], np.float32)
    top = cv2.transform(square[None], rot)[0]
    offset = rng.uniform(-0.12, 0.12, 2) * side
    body = np.vstack([top, top + offset])
    hull = cv2.convexHull(body.astype(np.float32)).astype(np.int32)
    shadow = np.zeros(image.shape[:2], np.float32)
    cast = (np.array([4, 4]) * np.sign(offset + 1e-3)).astype(np.int32)
    cv2.fillConvexPoly(shadow, hull + cast, 1)
    shadow = cv2.GaussianBlur(shadow, (0, 0), side * 0.12)
    image *= (1 - 0.35 * shadow)[:, :, None]
    layer = np.zeros_like(image)
    cover = np.zeros(image.shape[:2], np.float32)
    cv2.fillConvexPoly(layer, hull, [0.7 * v for v in look.side], cv2.LINE_AA)
    cv2.fillConvexPoly(cover, hull, 1.0, cv2.LINE_AA)
    face = np.full((side, side, 3), look.top, np.uint8)
    look.marks(face, side, look.ink)
    warped = cv2.warpAffine(face, rot, (SIZE, SIZE), flags=cv2.INTER_LINEAR)
    inside = np.zeros(image.shape[:2], np.uint8)
    cv2.fillConvexPoly(inside, top.astype(np.int32), 1)
    inside = cv2.erode(inside, np.ones((2, 2), np.uint8)) > 0
    layer[inside] = warped[inside]
    cover = cover[:, :, None] * alpha
    image[:] = image * (1 - cover) + layer * cover
    x, y, w, h = cv2.boundingRect(hull)
    return (x, y, x + w, y + h)


def _camera(image: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    gain = rng.uniform(0.75, 1.15)
    cast = rng.uniform(0.92, 1.08, 3)
    image = image * gain * cast
    image += rng.normal(0, 3, image.shape)
    image = cv2.GaussianBlur(image, (0, 0), rng.uniform(0.4, 1.0))
    return np.clip(image, 0, 255).astype(np.uint8)
