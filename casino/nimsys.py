"""``python -m casino.nimsys``: Nimsys (Project C by default; ``--stage a|b``). See
:mod:`casino.nim.cli`."""

from casino.nim.cli import main

__all__ = ["main"]

if __name__ == "__main__":
    raise SystemExit(main())
