"""Late work as the seeds state it: Nimsys's 20 % per day with no mark after four days, video
poker's 2^(n-1) points per day of delay, counted in started cycles of 24 hours; extension
lists, submission-time lists (Moodle's worksheet) and what a bad one says."""

from __future__ import annotations

import os
from datetime import UTC, datetime, timedelta, timezone
from pathlib import Path
from zoneinfo import ZoneInfo

import pytest

from casino.grade.course import Student
from casino.grade.intake import Intake
from casino.grade.late import (
    LateError,
    LateRule,
    Zone,
    assess,
    days_late,
    late_lines,
    parse_rule,
    parse_when,
    parse_zone,
    read_extensions,
    resolve,
)
from casino.grade.submitted import (
    CANVAS_LATE,
    CANVAS_ON_TIME,
    FILE_TIME,
    download_times,
    read_submitted,
)
from casino.grade.term import read_term

MELBOURNE = timezone(timedelta(hours=10))
DUE = datetime(2019, 5, 31, 15, 0, tzinfo=MELBOURNE)
"""Project C's "3pm, Friday 31 May, 2019"."""


def final(rule: str, raw: float, worth: float, late: timedelta) -> float:
    known = assess(parse_rule(rule), DUE, (DUE + late, "test", False), raw, worth)
    return known.final


def test_nimsys_seed_example_a_mark_of_10_one_day_late_is_8() -> None:
    # "Suppose your project gets a mark of 10 but is submitted within 1 day after the
    # deadline, then you get 20% penalty and the mark will be 8 after penalty."
    assert final("nimsys", 10, 11.5, timedelta(hours=23)) == pytest.approx(8)
    # Project A's: "a mark of 5 … the mark will be 4".
    assert final("nimsys", 5, 10, timedelta(days=1)) == pytest.approx(4)


def test_nimsys_no_mark_after_four_days() -> None:
    # "There will be no mark for submissions after 3pm 4 June, 2019" (the due plus 4 days).
    assert final("nimsys", 10, 11.5, timedelta(days=4)) == pytest.approx(2)
    assert final("nimsys", 10, 11.5, timedelta(days=4, seconds=1)) == 0
    assert final("nimsys", 10, 11.5, timedelta(days=2, hours=1)) == pytest.approx(4)


def test_videopoker_seed_example_two_to_the_n_minus_one_points() -> None:
    # "reports submitted up to 1 day late will be penalized in 2^0 = 1 points …; up to 2 days
    # late … 2^1 = 2 points", on a grade out of 20.
    assert final("videopoker", 15, 20, timedelta(hours=24)) == pytest.approx(14)
    assert final("videopoker", 15, 20, timedelta(hours=24, seconds=1)) == pytest.approx(13)
    assert final("videopoker", 15, 20, timedelta(days=3)) == pytest.approx(11)
    assert final("videopoker", 15, 20, timedelta(days=5)) == 0  # 16 points: never below 0
    # A score out of 7 loses 2^(n-1) twentieths of it.
    assert final("videopoker", 7, 7, timedelta(hours=30)) == pytest.approx(7 - 2 * 7 / 20)


def test_on_time_is_no_penalty_and_days_are_started_cycles_of_24_hours() -> None:
    assert days_late(DUE, DUE) == 0
    assert days_late(DUE - timedelta(days=3), DUE) == 0
    assert days_late(DUE + timedelta(seconds=1), DUE) == 1
    assert days_late(DUE + timedelta(days=1), DUE) == 1
    assert days_late(DUE + timedelta(days=1, microseconds=1), DUE) == 2
    assert final("nimsys", 10, 10, timedelta(0)) == 10


def test_formulas_for_other_courses() -> None:
    assert final("percent:10", 8, 10, timedelta(days=3)) == pytest.approx(5.6)
    assert final("points:0.5:2", 8, 10, timedelta(days=2)) == pytest.approx(7)
    assert final("points:0.5:2", 8, 10, timedelta(days=3)) == 0
    assert final("doubling:10", 10, 10, timedelta(days=2)) == pytest.approx(8)
    assert final("none", 8, 10, timedelta(days=9)) == 8


def test_a_platform_late_mark_without_a_time_counts_as_one_day() -> None:
    known = assess(parse_rule("nimsys"), DUE, (None, "Canvas", True), 10, 10)
    assert known.days == 1
    assert known.final == pytest.approx(8)
    assert assess(parse_rule("nimsys"), DUE, (None, "Canvas", False), 10, 10).days == 0


def test_the_feedback_lines_say_raw_days_penalty_and_final() -> None:
    rule = parse_rule("nimsys")
    known = assess(rule, DUE, (DUE + timedelta(hours=30), "--submitted", False), 10, 11.5)
    assert late_lines(known, rule) == [
        "submitted 2019-06-01 21:00 +1000 (--submitted); due 2019-05-31 15:00 +1000",
        "2 days late (20% of the score per day late; no mark after 4 days late): raw 10, "
        "penalty 4, final 6/11.5",
    ]


@pytest.mark.parametrize(
    "text", ["", "nimsis", "percent", "percent:x", "doubling:0", "percent:20:4:1", "=1+1"]
)
def test_a_rule_that_is_none_is_refused_in_one_line(text: str) -> None:
    with pytest.raises(LateError, match=r"--late: .*"):
        parse_rule(text)


def test_rules_by_name_are_the_seeds() -> None:
    assert parse_rule("nimsys") == LateRule("percent", 20, 4, "nimsys")
    assert parse_rule("VideoPoker").kind == "doubling"


def test_times_with_and_without_an_offset() -> None:
    assert parse_when("2019-05-31T15:00+10:00") == DUE
    assert parse_when("2019-05-31T05:00Z") == DUE
    assert parse_when("2019-05-31 15:00").tzinfo is not None  # the machine's zone
    with pytest.raises(LateError, match=r"--due: expected a date and time .* got '31/5'"):
        parse_when("31/5")


def test_an_extension_list_with_or_without_a_header() -> None:
    text = (
        "student,new due\nAda Lovelace_101, 2019-06-02T15:00+10:00\n\n202,2019-06-01T15:00+10:00\n"
    )
    found = read_extensions(text, "ext.csv")
    assert found == {
        "Ada Lovelace_101": DUE + timedelta(days=2),
        "202": DUE + timedelta(days=1),
    }
    with pytest.raises(LateError, match=r"ext\.csv: line 2: expected a date"):
        read_extensions("a,2019-06-02T15:00\nb,soon\n", "ext.csv")


def test_a_list_naming_nobody_is_refused() -> None:
    aliases = {"202": "turingalan_202"}
    assert resolve(["202", "ada"], ["ada", "turingalan_202"], aliases, "x") == {
        "202": "turingalan_202",
        "ada": "ada",
    }
    with pytest.raises(LateError, match="--extensions: 'adda' is none of the students"):
        resolve(["adda"], ["ada"], aliases, "--extensions")


def test_moodles_grading_worksheet_gives_the_times() -> None:
    worksheet = (
        "\ufeffIdentifier,Full name,Email address,Status,Grade,Maximum Grade,Grade can be changed,"
        "Last modified (submission),Last modified (grade),Feedback comments\n"
        "Participant 101,Ada Lovelace,ada@example.org,Submitted for grading,,100.00,Yes,"
        '"Saturday, 1 June 2019, 9:00 PM",-,\n'
        "Participant 102,Alan Turing,alan@example.org,No submission,,100.00,Yes,-,-,\n"
    ).lstrip("\ufeff")
    found = read_submitted(worksheet, "worksheet.csv")
    assert found["Participant 102"] is None
    when = found["Participant 101"]
    assert when is not None and when.replace(tzinfo=None) == datetime(2019, 6, 1, 21, 0)
    assert read_submitted("ada,2019-06-01T21:00+10:00\n", "t.csv") == {
        "ada": DUE + timedelta(hours=30)
    }


def test_canvas_late_marker_is_read_from_its_place_in_the_name(tmp_path: Path) -> None:
    for name in ("ada_201_9001_my_late_work_1_2.py", "alan_LATE_202_9002_main.py"):
        (tmp_path / name).write_text("print()\n")
    students = [Student("ada_201", tmp_path), Student("alan_202", tmp_path)]
    found = download_times(tmp_path, Intake("canvas", students))
    assert found == {
        "ada_201": (None, CANVAS_ON_TIME, False),
        "alan_202": (None, CANVAS_LATE, True),
    }


def test_a_folder_s_newest_file_time_is_the_last_resort(tmp_path: Path) -> None:
    for name, stamp in (("a.py", 1_000_000_000), ("b.py", 1_500_000_000)):
        (tmp_path / "ada" / name).parent.mkdir(exist_ok=True)
        (tmp_path / "ada" / name).write_text("x\n")
        os.utime(tmp_path / "ada" / name, (stamp, stamp))
    found = download_times(tmp_path, Intake("folders", [Student("ada", tmp_path / "ada")]))
    when, source, marked = found["ada"]
    assert when is not None and when.timestamp() == 1_500_000_000
    assert (source, marked) == (FILE_TIME, False)


def test_a_platform_list_may_name_more_than_the_download() -> None:
    assert resolve(["Participant 103", "ada"], ["ada"], {}, "", strict=False) == {"ada": "ada"}


LISBON = ZoneInfo("Europe/Lisbon")
WORKSHEET = (
    "Identifier,Full name,Status,Last modified (submission),Grade\n"
    'Participant 101,Ada Lovelace,Submitted,"Friday, 31 May 2019, 2:30 PM",\n'
    'Participant 102,Alan Turing,Submitted,"Friday, 31 May 2019, 4:30 PM",\n'
)
"""A Lisbon course's worksheet: Ada half an hour before the 3 PM due, Alan 90 minutes after;
Moodle states no zone (the times are in the downloader's Moodle time zone)."""
LISBON_DUE = "2019-05-31T15:00+01:00"


def test_a_lisbon_worksheet_is_read_in_lisbon_with_timezone() -> None:
    """On time in Lisbon is on time on any machine once the zone is said (read in UTC, Ada
    would be a day late, silently: the bug)."""
    due = parse_when(LISBON_DUE)
    zone = Zone(LISBON)
    found = read_submitted(WORKSHEET, "worksheet.csv", zone)
    assert found["Participant 101"] == datetime(2019, 5, 31, 14, 30, tzinfo=LISBON)
    assert [days_late(when, due) for when in found.values() if when] == [0, 1]
    in_utc = read_submitted(WORKSHEET, "worksheet.csv", Zone(UTC))
    assert [days_late(when, due) for when in in_utc.values() if when] == [1, 1]
    assert zone.unzoned == ["worksheet.csv: line 2", "worksheet.csv: line 3"]


def test_a_time_that_states_its_zone_keeps_it_and_is_not_noted() -> None:
    zone = Zone(LISBON)
    assert parse_when("2019-05-31T15:00+10:00", "t", zone) == DUE
    assert read_extensions("a,2019-05-31T15:00Z\n", "ext.csv", zone)["a"].utcoffset() == (
        timedelta(0)
    )
    assert zone.unzoned == []
    assert parse_when("2019-05-31T15:00", "t", zone).tzinfo is LISBON
    assert zone.unzoned == ["t"]


@pytest.mark.parametrize(
    ("text", "offset"),
    [("Europe/Lisbon", timedelta(hours=1)), ("UTC", timedelta(0)), ("+05:30", timedelta(hours=5.5)),
     ("-0300", timedelta(hours=-3))],
)  # fmt: skip
def test_timezone_takes_a_name_or_an_offset(text: str, offset: timedelta) -> None:
    assert datetime(2019, 5, 31, 12, 0, tzinfo=parse_zone(text)).utcoffset() == offset


@pytest.mark.parametrize("text", ["Mars/Olympus", "+25:00", "", "../etc/passwd"])
def test_an_unknown_timezone_is_one_clear_error(text: str) -> None:
    with pytest.raises(LateError, match="--timezone: unknown time zone"):
        parse_zone(text)


def test_times_without_a_zone_read_in_the_machines_are_warned_of(tmp_path: Path) -> None:
    sheet = tmp_path / "worksheet.csv"
    sheet.write_text(WORKSHEET)
    term = read_term(LISBON_DUE, None, None, str(sheet))
    assert term is not None
    warning = term.zone_warning()
    assert warning is not None and warning.startswith(
        f"casino grade: warning: 2 times state no time zone (the first: {sheet}: line 2); "
        "read in this machine's, "
    )
    assert warning.endswith("give --timezone ZONE (e.g. Europe/Lisbon) to say which")
    told = read_term(LISBON_DUE, None, None, str(sheet), "Europe/Lisbon")
    assert told is not None and told.zone_warning() is None
    assert told.listed["Participant 101"] == datetime(2019, 5, 31, 14, 30, tzinfo=LISBON)
    with pytest.raises(LateError, match="--timezone needs --due"):
        read_term(None, None, None, None, "UTC")
