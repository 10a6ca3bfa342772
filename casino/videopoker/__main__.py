"""``python -m casino.videopoker``: see :mod:`casino.videopoker.cli`."""

from casino.videopoker.cli import main

__all__ = ["main"]

if __name__ == "__main__":
    raise SystemExit(main())
