"""``python -m casino.web``: see :mod:`casino.web.cli`."""

from casino.web.cli import main

__all__ = ["main"]

if __name__ == "__main__":
    raise SystemExit(main())
