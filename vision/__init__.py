"""Dice by camera: find dice in a photo and read their top faces for a die profile.

Public entry points: :func:`read` (one frame to a :class:`Roll`), :func:`load_image` (a file to
a frame, with clear errors), :func:`teach` (learn a face from photos), :class:`SettledRollDetector`
(report each roll once on a stream), :func:`iter_frames` (frames of a video or image folder) and
:func:`self_test` (a test roll the reader must read right, for ``companion doctor``).
Bad input raises a :class:`VisionError` (``ImageError``, ``ProfileError``) whose key says what
was wrong in French or English (:mod:`vision.say`). Vision never imports the engine: it returns
faces, and ``hardware/`` turns them into events.
"""

from .frames import iter_frames
from .imageio import ImageError, load_image
from .profile import Profile, ProfileError, list_profiles, load_profile
from .reader import read
from .roll import Die, Roll
from .say import VisionError
from .selftest import SelfTest, self_test
from .settle import SettledRoll, SettledRollDetector
from .teach import teach

__all__ = [
    "Die",
    "ImageError",
    "Profile",
    "ProfileError",
    "Roll",
    "SelfTest",
    "SettledRoll",
    "SettledRollDetector",
    "VisionError",
    "iter_frames",
    "list_profiles",
    "load_image",
    "load_profile",
    "read",
    "self_test",
    "teach",
]
