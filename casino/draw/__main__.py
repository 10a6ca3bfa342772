"""``python -m casino.draw``: five-card draw. See :mod:`casino.draw.cli`."""

from casino.draw.cli import main

__all__ = ["main"]

if __name__ == "__main__":
    raise SystemExit(main())
