"""``casino grade marks SHEET.csv [--out DIR]``: merge a marker's filled sheet into the grades.

The sheet is the one ``casino grade`` wrote (``DIR/marking/sheet.csv``), its ``score`` and
``comment`` cells filled in (:mod:`casino.grade.sheet`). Exit status 0 once merged, 1 when
the sheet or the grades cannot be read (one line), 2 for a usage error.
"""

from __future__ import annotations

import csv
import json
from pathlib import Path

from casino.cmdline import ArgumentParser
from casino.grade.rubricbook import MarksError
from casino.grade.sheet import merge_marks
from casino.shell import Streams


def marks(argv: list[str], streams: Streams) -> int:
    """``casino grade marks``."""
    parser = ArgumentParser(
        out=streams.stdout,
        prog="casino grade marks",
        description="Merge a marker's filled sheet: the rubric's final grade in rubric.csv "
        "and the platform's grade import (moodle.csv, canvas.csv, blackboard.csv), the late rule "
        "applied last.",
    )
    parser.add_argument("sheet", metavar="SHEET.csv", help="the filled marking/sheet.csv")
    parser.add_argument(
        "--out", metavar="DIR", help="the graded course (default: the folder above marking/)"
    )
    args = parser.parse_args(argv)
    sheet = Path(args.sheet)
    out = Path(args.out) if args.out else sheet.resolve().parent.parent
    try:
        written = merge_marks(sheet, out)
    except (MarksError, OSError, csv.Error, json.JSONDecodeError, KeyError) as error:
        streams.error(f"casino grade marks: {error}")
        return 1
    streams.stdout.write(f"merged {sheet}: wrote {written} in {out}\n")
    return 0
