"""Accuracy and speed of the card camera on real photos: each card taught from one photo, the
others read, as they are and transformed.

    .venv/bin/python benchmarks/cards.py [--sets set art] [--board]
        [--conditions plain rotated tilted shadow covered]
    .venv/bin/python benchmarks/cards.py --twins [--conditions ...]

The photos (``benchmarks/cards/set/``, see its README) are Tom White's photos of the 81 cards of
the game SET® laid out on a table, 9 at a time, four photos of each layout taken on two days
under other light (Apache 2.0). The layout is the same in each photo of a board (rows: solid,
striped, empty; columns: oval, diamond, squiggle; the file name gives the colour and count), so
each card found is labelled by where it lies. Many cards look alike (same shape, another
colour, count or filling): the hard case for a matcher.

The ``art`` set (``benchmarks/cards/art/``) is the other case, cards with art of their own: 73
real photographs (dice on tables, Apache 2.0) each printed inside a white border on a rendered
card, laid on a dark table at a random place, turn and slant, under other light, blurred and
JPEG-compressed; taught from one such frame and read in three others. The cards are rendered,
not photographed: no permissively licensed photo set of real art cards was found.

Each card is taught from its board's first photo (cut out round the card) and read in the three
other photos, each shrunk to a 640-pixel frame. Three folds: in each, a third of the cards
(drawn by lot) is left untaught and must be said unknown. Conditions, applied to the read
frames: ``rotated`` (the frame turned by a random angle on a canvas that holds it, shrunk back
to 640 pixels on its long side as a camera's frame would be), ``tilted`` (a camera tilted 30°
from above the table: a perspective warp), ``shadow`` (half of each card darkened to 45 %,
along a random line through its centre: the card alone, as if the shadow fell on it and not
on the table, its blurred edge leaving a bright rim round the shadowed half), ``cast`` (a shadow
cast across the table and the card alike: the whole frame darkened to 45 % beyond a random
line through each card's centre), ``covered`` (a skin-coloured thumb over 20 % of each card,
at a random corner). Timing is the processor time of reading a 640-pixel frame on one
core (OpenCV held to one thread; processor time, as the machine it was measured on is shared).

``--twins`` asks the hardest form of "a card not taught is said unknown": each SET card is left
untaught in turn while every other card of its count is taught (its twins of another ink,
filling or shape), and its three views are read under each condition, drawn six times (the
folds by lot leave many of a card's twins untaught with it).
"""

from __future__ import annotations

import argparse
import re
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path

import cv2
import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from vision.cards import CardSpot, Deck, find_cards, read_cards  # noqa: E402

FOLDER = Path(__file__).parent / "cards" / "set"
FRAME_SIDE = 640
FOLD_SEED = 3
TWIN_DRAWS = 6  # transforms drawn of each view of a card left untaught among its twins
SPOT_SIZE = 1.6  # the side of the view of a card shown, over the card's long side
SHADINGS = ("solid", "striped", "empty")
SHAPES = ("oval", "diamond", "squiggle")
CONDITIONS = ("plain", "rotated", "tilted", "shadow", "cast", "covered")
NAME = re.compile(r"^(?P<colour>[a-z]+)-(?P<count>\d)-(?P<stamp>[\d_]+)\.jpg$")


def boards() -> dict[str, list[Path]]:
    """The photos of each board (colour-count), oldest first."""
    found: dict[str, list[Path]] = {}
    for path in sorted(FOLDER.glob("*.jpg")):
        match = NAME.match(path.name)
        if match:
            found.setdefault(f"{match['colour']}-{match['count']}", []).append(path)
    return found


def labelled(frame: np.ndarray, board: str) -> list[tuple[str, CardSpot]]:
    """The 9 cards of a board photo with their labels, by where they lie."""
    spots = sorted(find_cards(frame), key=lambda s: s.corners.mean(axis=0)[1])
    if len(spots) != 9:
        raise SystemExit(f"{board}: {len(spots)} cards found instead of 9")
    cards = []
    for row in range(3):
        line = sorted(spots[3 * row:3 * row + 3], key=lambda s: s.corners.mean(axis=0)[0])
        cards += [(f"{board}-{SHADINGS[row]}-{SHAPES[col]}", spot)
                  for col, spot in enumerate(line)]
    return cards


def shrink(frame: np.ndarray) -> np.ndarray:
    """The photo as a 640-pixel frame."""
    scale = FRAME_SIDE / max(frame.shape[:2])
    return cv2.resize(frame, None, fx=scale, fy=scale, interpolation=cv2.INTER_AREA)


def shown(photo: np.ndarray, label: str, spot: CardSpot) -> tuple[np.ndarray, list]:
    """The 640-pixel frame of one card shown at the card spot: the photo round it (its
    neighbours' edges in view), and the card's label and place in that frame."""
    centre = spot.corners.mean(axis=0)
    side = int(SPOT_SIZE * max(spot.box[2] - spot.box[0], spot.box[3] - spot.box[1]))
    padded = cv2.copyMakeBorder(photo, side, side, side, side, cv2.BORDER_REPLICATE)
    x0, y0 = (int(v - side / 2) + side for v in centre)  # the card in the middle of the view
    window = padded[y0:y0 + side, x0:x0 + side]
    scale = FRAME_SIDE / side
    frame = cv2.resize(window, None, fx=scale, fy=scale, interpolation=cv2.INTER_LINEAR)
    corners = (spot.corners + side - (x0, y0)) * scale
    return frame, [(label, CardSpot(corners.astype(np.float32), spot.box))]


def cut_out(frame: np.ndarray, spot: CardSpot) -> np.ndarray:
    """The part of a photo round one card (what an owner shows to teach it)."""
    x0, y0, x1, y1 = spot.box
    mx, my = (x1 - x0) // 5, (y1 - y0) // 5
    return frame[max(y0 - my, 0):y1 + my, max(x0 - mx, 0):x1 + mx].copy()


# -- conditions: a frame and its card centres, transformed ----------------------------------------

def transform(condition: str, frame: np.ndarray, cards: list[tuple[str, CardSpot]],
              rng: np.random.Generator) -> tuple[np.ndarray, list[tuple[str, np.ndarray]]]:
    """The frame under ``condition`` and where each labelled card's centre went."""
    centres = [(label, spot.corners.mean(axis=0)) for label, spot in cards]
    height, width = frame.shape[:2]
    if condition == "rotated":
        angle = float(rng.uniform(15, 345))
        matrix = cv2.getRotationMatrix2D((width / 2, height / 2), angle, 1.0)
        cos, sin = abs(matrix[0, 0]), abs(matrix[0, 1])
        size = (int(height * sin + width * cos), int(height * cos + width * sin))
        matrix[:, 2] += (size[0] / 2 - width / 2, size[1] / 2 - height / 2)
        out = cv2.warpAffine(frame, matrix, size, borderMode=cv2.BORDER_REPLICATE)
        scale = FRAME_SIDE / max(out.shape[:2])  # the camera's frame is 640 pixels, turned or not
        out = cv2.resize(out, None, fx=scale, fy=scale, interpolation=cv2.INTER_AREA)
        return out, [(label, scale * (matrix @ np.append(c, 1.0))) for label, c in centres]
    if condition == "tilted":
        return _tilted(frame, centres, 30.0)
    out = frame.astype(np.float32)
    for _label, spot in cards:
        mask = np.zeros((height, width), np.float32)
        cv2.fillConvexPoly(mask, spot.corners.astype(np.int32), 1.0)
        centre = spot.corners.mean(axis=0)
        if condition in ("shadow", "cast"):
            angle = rng.uniform(0, np.pi)
            normal = np.array([np.cos(angle), np.sin(angle)])
            ys, xs = np.mgrid[0:height, 0:width]
            side = ((xs - centre[0]) * normal[0] + (ys - centre[1]) * normal[1]) > 0
            shaded = mask * side if condition == "shadow" else side  # (cast: the table too)
            shade = cv2.GaussianBlur(shaded.astype(np.float32), (7, 7), 0)
            out *= (1.0 - 0.55 * shade)[..., None]
        elif condition == "covered":
            corner = spot.corners[int(rng.integers(4))]
            w = np.linalg.norm(spot.corners[1] - spot.corners[0])
            h = np.linalg.norm(spot.corners[2] - spot.corners[1])
            thumb = np.zeros((height, width), np.float32)
            angle = float(np.degrees(np.arctan2(*(spot.corners[1] - spot.corners[0])[::-1])))
            cv2.ellipse(thumb, (int(corner[0]), int(corner[1])), (int(w * 0.5), int(h * 0.5)),
                        angle, 0, 360, 1.0, -1)
            thumb = cv2.GaussianBlur(thumb, (5, 5), 0)[..., None]
            skin = np.array([110, 140, 200], np.float32) * (0.8 + 0.2 * rng.random())
            out = out * (1 - thumb) + skin * thumb
    return np.clip(out, 0, 255).astype(np.uint8), centres


def _tilted(frame: np.ndarray, centres: list, degrees: float
            ) -> tuple[np.ndarray, list[tuple[str, np.ndarray]]]:
    """The table seen by a camera tilted ``degrees`` from looking straight down."""
    height, width = frame.shape[:2]
    focal = 1.2 * max(height, width)
    tilt = np.radians(degrees)
    rotation = cv2.Rodrigues(np.array([tilt, 0.0, 0.0]))[0]
    camera = np.array([[focal, 0, width / 2], [0, focal, height / 2], [0, 0, 1]])
    homography = camera @ rotation @ np.linalg.inv(camera)
    corners = np.float32([[0, 0], [width, 0], [width, height], [0, height]]).reshape(-1, 1, 2)
    moved = cv2.perspectiveTransform(corners, homography).reshape(-1, 2)
    shift = np.array([[1, 0, -moved[:, 0].min()], [0, 1, -moved[:, 1].min()], [0, 0, 1]])
    homography = shift @ homography
    size = (int(np.ptp(moved[:, 0])), int(np.ptp(moved[:, 1])))
    out = cv2.warpPerspective(frame, homography, size, borderMode=cv2.BORDER_REPLICATE)
    moved_centres = [(label, cv2.perspectiveTransform(c.reshape(1, 1, 2).astype(np.float64),
                                                      homography).reshape(2))
                     for label, c in centres]
    scale = FRAME_SIDE / max(out.shape[:2])
    out = cv2.resize(out, None, fx=scale, fy=scale, interpolation=cv2.INTER_AREA)
    return out, [(label, c * scale) for label, c in moved_centres]


# -- the measurement ------------------------------------------------------------------------------

def measure(condition: str, teach: dict[str, np.ndarray], views: list[tuple[np.ndarray, list]],
            folds: int = 3, seed: int = 7) -> dict[str, float]:
    """One row of the table: each card taught from its photo in ``teach``, every card of every
    view read (a frame and its labelled cards), over the folds (in each, a third of the cards
    left untaught)."""
    rng = np.random.default_rng(seed)
    ids = list(np.random.default_rng(FOLD_SEED).permutation(sorted(teach)))  # folds by lot:
    # sorted, every third card of SET is one shape, and a card's twins of other colours and
    # fillings were left untaught with it
    tally: Counter[str] = Counter()
    times: list[float] = []
    for fold in range(folds):
        untaught = set(ids[fold::folds])
        with tempfile.TemporaryDirectory() as folder:
            deck = Deck(Path(folder))
            for label in ids:
                if label not in untaught:
                    deck.teach(label, teach[label])
            for frame, inside in views:
                seen, centres = transform(condition, frame, inside, rng)
                start = time.process_time()
                read = read_cards(seen, deck)
                times.append((time.process_time() - start) * 1000)
                for label, centre in centres:
                    _count(tally, read.cards, label, centre, label in untaught)
    known, unknown = tally["known"], tally["unknown"]
    return {
        "cards": known + unknown,
        "right": tally["right"] / known,
        "right_sure": tally["right_sure"] / known,
        "wrong_sure": tally["wrong_sure"] / known,
        "asked": tally["asked"] / known,
        "missed": tally["missed"] / (known + unknown),
        "unknown_said": tally["unknown_said"] / unknown,
        "unknown_named": tally["unknown_named_sure"] / unknown,
        "ms_median": float(np.median(times)),
        "ms_p95": float(np.percentile(times, 95)),
    }


def twins(conditions: list[str], draws: int = TWIN_DRAWS, seed: int = 7) -> dict[str, Counter]:
    """Each SET card left untaught in turn among every other card of its count, taught (its
    twins of another ink, filling or shape: the cards it is likeliest to be taken for), its
    three views read under each condition, each drawn ``draws`` times (plain once): the tally
    of how it was read (:func:`_count`)."""
    teach, views = set_cards()
    shown_as: dict[str, list] = {}
    for frame, inside in views:
        shown_as.setdefault(inside[0][0], []).append((frame, inside))
    rng = np.random.default_rng(seed)
    tallies = {condition: Counter() for condition in conditions}
    for card in sorted(teach):
        count = card.split("-")[1]
        with tempfile.TemporaryDirectory() as folder:
            deck = Deck(Path(folder))
            for label in sorted(teach):
                if label != card and label.split("-")[1] == count:
                    deck.teach(label, teach[label])
            for condition in conditions:
                for frame, inside in shown_as[card]:
                    for _ in range(1 if condition == "plain" else draws):
                        seen, centres = transform(condition, frame, inside, rng)
                        _count(tallies[condition], read_cards(seen, deck).cards, card,
                               centres[0][1], untaught=True)
    return tallies


def set_cards(whole: bool = False) -> tuple[dict[str, np.ndarray], list[tuple[np.ndarray, list]]]:
    """The SET photos: each card's teaching photo (cut out of its board's first photo) and the
    views read (each card of the other photos alone at the card spot; ``whole``: the 9 cards of
    a photo in one 640-pixel frame)."""
    photos = {board: [cv2.imread(str(p)) for p in paths] for board, paths in boards().items()}
    cards = {board: [labelled(frame, board) for frame in frames]
             for board, frames in photos.items()}
    teach = {label: cut_out(frames[0], spot) for board, frames in photos.items()
             for label, spot in cards[board][0]}
    views = []
    for board, frames in photos.items():
        for photo, labels in zip(frames[1:], cards[board][1:], strict=True):
            views += [board_frame(photo, labels)] if whole \
                else [shown(photo, label, spot) for label, spot in labels]
    return teach, views


# -- cards with art: real photographs printed on rendered cards ------------------------------------

ART = Path(__file__).parent / "cards" / "art"
ART_READS = 3  # views of each art card read
CARD_PIXELS = (250, 350)  # (width, height) of an art card drawn before it is laid on the table
ART_BORDER = 14  # pixels of white card round the art


def art_cards() -> tuple[dict[str, np.ndarray], list[tuple[np.ndarray, list]]]:
    """Cards with art of their own (see ``cards/README.md``): each a photo printed inside a
    white border, laid on a dark table at a random place, turn and slant, under other light,
    blurred and compressed as a camera would; taught from one such frame, read in
    :data:`ART_READS` others."""
    rng = np.random.default_rng(11)
    teach, views = {}, []
    for path in sorted(ART.glob("*.jpg")):
        card = art_card(cv2.imread(str(path)))
        teach[path.stem] = laid_on_table(card, rng)[0]
        for _ in range(ART_READS):
            frame, spot = laid_on_table(card, rng)
            views.append((frame, [(path.stem, spot)]))
    return teach, views


def art_card(art: np.ndarray) -> np.ndarray:
    """A white card with ``art`` printed inside its border."""
    width, height = CARD_PIXELS
    card = np.full((height, width, 3), 235, np.uint8)
    inner = (width - 2 * ART_BORDER, height - 2 * ART_BORDER)
    card[ART_BORDER:height - ART_BORDER, ART_BORDER:width - ART_BORDER] = cv2.resize(
        art, inner, interpolation=cv2.INTER_AREA)
    return card


def laid_on_table(card: np.ndarray, rng: np.random.Generator) -> tuple[np.ndarray, CardSpot]:
    """``card`` on a dark table in a 640 x 480 frame, and where it lies."""
    height, width = card.shape[:2]
    table = rng.normal(55, 6, (480, 640, 3)).astype(np.float32)
    table = cv2.GaussianBlur(table, (0, 0), 2.0) + rng.uniform(-8, 8, 3).astype(np.float32)
    long_side = rng.uniform(280, 360)
    angle = np.radians(rng.uniform(-25, 25) + 180 * int(rng.integers(2)))
    centre = np.array([320, 240]) + rng.uniform(-30, 30, 2)
    half = np.array([[-width, -height], [width, -height], [width, height], [-width, height]]
                    ) / 2 * long_side / height
    turn = np.array([[np.cos(angle), -np.sin(angle)], [np.sin(angle), np.cos(angle)]])
    corners = (half @ turn.T + centre + rng.normal(0, 0.02 * long_side, (4, 2))
               ).astype(np.float32)
    source = np.float32([[0, 0], [width - 1, 0], [width - 1, height - 1], [0, height - 1]])
    matrix = cv2.getPerspectiveTransform(source, corners)
    drawn = cv2.warpPerspective(card, matrix, (640, 480), flags=cv2.INTER_LINEAR)
    mask = cv2.warpPerspective(np.ones((height, width), np.float32), matrix, (640, 480))[..., None]
    frame = table * (1 - mask) + drawn.astype(np.float32) * mask
    light = rng.uniform(0.75, 1.15) * rng.uniform(0.92, 1.08, 3)  # brightness and colour cast
    ramp = np.linspace(1 - rng.uniform(0, 0.2), 1, 640, dtype=np.float32)[None, :, None]
    frame = cv2.GaussianBlur(frame * light * ramp, (0, 0), rng.uniform(0.4, 1.2))
    frame = np.clip(frame + rng.normal(0, 3, frame.shape), 0, 255).astype(np.uint8)
    frame = cv2.imdecode(cv2.imencode(".jpg", frame, [cv2.IMWRITE_JPEG_QUALITY, 80])[1],
                         cv2.IMREAD_COLOR)
    box = (*np.floor(corners.min(axis=0)).astype(int), *np.ceil(corners.max(axis=0)).astype(int))
    return frame, CardSpot(corners, tuple(int(v) for v in box))


def board_frame(photo: np.ndarray, labels: list) -> tuple[np.ndarray, list]:
    """A board photo as one 640-pixel frame, its cards' places moved with it."""
    scale = FRAME_SIDE / max(photo.shape[:2])
    return shrink(photo), [(label, CardSpot(spot.corners * scale, spot.box))
                           for label, spot in labels]


def _count(tally: Counter, seen: list, label: str, centre: np.ndarray, untaught: bool) -> None:
    """Score the card read nearest where ``label`` lies."""
    tally["unknown" if untaught else "known"] += 1
    near = [c for c in seen if c.box[0] <= centre[0] <= c.box[2]
            and c.box[1] <= centre[1] <= c.box[3]]
    if not near:
        tally["missed"] += 1
        return
    card = min(near, key=lambda c: (c.box[2] - c.box[0]) * (c.box[3] - c.box[1]))
    if untaught:
        tally["unknown_said" if card.id is None else
              "unknown_named_sure" if not card.uncertain else "unknown_asked"] += 1
        return
    tally["right"] += card.id == label
    tally["right_sure"] += card.id == label and not card.uncertain
    tally["wrong_sure"] += card.id not in (label, None) and not card.uncertain
    tally["asked"] += card.uncertain or card.id is None


def main(argv: list[str] | None = None) -> int:
    """Print the table."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--conditions", nargs="+", choices=CONDITIONS, default=list(CONDITIONS))
    parser.add_argument("--sets", nargs="+", choices=SETS, default=list(SETS))
    parser.add_argument("--board", action="store_true",
                        help="add a row reading the 9 cards of each SET photo in one frame")
    parser.add_argument("--twins", action="store_true",
                        help="only the table of SET cards left untaught among their twins")
    args = parser.parse_args(argv)
    cv2.setNumThreads(1)
    if args.twins:
        return print_twins(args.conditions)
    print("| set | condition | cards read | right | right, sure | wrong, sure | asked | missed "
          "| untaught said unknown | untaught named surely | ms/frame (median, p95) |")
    print("|---|---|---|---|---|---|---|---|---|---|---|")
    rows = [(name, c) for name in args.sets for c in args.conditions]
    rows += [("set", "9 cards a frame")] if args.board and "set" in args.sets else []
    for name, condition in rows:
        teach, views = set_cards(whole=True) if condition == "9 cards a frame" \
            else SETS[name]()
        row = measure("plain" if condition == "9 cards a frame" else condition, teach, views)
        print(f"| {name} | {condition} | {row['cards']} | {row['right']:.3f} "
              f"| {row['right_sure']:.3f} "
              f"| {row['wrong_sure']:.2%} | {row['asked']:.2%} | {row['missed']:.2%} "
              f"| {row['unknown_said']:.3f} | {row['unknown_named']:.2%} "
              f"| {row['ms_median']:.1f}, {row['ms_p95']:.1f} |", flush=True)
    return 0


def print_twins(conditions: list[str]) -> int:
    """Print the table of SET cards left untaught among their twins (:func:`twins`)."""
    print("| set | condition | untaught read | said unknown | asked | named surely | missed |")
    print("|---|---|---|---|---|---|---|")
    for condition, tally in twins(conditions).items():
        read = tally["unknown"]
        print(f"| set, untaught among its twins | {condition} | {read} "
              f"| {tally['unknown_said'] / read:.3f} | {tally['unknown_asked'] / read:.2%} "
              f"| {tally['unknown_named_sure'] / read:.2%} | {tally['missed'] / read:.2%} |",
              flush=True)
    return 0


SETS = {"set": set_cards, "art": art_cards}


if __name__ == "__main__":
    sys.exit(main())
