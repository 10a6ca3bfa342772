"""Coverage guidance: the reference traced line by line while it records a session, each
window of sessions tried greedily in the order that reaches new reference code soonest, and
the reference coverage explore reached said at the end."""

from __future__ import annotations

import contextlib
import io
import itertools
import subprocess
import sys
from pathlib import Path

from casino.__main__ import main as casino_main
from casino.explore import engine
from casino.explore.coverage import CASINO, Coverage, executable_lines, is_reference
from casino.explore.engine import Budget, Explorer, sessions
from casino.explore.judge import Program, reference_transcript
from casino.explore.nimsys import NimsysGrammar
from casino.harness.runners.base import Target
from casino.harness.runners.inproc import InProcessRunner
from casino.nim import ranking

C = NimsysGrammar("c")
HONEST = Program(InProcessRunner(), Target("nimsys"))


def test_the_tracer_records_arcs_of_the_reference_only() -> None:
    coverage = Coverage()
    with coverage.tracing() as ran:
        assert reference_transcript(C, next(sessions(C, 0))) is not None
    files = {name for name, _first, _second in ran}
    assert str(CASINO / "nim" / "shell.py") in files
    assert all(is_reference(name) for name in files)
    judging = (str(CASINO / "harness"), str(CASINO / "explore"))
    assert not any(name.startswith(judging) for name in files)
    assert coverage.add(ran) == len(ran) > 0
    assert coverage.add(ran) == 0  # nothing new the second time


def test_the_lines_of_a_module_are_its_functions_lines_without_def_lines() -> None:
    lines = executable_lines(ranking.__file__)
    source = Path(ranking.__file__).read_text(encoding="utf-8").splitlines()
    assert lines and all(not source[n - 1].lstrip().startswith("def ") for n in lines)
    assert all(not source[n - 1].startswith(("import", "from")) for n in lines)


def test_a_report_counts_reached_lines_within_the_modules_lines() -> None:
    coverage = Coverage()
    for session in itertools.islice(sessions(C, 0), 8):
        with coverage.tracing() as ran:
            reference_transcript(C, session)
        coverage.add(ran)
    report = coverage.report()
    assert 0 < report.reached < report.total
    assert all(0 <= reached <= total for _name, reached, total in report.files)
    assert report.summary().startswith(f"reference coverage: {report.reached} of {report.total}")


def test_guidance_reorders_within_windows_and_tries_the_same_sessions() -> None:
    count = 3 * engine.WINDOW
    plain = Explorer(C, HONEST, Budget(runs=2000))
    guided = Explorer(C, HONEST, Budget(runs=2000), coverage=Coverage())
    plain_order = [number for number, _ in plain._numbered(0, count)]
    guided_order = [number for number, _ in guided._numbered(0, count)]
    assert plain_order == list(range(1, count + 1))
    assert guided_order != plain_order
    for start in range(0, count, engine.WINDOW):
        window = guided_order[start : start + engine.WINDOW]
        assert sorted(window) == list(range(start + 1, start + engine.WINDOW + 1))
    again = Explorer(C, HONEST, coverage=Coverage())
    assert [number for number, _ in again._numbered(0, count)] == guided_order  # seeded
    assert _order_in_a_fresh_process(count) == guided_order  # whatever ran before


ORDER = """
from casino.explore.coverage import Coverage
from casino.explore.engine import Explorer
from casino.explore.judge import Program
from casino.explore.nimsys import NimsysGrammar
from casino.harness.runners.base import Target
from casino.harness.runners.inproc import InProcessRunner
explorer = Explorer(NimsysGrammar("c"), Program(InProcessRunner(), Target("nimsys")),
                    coverage=Coverage())
print(" ".join(str(number) for number, _ in explorer._numbered(0, {count})))
"""


def _order_in_a_fresh_process(count: int) -> list[int]:
    done = subprocess.run(
        [sys.executable, "-c", ORDER.format(count=count)],
        capture_output=True,
        text=True,
        check=True,
        timeout=600,
    )
    return [int(word) for word in done.stdout.split()]


def test_guidance_stops_once_windows_reach_nothing_new() -> None:
    explorer = Explorer(C, HONEST, Budget(runs=2000), coverage=Coverage())
    order = [number for number, _ in explorer._numbered(0, 400)]
    assert sorted(order) == list(range(1, 401))
    tail = order[-100:]
    assert tail == sorted(tail)  # saturated long before: the plain order


def test_an_honest_program_is_judged_on_every_session_either_way() -> None:
    guided = Explorer(C, HONEST, Budget(runs=2000), coverage=Coverage())
    assert guided.find(0, 40) is None and guided.tried == 40 - _refused(40)


def _refused(count: int) -> int:
    """How many of the first ``count`` sessions the reference refuses (never judged)."""
    return sum(
        reference_transcript(C, session) is None
        for session in itertools.islice(sessions(C, 0), count)
    )


def test_the_command_says_the_reference_coverage_reached() -> None:
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        status = casino_main(["explore", "--reference", "nimsys", "--sessions", "20", "--coverage"])
    assert status == 0 and out.getvalue().startswith("no difference in ")
    said = err.getvalue().splitlines()
    summary = [line for line in said if "reference coverage:" in line]
    assert len(summary) == 1 and summary[0].startswith("casino explore: reference coverage: ")
    shell = [line for line in said if line.startswith("  casino/nim/shell.py: ")]
    assert len(shell) == 1 and shell[0].endswith(" lines")
