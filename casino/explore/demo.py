"""Sessions of casino's demo calculator (``casino demo``), the harness's own test program.

Its "assignment" is its docstring. Explore types ``add``/``mul`` with two whole numbers (or a
wrong count), ``echo`` of a word, ``table`` 0–13, ``store N``, ``recall``, ``prompt on|off``
and ``help``; a session may be a chain of two runs sharing ``demo.dat`` (``store`` in one,
``recall`` in the next). ``roll`` is left out (its die is casino's seeded generator, which no
other program shares), and so is ``warn`` (stderr is not compared). Every run ends with
``exit``.
"""

from __future__ import annotations

import random
import re
from collections.abc import Iterator
from dataclasses import dataclass

from casino.explore.plan import Rendered, RunInput, Session, smaller_numbers
from casino.explore.references import ABOUT

LINE = re.compile(
    r"(add|mul) -?[0-9]{1,6}( -?[0-9]{1,6})?|echo [a-z]+|table [0-9]{1,2}|store [0-9]{1,6}"
    r"|recall|prompt (on|off)|help"
)
"""The lines explore types (``exit`` is added at the end of each run)."""


@dataclass(frozen=True)
class DemoGrammar:
    """The calculator's sessions."""

    name = "demo"
    keeps_recordings = True  # a session's arcs are the same in any process: see plan.Grammar
    program = "demo"
    about = ABOUT["demo"]

    def generate(self, rng: random.Random, size: int) -> Session:
        """One or two runs of up to ``size`` lines."""
        runs = rng.choice((1, 1, 2))
        return Session(
            tuple(tuple((_line(rng),) for _ in range(rng.randint(1, size))) for _ in range(runs))
        )

    def render(self, session: Session) -> Rendered:
        """Each run as typed, ``exit`` at its end."""
        return Rendered(
            tuple(
                RunInput((), (*(line for unit in run for line in unit), "exit"))
                for run in session.runs
            )
        )

    def unpinned(self, session: Session) -> str | None:
        """A line that is not one of the typed forms."""
        for run in session.runs:
            for unit in run:
                for line in unit:
                    if not LINE.fullmatch(line):
                        return f"not a line explore types: {line!r}"
        return None

    def simpler(self, session: Session) -> Iterator[Session]:
        """Numbers made smaller."""
        return smaller_numbers(session)


def _line(rng: random.Random) -> str:
    pick = rng.random()
    number = rng.choice((0, 1, 7, 12, 99, 12345, -3))
    if pick < 0.35:
        extra = f" {rng.randint(-20, 20)}" if rng.random() < 0.9 else ""
        return f"{rng.choice(('add', 'mul'))} {number}{extra}"
    if pick < 0.5:
        return f"table {rng.randint(0, 13)}"
    if pick < 0.6:
        return f"echo {rng.choice(('hello', 'x', 'casino'))}"
    if pick < 0.75:
        return f"store {abs(number)}"
    if pick < 0.88:
        return "recall"
    if pick < 0.95:
        return rng.choice(("prompt on", "prompt off"))
    return "help"
