"""The learning platforms casino takes a bulk download from and writes grades back to.

:data:`PLATFORMS` is the registry, in the order a download's layout is tried (a tie goes to
the earlier one); :func:`find_platform` finds one by name. A new platform is one module (a
frozen :class:`~casino.grade.platforms.base.Platform`) and one line here.
"""

from __future__ import annotations

from casino.grade.platforms.base import Entry, GradeRow, Identity, Platform, When
from casino.grade.platforms.blackboard import BLACKBOARD
from casino.grade.platforms.canvas import CANVAS
from casino.grade.platforms.moodle import MOODLE

__all__ = [
    "PLATFORMS",
    "Entry",
    "GradeRow",
    "Identity",
    "Platform",
    "When",
    "find_platform",
]

PLATFORMS: tuple[Platform, ...] = (MOODLE, CANVAS, BLACKBOARD)
"""Every platform casino knows."""


def find_platform(name: str) -> Platform | None:
    """The platform named ``name`` (an intake's layout), or ``None`` (``folders``, ``git``)."""
    return next((platform for platform in PLATFORMS if platform.name == name), None)
