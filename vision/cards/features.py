"""The second opinion on a card: its local features (ORB corners and their binary descriptors)
matched against a taught card's, and a geometric check that the matches agree.

Two straightened cards of one card show the same corners at the same places (the card either
way up): the matched corners of the two fit one homography close to the identity, or to a half
turn. A card not taught shares some corners with any card (a border, a shape), but they do not
line up on one such homography: few matches survive the check. The count of matches that do,
the inliers, is how well the card is confirmed.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass

import cv2
import numpy as np

FEATURES = 300  # corners kept on a straightened card
RATIO = 0.8  # a match is kept when its nearest descriptor is this much nearer than the second
REPROJECTION = 6.0  # pixels: a matched corner farther than this from where the homography puts
# it is not an inlier
DRIFT = 0.12  # of the card's long side: how far the homography may move a corner of the card
# from where the identity (or a half turn) puts it, and a matched corner from its place
EDGE = 0.1  # of each side, left out: the frame round the art, alike on every card of a game
RANSAC_TRIES = 500
_ORB = cv2.ORB_create(nfeatures=FEATURES, scaleFactor=1.3, nlevels=3, edgeThreshold=11,
                      patchSize=11, fastThreshold=8)


@dataclass(frozen=True)
class Features:
    """The corners of a straightened card: their places (N x 2, pixels), their descriptors
    (N x 32 bytes), and the card's size (width, height)."""

    points: np.ndarray
    descriptors: np.ndarray
    size: tuple[int, int]

    @functools.cached_property
    def words(self) -> np.ndarray:
        """The descriptors as four 64-bit words each, word by word (4 x N): compared a word
        of every descriptor at once (:func:`two_nearest`)."""
        return np.ascontiguousarray(self.descriptors.view(np.uint64).T)


def features(card: np.ndarray, out_of_view: np.ndarray | None = None) -> Features:
    """The local features of a straightened card (BGR uint8), none where it lies
    ``out_of_view`` (bool: out of the frame) nor on the edge of that."""
    grey = cv2.cvtColor(card, cv2.COLOR_BGR2GRAY)
    height, width = grey.shape
    inner = np.zeros_like(grey)
    inner[int(EDGE * height):height - int(EDGE * height),
          int(EDGE * width):width - int(EDGE * width)] = 255
    if out_of_view is not None:
        inner[cv2.dilate(out_of_view.astype(np.uint8), _OUT_EDGE) > 0] = 0
    keypoints, descriptors = _ORB.detectAndCompute(grey, inner)
    points = np.asarray(cv2.KeyPoint_convert(keypoints), np.float32).reshape(-1, 2)  # (all
    # at once: a loop over the corners took a tenth of the time finding them does)
    if descriptors is None:
        descriptors = np.zeros((0, 32), np.uint8)
    return Features(points, descriptors, (card.shape[1], card.shape[0]))


_OUT_EDGE = np.ones((15, 15), np.uint8)  # round what is out of view, where the frame's edge
# drawn out across the card makes corners of its own


def inliers(seen: Features, taught: Features) -> int:
    """How many corners of ``seen`` match ``taught``'s and lie where one homography near the
    identity or a half turn puts them (0 when they fit no such homography)."""
    return matches(seen, taught).inliers()


@dataclass(frozen=True)
class Matches:
    """The corners of a card seen matched with a taught card's and lying near their place, for
    each way up with enough of them (the way with most first): how many they are bounds the
    inliers (:meth:`inliers`) before anything is fitted."""

    ways: tuple[tuple[np.ndarray, np.ndarray], ...]  # (seen corners turned, taught corners)
    size: tuple[int, int]

    @property
    def most(self) -> int:
        """The inliers there can be at most: the matches of the way up with most."""
        return len(self.ways[0][0]) if self.ways else 0

    def inliers(self) -> int:
        """How many of the matches lie where one homography near the identity or a half turn
        puts them (0 when they fit no such homography)."""
        best = 0
        for moved, fixed in self.ways:
            if len(moved) > best:  # its inliers are among its matches: else it cannot beat
                best = max(best, _lined_up(moved, fixed, self.size))  # the way already fitted
        return best


def matches(seen: Features, taught: Features) -> Matches:
    """The corners of ``seen`` whose nearest descriptor among ``taught``'s is clearly nearer
    than the second, kept where they lie near that corner either way up (the card turned a
    half turn or not): none for a way with fewer than 6."""
    if len(seen.descriptors) < 8 or len(taught.descriptors) < 8:
        return Matches((), seen.size)
    nearest, first, second = two_nearest(seen, taught)
    good = np.flatnonzero(first < RATIO * second)
    if len(good) < 6:
        return Matches((), seen.size)
    source = seen.points[good]
    target = taught.points[nearest[good]]
    width, height = seen.size
    ways = []
    for turned in (source, np.float32([width, height]) - source):  # either way up
        near = np.linalg.norm(turned - target, axis=1) <= DRIFT * max(width, height)
        ways.append((turned[near], target[near]))
    ways.sort(key=lambda way: -len(way[0]))
    return Matches(tuple(way for way in ways if len(way[0]) >= 6), seen.size)


def two_nearest(seen: Features, taught: Features) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """For each descriptor of ``seen`` (N), the one of ``taught`` nearest it, and the Hamming
    distances to that one and to the second nearest (both at least 8 descriptors)."""
    if not hasattr(np, "bitwise_count"):  # numpy before 2.0 (the 32-bit Pi's own): OpenCV's
        # distances, the same two, in about one and a half times the time
        apart, nearest = cv2.batchDistance(seen.descriptors, taught.descriptors, cv2.CV_32S,
                                           normType=cv2.NORM_HAMMING, K=2)
        return nearest[:, 0], apart[:, 0], apart[:, 1]
    shape = (len(seen.descriptors), len(taught.descriptors))
    apart, differ, bits = np.zeros(shape, np.uint16), np.empty(shape, np.uint64), \
        np.empty(shape, np.uint8)  # (written into, not made anew for each word)
    for ours, theirs in zip(seen.words, taught.words, strict=True):
        np.bitwise_xor(ours[:, None], theirs[None, :], out=differ)
        apart += np.bitwise_count(differ, out=bits)
    rows = np.arange(len(apart))
    nearest = apart.argmin(axis=1)
    first = apart[rows, nearest]
    apart[rows, nearest] = np.iinfo(np.uint16).max
    return nearest, first, apart.min(axis=1)


def _lined_up(moved: np.ndarray, fixed: np.ndarray, size: tuple[int, int]) -> int:
    """How many of the matched corners ``moved`` lie where one homography near the identity
    puts them at ``fixed``; corners bunched in a patch or two (the dice of a photo on a plain
    table) fit a homography that flies off away from them: then one turn, shift and scale."""
    homography, mask = cv2.findHomography(moved, fixed, cv2.RANSAC, REPROJECTION,
                                          maxIters=RANSAC_TRIES)
    if homography is not None and _near_identity(homography, size):
        return int(mask.sum())
    similar, mask = cv2.estimateAffinePartial2D(moved, fixed, method=cv2.RANSAC,
                                                ransacReprojThreshold=REPROJECTION,
                                                maxIters=RANSAC_TRIES)
    if similar is not None and _near_identity(np.vstack([similar, [0, 0, 1]]), size):
        return int(mask.sum())
    return 0


def _near_identity(homography: np.ndarray, size: tuple[int, int]) -> bool:
    """Whether ``homography`` moves the card's corners little (two straightened pictures of
    one card, the seen one turned the taught one's way up)."""
    width, height = size
    corners = np.float32([[0, 0], [width, 0], [width, height], [0, height]])
    moved = cv2.perspectiveTransform(corners.reshape(-1, 1, 2), homography).reshape(-1, 2)
    return float(np.abs(moved - corners).max()) <= DRIFT * max(width, height)


_NUDGE = np.float32([[4, -3], [-3, 4], [3, 3], [-4, -2]])  # pixels each corner is moved


def self_inliers(picture: np.ndarray, own: Features) -> int:
    """The inliers of ``picture`` against itself seen a little askew, blurred and dimmed: how
    well its corners can confirm it at all (a plain card's few smooth edges cannot)."""
    height, width = picture.shape[:2]
    corners = np.float32([[0, 0], [width, 0], [width, height], [0, height]])
    matrix = cv2.getPerspectiveTransform(corners, corners + _NUDGE)
    moved = cv2.warpPerspective(picture, matrix, (width, height),
                                borderMode=cv2.BORDER_REPLICATE)
    moved = cv2.convertScaleAbs(cv2.GaussianBlur(moved, (0, 0), 1.0), alpha=0.8, beta=10)
    return inliers(features(moved), own)
