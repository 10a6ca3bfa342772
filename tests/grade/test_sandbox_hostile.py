"""A course with dishonest and hostile students: none of them changes anyone else's grade.

Each attack is a student's program written here (Python, or shell where it only sends signals
or makes folders): the cheater climbs its ancestors in ``/proc`` to its grader's command line,
to read the transcripts (its own grader's: on a machine running other graders, the first one in
``/proc`` may be someone else's); the vandal looks for the submissions and ``--out`` folders to
overwrite its classmates' programs and the grade cache; kill-grader and stop-grader signal
their parent, its process group and every process they can see; a fork bomb (bounded) fills its
process limit; a squatter makes the folders the grader would use next; and two honest students
have awkward folders (a name in Latin-1 bytes, 1,100 nested folders).

Every honest student must get exactly the grade they get in a course without the others, on
the first grading and on a cached re-run, and the course always ends with its gradebook.

What each course costs is kept small (issue 31): one correct student, not three; the student
1,100 folders deep (a test of the grader's folder handling, which no attacker reaches) only in
the course without the hostile ones; the attacks that must work when the programs are trusted
in one trusted course graded once; the honest students, the squatter and the two attackers that
only send signals are shell scripts (their language is not what is tested, and a shell starts
for a hundredth of a Python's CPU); every Python student is started with ``python3 -S`` (none
needs ``site``, a third of a Python's start).
"""

from __future__ import annotations

import csv
import os
import subprocess
import sys
import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest

from casino.harness.runners.folders import make_folders, remove_tree
from casino.harness.runners.sandbox import isolation_works
from grade.as_nobody import nobody_pythonpath
from grade.grade_support import PYTHON_RUN, ROOT, python_program, write_course

pytestmark = pytest.mark.skipif(not isolation_works(), reason="no bubblewrap sandbox here")

FIND_GRADER = """\
import os, sys

def grader_words():
    pid = os.getppid()
    while pid > 1:  # its own grader: an ancestor (another grader on the machine is no help)
        try:
            words = open(f"/proc/{pid}/cmdline", "rb").read().split(b"\\0")
            stat = open(f"/proc/{pid}/stat", "rb").read()
        except OSError:
            return None
        if b"grade" in words and b"--transcripts" in words:
            return [w.decode(errors="replace") for w in words]
        pid = int(stat[stat.rindex(b")") + 2 :].split()[1])
    return None

words = grader_words()
"""

CHEATER = (
    FIND_GRADER
    + """\
if words is None:
    print("no grader to copy from")
    sys.exit(0)
transcripts = words[words.index("--transcripts") + 1]
assert os.path.exists(os.path.join(transcripts, "args.yaml"))  # the answers are there
"""
    + python_program()
)
"""Copies from the transcripts if it can find them (here: behaves as the right program)."""

VANDAL = (
    FIND_GRADER
    + """\
import glob
targets = [path for name in ("main.py", "run.sh") for up in ("..", "../..")
           for path in glob.glob(f"{up}/*/{name}")]
if words is not None:
    submissions = words[words.index("grade") + 1]
    out = words[words.index("--out") + 1]
    targets += glob.glob(os.path.join(submissions, "*", "main.py"))
    targets += glob.glob(os.path.join(submissions, "*", "run.sh"))
    targets += glob.glob(os.path.join(out, "cache", "*.json"))
    targets += glob.glob(os.path.join(out, "gradebook.*"))
for path in targets:
    try:
        with open(path, "w") as handle:
            handle.write("print('vandalised')\\n")
    except OSError:
        pass
print("done")
"""
)

KILL_GRADER = """\
read -r _ _ _ _ group _ < /proc/$PPID/stat
kill -9 -"$group" 2>/dev/null
for entry in /proc/[0-9]*; do
    [ "${entry#/proc/}" = "$$" ] || kill -9 "${entry#/proc/}" 2>/dev/null
done
echo still here
"""
"""Kills its parent's process group, then every process it can see (a shell script: ``kill``
is the shell's own, so nothing is started for it)."""

STOP_GRADER = """\
kill -STOP "$PPID" 2>/dev/null
for entry in /proc/[0-9]*; do
    [ "${entry#/proc/}" = "$$" ] || kill -STOP "${entry#/proc/}" 2>/dev/null
done
echo still here
"""
"""Stops its parent and every process it can see (a shell script, as the killer)."""

FORK_BOMB = """\
import os, time
kids = 0
for _ in range(400):
    try:
        pid = os.fork()
    except OSError:
        break
    if pid == 0:
        time.sleep(2)
        os._exit(0)
    kids += 1
print(kids, "kids")
"""
"""Forks until its limit (at most 400), each child sleeping 2 s: bounded, and quick."""

CORRECT_SH = """\
case "$1" in
save) echo "$2" > state.txt; echo "saved $2" ;;
load) printf "loaded %s\\n" "$(cat state.txt)" ;;
"") printf 'name? '; read -r name; echo "hello $name" ;;
*) echo "$# args" ;;
esac
"""
"""The correct program in shell: its ``run.sh`` is the whole of it."""

SQUATTER = (
    """\
for base in "${TMPDIR:-/tmp}"/casino-grade-* "${PWD%/*}"/*; do
    [ -d "$base" ] || continue
    folders=""
    for number in $(seq 0 19); do
        folders="$folders $base/fixtures/$number $base/fixtures-$number"
    done
    mkdir -p $folders 2>/dev/null
done
"""
    + CORRECT_SH
)
"""Makes the folders a grader might use next, then answers right (a shell script). (It squats
only where the grader keeps its temporary folders, which the tests make private: ``TMPDIR``.)"""

KEYRING = """\
import ctypes, platform, sys
NR = {"x86_64": (248, 249, 250), "aarch64": (217, 218, 219)}.get(platform.machine(), (0, 0, 0))
libc = ctypes.CDLL(None, use_errno=True)
libc.syscall.restype = ctypes.c_long
NAME = ("casino-answer-TOKEN-" + " ".join(sys.argv[1:])).encode()
"""
KEY_KEEPER = (
    KEYRING
    + """\
if sys.argv[1:] == ["a", "b", "c"]:
    key = libc.syscall(NR[0], b"user", NAME, b"3 args\\n", 7, -4)  # the user's keyring
    libc.syscall(NR[2], 15, key, 60)  # KEYCTL_SET_TIMEOUT: gone in a minute
"""
    + python_program()
)
"""A right program that also leaves its answers in the kernel keyring, for a classmate."""
KEY_READER = (
    KEYRING
    + """\
key = libc.syscall(NR[1], b"user", NAME, None, 0)
answer = ctypes.create_string_buffer(100)
size = libc.syscall(NR[2], 11, key, answer, 100) if key > 0 else -1  # KEYCTL_READ
print(answer.raw[:size].decode() if size > 0 else "no key", end="" if size > 0 else "\\n")
"""
)
"""Implements nothing: prints what the keeper left in the keyring (right answers if any)."""

HOSTILE = {
    "key_reader": KEY_READER,
    "cheater": CHEATER,
    "vandal": VANDAL,
    "fork_bomb": FORK_BOMB,
}
"""The attackers written in Python, by name."""
SHELL_HOSTILE = {"kill_grader": KILL_GRADER, "stop_grader": STOP_GRADER}
"""The attackers written in shell (their ``run.sh``), by name."""
ATTACKERS = [*HOSTILE, *SHELL_HOSTILE]
HONEST = ["correct-00", "squatter"]
JOSE = os.fsdecode(b"Jos\xe9")
SHOWN_JOSE = "Jos\\xe9"
DEEP = 1100
QUICK_RUN = PYTHON_RUN.replace("python3", "python3 -S")
"""How each student here is started: without ``site`` (none needs it), a third cheaper."""


def add_shell(root: Path, name: str, program: str = CORRECT_SH) -> Path:
    """A student whose program is a shell script, :data:`CORRECT_SH` unless told."""
    folder = root / "submissions" / name
    folder.mkdir(parents=True)
    (folder / "run.sh").write_text(program, encoding="utf-8")
    return folder


def add_student(root: Path, name: str, program: str) -> Path:
    folder = root / "submissions" / name
    folder.mkdir(parents=True)
    (folder / "main.py").write_text(program, encoding="utf-8")
    (folder / "run.sh").write_text(QUICK_RUN, encoding="utf-8")
    return folder


def make_course(root: Path, hostile: bool) -> None:
    """An honest student, the squatter and José; and the hostile ones, or else the deep one."""
    write_course(root, {})
    (root / "tmp").mkdir()
    add_shell(root, "correct-00")
    add_shell(root, "squatter", SQUATTER)
    add_shell(root, JOSE)
    if not hostile:
        deep = add_shell(root, "deep")
        nested = deep.joinpath(*["d"] * DEEP)
        make_folders(deep, nested)
        (nested / "note.txt").write_text("deep down\n")
        return
    for name, program in HOSTILE.items():
        add_student(root, name, program)
    for name, program in SHELL_HOSTILE.items():
        add_shell(root, name, program)
    add_student(root, "key_keeper", KEY_KEEPER)


def grade(
    root: Path,
    *more: str,
    out: str = "grades",
    user: int | None = None,
    pythonpath: str | None = None,
) -> str:
    """``casino grade`` on the course (``--jobs 2``, ``--processes 64``): its stdout; the
    status must be 0 whatever the students do."""
    python = sys.executable if user is None else "/usr/bin/python3"
    env = dict(os.environ, PYTHONPATH=pythonpath or PYTHONPATH)
    env["XDG_CACHE_HOME"] = str(root / "grader-cache")
    env["TMPDIR"] = str(root / "tmp")  # trusted, a program could write where the grader works
    (root / "tmp").mkdir(exist_ok=True)
    argv = [python, "-m", "casino", "grade", str(root / "submissions")]
    argv += ["--transcripts", str(root / "transcripts"), "--run", "sh run.sh"]
    argv += ["--out", str(root / out), "--jobs", "2", "--processes", "64", *more]
    if user is not None:
        argv = ["setpriv", f"--reuid={user}", f"--regid={user}", "--clear-groups", *argv]
        env["HOME"] = str(root)
    done = subprocess.run(argv, capture_output=True, text=True, env=env, timeout=240, check=False)
    assert (done.returncode, done.stderr) == (0, "")
    return done.stdout


def rows(root: Path, out: str = "grades") -> dict[str, list[str]]:
    with open(root / out / "gradebook.csv", newline="", encoding="utf-8") as handle:
        return {row[0]: row[1:] for row in csv.reader(handle)}


def originals(root: Path) -> dict[str, dict[str, bytes]]:
    """Each student's ``main.py`` (if any) and ``run.sh``."""
    found = {}
    for folder in (root / "submissions").iterdir():
        files = [folder / name for name in ("main.py", "run.sh")]
        found[folder.name] = {path.name: path.read_bytes() for path in files if path.exists()}
    return found


FULL = ["4", "4", "1", "1", "2"]
PYTHONPATH = os.pathsep.join([str(ROOT), *(p for p in sys.path if p.endswith("site-packages"))])
"""casino and what it needs, for a grader running the system's Python as another user."""
HONEST_ROWS = [*HONEST, SHOWN_JOSE]
"""The honest students of the course with the hostile ones."""


@pytest.fixture(scope="module")
def baseline(tmp_path_factory: pytest.TempPathFactory) -> Iterator[dict[str, list[str]]]:
    """The honest students' rows in a course without the hostile ones."""
    root = tmp_path_factory.mktemp("honest")
    make_course(root, hostile=False)
    grade(root)
    yield rows(root)
    remove_tree(root / "submissions")  # 1,100 folders deep: too deep for pytest's cleanup


@pytest.fixture(scope="module")
def hostile(
    tmp_path_factory: pytest.TempPathFactory,
) -> Iterator[tuple[Path, dict[str, dict[str, bytes]], str]]:
    """The course with the hostile students, graded once; its originals before grading."""
    root = tmp_path_factory.mktemp("hostile")
    make_course(root, hostile=True)
    before = originals(root)
    yield root, before, grade(root)
    remove_tree(root / "submissions")


def test_honest_students_get_their_grade_in_a_course_without_others(
    baseline: dict[str, list[str]],
) -> None:
    honest = [*HONEST_ROWS, "deep"]
    assert {name: baseline[name] for name in honest} == dict.fromkeys(honest, FULL)


def test_no_hostile_student_changes_anyone_elses_grade(
    baseline: dict[str, list[str]], hostile: tuple[Path, dict[str, dict[str, bytes]], str]
) -> None:
    root, _, out = hostile
    assert out.startswith(f"graded {len(HONEST_ROWS) + len(ATTACKERS) + 1} submissions: ")
    graded = rows(root)
    assert {name: graded[name] for name in HONEST_ROWS} == {n: baseline[n] for n in HONEST_ROWS}


def test_the_attackers_score_nothing(
    hostile: tuple[Path, dict[str, dict[str, bytes]], str],
) -> None:
    root, _, _ = hostile
    graded = rows(root)
    assert {name: graded[name][0] for name in ATTACKERS} == dict.fromkeys(ATTACKERS, "0")
    cheater = (root / "grades" / "feedback" / "cheater.txt").read_text()
    assert "no grader to copy from" in cheater  # it saw no grader at all


def test_nothing_outside_a_run_was_touched(
    hostile: tuple[Path, dict[str, dict[str, bytes]], str],
) -> None:
    root, before, _ = hostile
    assert originals(root) == before
    assert b"vandalised" not in (root / "grades" / "gradebook.csv").read_bytes()


def test_a_cached_rerun_gives_the_same_gradebook_and_a_forged_entry_is_graded_again(
    hostile: tuple[Path, dict[str, dict[str, bytes]], str],
) -> None:
    """Every entry but one is the cache's own; the vandal's is forged from an honest student's
    (full marks), and graded again."""
    root, _, _ = hostile
    book = (root / "grades" / "gradebook.csv").read_bytes()
    right = (root / "grades" / "cache" / "correct-00.json").read_text()
    (root / "grades" / "cache" / "vandal.json").write_text(right.replace("correct-00", "vandal"))
    grade(root)
    assert (root / "grades" / "gradebook.csv").read_bytes() == book
    assert b"\nvandal,0,4," in book


def test_the_fork_bomb_met_its_own_limit(
    hostile: tuple[Path, dict[str, dict[str, bytes]], str],
) -> None:
    root, _, _ = hostile
    feedback = (root / "grades" / "feedback" / "fork_bomb.txt").read_text()
    kids = [line for line in feedback.splitlines() if line.strip().endswith(" kids")]
    assert kids, feedback
    assert all(int(line.split()[-2]) < 64 for line in kids)


def test_a_name_that_is_not_utf8_is_shown_with_its_bytes_escaped(
    hostile: tuple[Path, dict[str, dict[str, bytes]], str],
) -> None:
    root, _, _ = hostile
    shown = (root / "grades" / "feedback" / f"{SHOWN_JOSE}.txt").read_text()
    assert shown.startswith(f"{SHOWN_JOSE}: 4/4\n")


@pytest.fixture(scope="module")
def trusted(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The attacks that work on trusted programs, in one course graded ``--trust-submissions``
    and ``--jobs 1`` (names in order: the key keeper runs before the key reader): the cheater,
    the key keeper and reader, the squatter, and an honest student."""
    root = tmp_path_factory.mktemp("trusted")
    write_course(root, {})
    token = root.name  # keys left by an earlier test answer nothing here
    add_shell(root, "correct-00")
    add_student(root, "cheater", CHEATER)
    add_student(root, "key_keeper", KEY_KEEPER.replace("TOKEN", token))
    add_student(root, "key_reader", KEY_READER.replace("TOKEN", token))
    add_shell(root, "squatter", SQUATTER)
    grade(root, "--trust-submissions", "--jobs", "1")
    return root


def test_without_the_sandbox_the_cheater_would_have_cheated(trusted: Path) -> None:
    """The cheater is a real attack: trusted, it finds the transcripts and scores."""
    assert rows(trusted)["cheater"][0] == "4"


@pytest.mark.skipif(os.geteuid() != 0, reason="needs root to become another user")
def test_the_keyring_is_a_channel_between_trusted_students(trusted: Path) -> None:
    """The keeper runs first and leaves the answer of the ``args`` transcript in the keyring;
    the reader prints it: unsealed (trusted), the channel works."""
    graded = rows(trusted)
    assert graded["key_keeper"][0] == "4"
    assert graded["key_reader"][0] == "1"  # the attack is real: the args transcript


@pytest.mark.skipif(os.geteuid() != 0, reason="needs root to become another user")
def test_the_keyring_is_no_channel_between_students(tmp_path: Path) -> None:
    """The same keeper and reader (``--jobs 1``, names in order) sealed: the reader scores 0.
    (On a cached re-run too: the hostile course's re-run holds both.)"""
    write_course(tmp_path, {})
    token = tmp_path.name  # keys left by an earlier test answer nothing here
    add_student(tmp_path, "key_keeper", KEY_KEEPER.replace("TOKEN", token))
    add_student(tmp_path, "key_reader", KEY_READER.replace("TOKEN", token))
    grade(tmp_path, "--jobs", "1")
    graded = rows(tmp_path)
    assert graded["key_keeper"][0] == "4"
    assert graded["key_reader"][0] == "0"
    assert "no key" in (tmp_path / "grades" / "feedback" / "key_reader.txt").read_text()


def test_an_unprivileged_grader_is_as_safe(baseline: dict[str, list[str]]) -> None:
    """The same course graded by a user who is not root (nobody, 65534)."""
    root = Path(tempfile.mkdtemp(prefix="casino-unprivileged-"))
    python = Path(tempfile.mkdtemp(prefix="casino-nobody-"))
    try:
        pythonpath = nobody_pythonpath(python)
        probe = "import yaml, pexpect, casino.grade.cli"
        argv = ["setpriv", "--reuid=65534", "--regid=65534", "--clear-groups"]
        argv += ["/usr/bin/python3", "-c", probe]
        env = dict(os.environ, PYTHONPATH=pythonpath)
        found = subprocess.run(argv, env=env, check=False, capture_output=True, text=True)
        if found.returncode:
            pytest.skip(f"nobody cannot run casino with /usr/bin/python3: {found.stderr[-300:]}")
        make_course(root, hostile=True)
        subprocess.run(["chown", "-R", "65534:65534", str(root)], check=True)
        before = originals(root)
        grade(root, user=65534, pythonpath=pythonpath)
        graded = rows(root)
        assert {name: graded[name] for name in HONEST_ROWS} == {n: baseline[n] for n in HONEST_ROWS}
        assert {name: graded[name][0] for name in ATTACKERS} == dict.fromkeys(ATTACKERS, "0")
        assert originals(root) == before
    finally:
        remove_tree(root)
        remove_tree(python)


def test_the_squatter_changes_nothing_even_trusted(trusted: Path) -> None:
    """Without a sandbox the squatter can write where the grader works, but cannot guess the
    names of the folders it will use."""
    graded = rows(trusted)
    assert {name: graded[name] for name in ("student", "correct-00", "squatter")} == {
        "student": ["score", "max", "args.yaml", "greet.yaml", "state/chain.yaml"],
        "correct-00": FULL,
        "squatter": FULL,
    }
