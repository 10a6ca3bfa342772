"""A generated course for ``casino grade``'s tests: tiny transcripts and student programs of
every kind a grader meets (correct, one wrong space, a crash, an endless loop, a 100 MB flood,
a memory hog, a compile failure, a program that leaves a process behind).

Every student folder holds ``run.sh`` (the course's ``--run`` is ``sh run.sh``), so Python and
Java submissions share one command line; the course's ``--build`` compiles ``*.java`` when
there is any.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

from casino.harness.runners.sandbox import isolation_works

ROOT = Path(__file__).resolve().parents[2]
SANDBOXED = isolation_works()
"""Whether programs are graded in their own sandbox here; where not, the tests grade them
with ``--trust-submissions`` (and the sandbox's own tests skip)."""
UNSANDBOXED = () if SANDBOXED else ("--trust-submissions",)
JAVAC = shutil.which("javac") is not None and shutil.which("java") is not None

RUN = "sh run.sh"
BUILD = "if ls *.java >/dev/null 2>&1; then javac -d . *.java; fi"
STEP_TIMEOUT = 3

TRANSCRIPTS = {
    "greet.yaml": f"""\
name: greets
steps:
  - out: "name? "
  - in: Ada
  - out: "hello Ada\\n"
timeout: {STEP_TIMEOUT}
""",
    "state/chain.yaml": f"""\
name: remembers
runs:
  - args: [save, "7"]
    steps:
      - out: "saved 7\\n"
  - args: [load]
    steps:
      - out: "loaded 7\\n"
    exit: 0
timeout: {STEP_TIMEOUT}
points: 2
""",
    "args.yaml": f"""\
name: counts
args: [a, b, c]
steps:
  - out: "3 args\\n"
exit: 0
timeout: {STEP_TIMEOUT}
""",
    "reference.yaml": """\
name: casino's own wording
program: demo
reference: casino
steps:
  - out: "anything\\n"
""",
}
"""The course: 4 points (greet 1, chain 2, args 1); the reference transcript is left out."""

COLUMNS = ["args.yaml", "greet.yaml", "state/chain.yaml"]
MAX = 4

CORRECT = """\
import sys
args = sys.argv[1:]
if args[:1] == ["save"]:
    open("state.txt", "w").write(args[1])
    print("saved", args[1])
elif args == ["load"]:
    print("loaded", open(STATE).read())
elif args:
    ARGS
else:
    name = input("name? ")
    GREET
"""


def python_program(
    state: str = '"state.txt"',
    args: str = 'print(len(args), "args")',
    greet: str = 'print("hello " + name)',
) -> str:
    """The correct program, with one of its three answers replaced."""
    return CORRECT.replace("STATE", state).replace("ARGS", args).replace("GREET", greet)


ORPHAN_SECONDS = "313"
"""How long the orphan's background process would sleep (how a leftover is recognised)."""

FLOOD = """\
chunk = "y" * 65535 + "\\n"
    for _ in range(1600):  # 100 MB
        sys.stdout.write(chunk)"""
ORPHAN = f"""\
import subprocess
    sleeper = ["sleep", "{ORPHAN_SECONDS}"]
    subprocess.Popen(sleeper, start_new_session=True, stdout=subprocess.DEVNULL)
    print("hello " + name)"""

ENDLESS = "import time\nwhile True:\n    time.sleep(1)\n"
"""The endless loop: it waits, where a ``while True: pass`` would burn a CPU until each
step's timeout (3 s, four runs per grading, twice per course: a quarter of the suite's CPU
went there). The grader sees the same thing, a run that never answers and times out; its CPU
limit has tests of its own (``test_sandbox_isolation.py``)."""

Points = tuple[int, int, int]
"""Points expected in each of :data:`COLUMNS`."""

KINDS: dict[str, tuple[str, Points]] = {
    "correct": (python_program(), (1, 1, 2)),
    "wrong_space": (python_program(greet='print("hello  " + name)'), (1, 0, 2)),
    "crash": (python_program(state='"missing.txt"'), (1, 1, 1)),  # the chain's run 2 of 2
    "loop": (ENDLESS, (0, 0, 0)),
    "flood": (python_program(greet=FLOOD), (1, 0, 2)),
    "memory": (python_program(args="hog = bytearray(2 << 30)"), (0, 1, 2)),
    "orphan": (python_program(greet=ORPHAN), (1, 1, 2)),
}
"""Python submissions: the program and the points it should earn."""

JAVA_CORRECT = """\
import java.nio.file.*;
import java.util.Scanner;

public class Main {
    public static void main(String[] args) throws Exception {
        if (args.length == 2 && args[0].equals("save")) {
            Files.writeString(Path.of("state.txt"), args[1]);
            System.out.println("saved " + args[1]);
        } else if (args.length == 1 && args[0].equals("load")) {
            System.out.println("loaded " + Files.readString(Path.of("state.txt")));
        } else if (args.length > 0) {
            System.out.println(args.length + " args");
        } else {
            System.out.print("name? ");
            System.out.flush();
            System.out.println("hello " + new Scanner(System.in).nextLine());
        }
    }
}
"""
JAVA_BROKEN = "public class Main {\n    public static void main(String[] args) {\n"

WITNESS = '[ -z "$GRADE_WITNESS" ] || echo "STUDENT $*" >> "$GRADE_WITNESS"\n'
"""Each run of a student's program is noted in the file ``$GRADE_WITNESS`` (if set)."""
PYTHON_RUN = 'exec python3 "$(dirname "$0")/main.py" "$@"\n'
JAVA_RUN = 'exec java -cp "$(dirname "$0")" Main "$@"\n'


def write_course(root: Path, counts: dict[str, int]) -> dict[str, Points]:
    """Write ``root/transcripts`` and ``root/submissions`` with ``counts[kind]`` students of
    each kind (``java``, ``compile_fail`` besides :data:`KINDS`); each student's expected
    points, by name."""
    for name, text in TRANSCRIPTS.items():
        path = root / "transcripts" / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    expected = {}
    for kind, count in counts.items():
        for number in range(count):
            student = f"{kind}-{number:02d}"
            folder = root / "submissions" / student
            folder.mkdir(parents=True)
            witness = WITNESS.replace("STUDENT", student)
            if kind in ("java", "compile_fail"):
                source = JAVA_CORRECT if kind == "java" else JAVA_BROKEN
                (folder / "Main.java").write_text(source, encoding="utf-8")
                (folder / "run.sh").write_text(witness + JAVA_RUN, encoding="utf-8")
                expected[student] = (1, 1, 2) if kind == "java" else (0, 0, 0)
            else:
                program, points = KINDS[kind]
                (folder / "main.py").write_text(program, encoding="utf-8")
                (folder / "run.sh").write_text(witness + PYTHON_RUN, encoding="utf-8")
                expected[student] = points
    return expected


MEASURE = """\
import resource, subprocess, sys
status = subprocess.run(sys.argv[2:]).returncode
with open(sys.argv[1], "w") as out:
    out.write(str(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss))
sys.exit(status)
"""
"""Runs a command and writes the largest resident set (KiB) of it and of every descendant it
waited for: an upper bound on the grader's own memory."""


@dataclass(frozen=True)
class Graded:
    """What one ``casino grade`` did."""

    status: int
    out: str
    err: str
    max_rss_kib: int


def grade(root: Path, *options: str, out: str = "grades", tmp: Path | None = None) -> Graded:
    """``casino grade`` on the course in ``root``, as a separate process (``TMPDIR=tmp``,
    the runs noted in ``root/witness.log``)."""
    env = dict(os.environ, PYTHONPATH=str(ROOT), GRADE_WITNESS=str(root / "witness.log"))
    env["XDG_CACHE_HOME"] = str(root / "grader-cache")  # the cache's signing key
    if tmp is not None:
        env["TMPDIR"] = str(tmp)
    argv = [sys.executable, "-m", "casino", "grade", str(root / "submissions")]
    argv += ["--transcripts", str(root / "transcripts"), "--run", RUN, "--build", BUILD]
    argv += ["--out", str(root / out), "--memory", "512", *UNSANDBOXED, *options]
    rss = root / "rss.txt"
    done = subprocess.run(
        [sys.executable, "-c", MEASURE, str(rss), *argv],
        capture_output=True,
        text=True,
        env=env,
        timeout=300,
        check=False,
    )
    return Graded(done.returncode, done.stdout, done.stderr, int(rss.read_text()))


def witnessed(root: Path) -> list[str]:
    """The runs noted so far (``student args…``), and forget them."""
    log = root / "witness.log"
    lines = log.read_text().splitlines() if log.exists() else []
    log.unlink(missing_ok=True)
    return lines
