"""``python -m casino.stud``: see :mod:`casino.stud.cli`."""

from casino.stud.cli import main

__all__ = ["main"]

if __name__ == "__main__":
    raise SystemExit(main())
