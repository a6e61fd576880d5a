"""Dice by camera: find dice in a photo and read their top faces for a die profile.

Public entry points: :func:`read` (one frame to a :class:`Roll`), :func:`load_image` (a file to
a frame, with clear errors; :func:`decode_photo` the same from bytes in memory), :func:`teach`
(learn a face from photos), :class:`SettledRollDetector` (report each roll once on a stream)
and :func:`iter_frames` (frames of a video or image folder).
:func:`vision.selftest.self_test` reads a test roll for ``companion doctor`` (kept out of this
import: it draws the roll with ``vision.synth``, which a reading never needs).
Bad input raises a :class:`VisionError` (``ImageError``, ``ProfileError``) whose key says what
was wrong in French or English (:mod:`vision.say`). Vision never imports the engine: it returns
faces, and ``hardware/`` turns them into events.
"""

from .frames import iter_frames
from .imageio import ImageError, decode_photo, load_image
from .profile import Profile, ProfileError, list_profiles, load_profile
from .reader import read
from .roll import Die, Roll
from .say import VisionError
from .settle import SettledRoll, SettledRollDetector
from .teach import teach

__all__ = [
    "Die",
    "ImageError",
    "Profile",
    "ProfileError",
    "Roll",
    "SettledRoll",
    "SettledRollDetector",
    "VisionError",
    "decode_photo",
    "iter_frames",
    "list_profiles",
    "load_image",
    "load_profile",
    "read",
    "teach",
]
