"""``python -m casino.stud``: the ``casino stud`` program, asked of :mod:`casino.programs` by
name as ``casino stud`` asks it (the game's subcommands, :mod:`casino.stud.cli`, and the
grading side's ``check`` and class tournament, :mod:`casino.grade.studcli`)."""

from casino.programs import load_main

main = load_main("stud")

__all__ = ["main"]

if __name__ == "__main__":
    raise SystemExit(main())
