"""``python -m casino.domino``: see :mod:`casino.domino.cli`."""

from casino.domino.cli import main

__all__ = ["main"]

if __name__ == "__main__":
    raise SystemExit(main())
