"""``python -m casino.holdem``: see :mod:`casino.holdem.cli`."""

from casino.holdem.cli import main

__all__ = ["main"]

if __name__ == "__main__":
    raise SystemExit(main())
