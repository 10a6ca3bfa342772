"""Which transcripts a student's feedback withholds: ``visibility: hidden`` ones always, and
``after-due`` ones until the student's own due (with an extension) has passed.

A withheld transcript is shown to the student as its name and its points only
(:func:`casino.grade.results.withheld_line`), never its input, its expected output or what the
program printed; the staff copy of the feedback (``feedback-staff/``) holds everything.
Without ``--due`` there is no due to pass, so an ``after-due`` transcript stays withheld.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime

from casino.grade.course import Material


def withheld(materials: Sequence[Material], due: datetime | None, now: datetime) -> dict[str, str]:
    """The transcripts (path → name) a student whose due is ``due`` must not see in full at
    ``now``."""
    hidden = {}
    for material in materials:
        shown = material.transcript.shown
        if shown == "hidden" or (shown == "after-due" and (due is None or now < due)):
            hidden[material.path] = material.transcript.name
    return hidden


def any_withheld(materials: Sequence[Material]) -> bool:
    """Whether any transcript is other than ``visible``."""
    return any(material.transcript.shown != "visible" for material in materials)
