"""casino: exact, deterministic reference implementations of classic game assignments.

Every program is a ``main(argv, stdin=..., stdout=..., stderr=...) -> int`` function (see
:mod:`casino.programs`), so the same code serves a terminal, a pipe, a cmd-file and the
in-process transcript runner of :mod:`casino.harness`.
"""

__version__ = "0.1.0"
