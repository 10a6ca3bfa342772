"""``casino grade export``: the same transcripts, run inside the graders courses already use.

``--gradescope DIR`` writes ``DIR/autograder.zip``, a Gradescope autograder:

- ``setup.sh`` installs Python 3.11 (Ubuntu's ``python3.11``, where the image's ``python3`` is
  older) and casino's two dependencies (PyYAML, pexpect) in ``/autograder/casino-venv``;
- ``casino/`` is casino itself (the package as installed here: it is not on PyPI);
- ``transcripts/visible/`` and ``transcripts/hidden/``: the transcripts (``--hidden`` ones are
  shown to students only once grades are published — Gradescope's ``after_published``);
  a transcript's own ``visibility`` (or its folder's) puts it in ``transcripts/withheld/``
  (``hidden``: a visible test whose output is only :data:`casino.grade.results.HIDDEN_NOTE`,
  its name and points, as in ``casino grade``'s feedback) or ``transcripts/after-due/``
  (``after-due``: Gradescope's ``after_due_date``);
  ``reference: casino`` ones are left out, as ``casino grade`` leaves them out;
- ``setup.sh`` also installs :func:`apt_packages`: bubblewrap, and a JDK
  (``default-jdk-headless``) when ``--run`` or ``--build`` uses Java; any further package
  goes in ``apt-packages.txt`` beside the zip's files (one a line, installed last); and it
  makes the unprivileged ``student`` account;
- ``run_autograder`` builds the submission in ``/autograder/submission`` (``--build``), then
  replays each set as ``casino replay --program RUN --program-dir /autograder/submission
  --report gradescope`` would and writes ``/autograder/results/results.json``, **sealed as
  ``casino grade``**: every run and the build in casino's sandbox, or where the container
  allows none as the ``student`` account, who cannot read ``/autograder/source`` (made root's
  alone first; :mod:`casino.grade.autograder`). A test per transcript
  (points per run of a chain, as ``casino replay`` scores it), its ``visibility``, and the
  student's feedback as each test's ``output``. A build that fails is one failed test holding
  the compiler's output; the transcripts are then not run.

``--github-classroom DIR`` writes what a GitHub Classroom template repository needs:
``.github/workflows/classroom.yml`` (one step per transcript, then the grading reporter),
``.github/classroom/autograding.json`` (the same tests in the older ``education/autograding``
form) and ``.casino/`` (casino and the transcripts). Each step replays its transcript with
``--score --report classroom`` and hands the reporter that payload as its ``result`` output
(:func:`classroom_step`): a test per run of a chain, each with the points ``casino grade``
gives it (a rubric's behaviour share too), so Classroom's total is ``casino grade``'s. The
steps' ids, the reporter's environment and the payload's size follow the reporter's own
contract (:mod:`casino.grade.classroom`: ``transcript1`` read from ``TRANSCRIPT1_RESULTS``,
each result folded to fit Linux's limit on one environment string). **Sealed where GitHub
allows it**: each step runs the build and the replay through :mod:`casino.grade.sealed` on a
copy of the student's files (no ``.casino``), as root through the runner's ``sudo`` where
there is one, so the program gets the Gradescope autograder's sandbox or ``student`` account
(:data:`SEALING`; the step :data:`SEAL_RUNNER` installs bubblewrap first). The older form has
only pass or fail, and runs unsealed: there a transcript earns its points when every run of it
passes.

Every file is written atomically; the zip's entries have fixed dates, so the same course gives
the same bytes.
"""

from __future__ import annotations

import dataclasses
import io
import json
import math
import shlex
import stat
import zipfile
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from importlib import resources
from importlib.resources.abc import Traversable
from pathlib import Path

import casino
from casino.files import write_atomic, write_atomic_bytes
from casino.grade.classroom import result_bound, results_variable, runner_id
from casino.grade.course import Material
from casino.harness.dump import dump_transcript
from casino.harness.model import Fixture, Transcript

FIXED_DATE = (2020, 1, 1, 0, 0, 0)
VISIBLE, HIDDEN = "visible", "hidden"
FOLDER_OF = {"hidden": "withheld", "after-due": "after-due"}
"""A transcript's own visibility → the folder it is packed in (else :data:`VISIBLE`)."""
PYTHON_DEPENDENCIES = ("pyyaml>=6", "pexpect>=4.8")

SETUP_SH = """\
#!/usr/bin/env bash
# Gradescope runs this once, when the autograder image is built.
set -euo pipefail
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq
if ! python3 -c 'import sys; sys.exit(sys.version_info < (3, 11))' 2>/dev/null; then
    apt-get install -y -qq python3.11 python3.11-venv
    PYTHON=python3.11
else
    apt-get install -y -qq python3-venv
    PYTHON=python3
fi
$PYTHON -m venv /autograder/casino-venv
/autograder/casino-venv/bin/pip install -q DEPENDENCIES
# The student's program never runs as root: in casino's sandbox where the container allows
# one (bubblewrap), else as this account, which cannot read /autograder/source.
apt-get install -y -qq PACKAGES
id -u student >/dev/null 2>&1 || useradd --system --no-create-home --shell /usr/sbin/nologin student
if [ -f /autograder/source/apt-packages.txt ]; then
    xargs -a /autograder/source/apt-packages.txt apt-get install -y -qq
fi
"""
SEALING_PACKAGES = ("bubblewrap",)
"""What ``setup.sh`` installs for the sandbox, whatever the course."""
JDK_PACKAGES = ("default-jdk-headless",)
"""What ``setup.sh`` installs for a course whose ``--run`` or ``--build`` uses Java
(Ubuntu's JDK: ``javac``, ``java``, ``jar``)."""
JAVA_WORDS = frozenset({"java", "javac", "jar", "javaw"})

RUN_AUTOGRADER = """\
#!/usr/bin/env bash
# Gradescope runs this for every submission: build it, replay the transcripts, write results.
set -u
ROOT="${AUTOGRADER_ROOT:-/autograder}"
PYTHON="${CASINO_PYTHON:-$ROOT/casino-venv/bin/python}"
export PYTHONPATH="$ROOT/source"
exec "$PYTHON" -P -m casino.grade.autograder "$ROOT"
"""


@dataclass(frozen=True)
class Settings:
    """What a submission is graded with, as ``run_autograder`` reads it (``settings.json``)."""

    run: str
    build: str | None
    runner: str
    build_timeout: float

    def to_json(self) -> str:
        """The settings file."""
        data = {
            "run": self.run,
            "build": self.build,
            "runner": self.runner,
            "build_timeout": self.build_timeout,
        }
        return json.dumps(data, indent=2) + "\n"


def casino_files() -> Iterator[tuple[str, bytes]]:
    """casino's own package, as files to ship (``casino/…``; no compiled caches), read as
    resources so that the single file ``casino.pyz`` ships itself as the installed package
    does; in path order."""
    return _package_files(resources.files(casino), "casino")


def _package_files(folder: Traversable, name: str) -> Iterator[tuple[str, bytes]]:
    """Every file under ``folder`` (named ``name/…``) but ``__pycache__`` and ``.pyc``."""
    for entry in sorted(folder.iterdir(), key=lambda entry: entry.name):
        inner = f"{name}/{entry.name}"
        if entry.is_dir() and entry.name != "__pycache__":
            yield from _package_files(entry, inner)
        elif entry.is_file() and not entry.name.endswith(".pyc"):
            yield inner, entry.read_bytes()


def transcript_files(
    materials: Sequence[Material], hidden: set[str]
) -> Iterator[tuple[str, bytes]]:
    """Each transcript under ``visible/`` or ``hidden/``, its fixtures beside it (named after
    it, ``STEM.fixture-N``: fixtures that lived elsewhere in the course travel with it)."""
    for material in materials:
        own = FOLDER_OF.get(material.transcript.shown, VISIBLE)
        where = HIDDEN if material.path in hidden and own == VISIBLE else own
        folder = Path(where, material.path).parent
        transcript, fixtures = _shipped(material)
        yield f"{where}/{material.path}", dump_transcript(transcript).encode("utf-8")
        for name, content in fixtures:
            yield (folder / name).as_posix(), content


def _shipped(material: Material) -> tuple[Transcript, list[tuple[str, bytes]]]:
    """The transcript with each fixture renamed to sit beside it, and those fixtures; what
    its folder's ``casino.yaml`` said (``match``, ``rubric``, ``facts``) written into it, since
    the folder does not travel."""
    by_path = dict(material.fixtures)
    stem = Path(material.path).stem
    files, shipped = [], []
    for index, (name, content) in enumerate(material.transcript.files or ()):
        if isinstance(content, Fixture):
            local = f"{stem}.fixture-{index}"
            shipped.append((local, by_path[content.path]))
            content = Fixture(local)
        files.append((name, content))
    transcript = material.transcript
    grading = transcript.grading
    settled = dataclasses.replace(
        transcript,
        files=tuple(files) or None,
        match=transcript.allowed or None,
        rubric=grading.rubric if grading else None,
        facts=grading.facts if grading else None,
    )
    return settled, shipped


def _dependencies() -> str:
    """casino's dependencies as ``pip install`` words."""
    return " ".join(shlex.quote(d) for d in PYTHON_DEPENDENCIES)


def _entry(name: str, data: bytes, executable: bool = False) -> tuple[zipfile.ZipInfo, bytes]:
    info = zipfile.ZipInfo(name, FIXED_DATE)
    mode = 0o755 if executable else 0o644
    info.external_attr = (stat.S_IFREG | mode) << 16
    info.compress_type = zipfile.ZIP_DEFLATED
    return info, data


def needs_java(settings: Settings) -> bool:
    """Whether the course's ``--run`` or ``--build`` starts Java (a word ``java``, ``javac``,
    ``jar``, or ``*.java`` files), so that ``setup.sh`` installs a JDK."""
    text = " ".join(filter(None, (settings.run, settings.build)))
    words = {Path(word).name for word in text.replace("&&", " ").replace(";", " ").split()}
    return bool(words & JAVA_WORDS) or ".java" in text


def apt_packages(settings: Settings) -> tuple[str, ...]:
    """The packages ``setup.sh`` installs beyond Python: :data:`SEALING_PACKAGES`, and
    :data:`JDK_PACKAGES` for a Java course (more with ``apt-packages.txt``)."""
    return SEALING_PACKAGES + (JDK_PACKAGES if needs_java(settings) else ())


def gradescope_zip(materials: Sequence[Material], settings: Settings, hidden: set[str]) -> bytes:
    """The autograder zip's bytes."""
    setup = SETUP_SH.replace("DEPENDENCIES", _dependencies())
    setup = setup.replace("PACKAGES", " ".join(apt_packages(settings)))
    entries = [
        _entry("setup.sh", setup.encode(), executable=True),
        _entry("run_autograder", RUN_AUTOGRADER.encode(), executable=True),
        _entry("settings.json", settings.to_json().encode()),
        *(_entry(name, data) for name, data in casino_files()),
        *(
            _entry(f"transcripts/{name}", data)
            for name, data in transcript_files(materials, hidden)
        ),
    ]
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as archive:
        for info, data in entries:
            archive.writestr(info, data)
    return buffer.getvalue()


def write_gradescope(folder: Path, materials: Sequence[Material], settings: Settings,
                     hidden: set[str]) -> Path:  # fmt: skip
    """Write ``folder/autograder.zip``; its path."""
    folder.mkdir(parents=True, exist_ok=True)
    target = folder / "autograder.zip"
    write_atomic_bytes(target, gradescope_zip(materials, settings, hidden))
    return target


def classroom_tests(materials: Sequence[Material], settings: Settings) -> list[dict[str, object]]:
    """One test per transcript: its name, command, time-out (minutes, as the command grader
    takes it: the transcript's own deadline, its step time-out × its steps, rounded up) and
    points."""
    tests: list[dict[str, object]] = []
    for number, material in enumerate(materials):
        command = [
            "python", "-P", "-m", "casino", "replay", "--runner", settings.runner,
            "--program", settings.run, f".casino/transcripts/{material.path}",
        ]  # fmt: skip
        if settings.build:
            shell = f"{settings.build} && {shlex.join(command)}"
        else:
            shell = shlex.join(command)
        steps = sum(len(run.steps) for run in material.transcript.runs)
        seconds = material.transcript.step_timeout * max(1, steps)
        step = runner_id(number + 1)
        tests.append(
            {
                "id": step,
                "name": material.transcript.name,
                "command": shell,
                "script": classroom_step(material, settings, step, result_bound(len(materials))),
                "timeout": max(1, math.ceil(seconds / 60)),
                "points": material.transcript.max_points,
            }
        )
    return tests


def classroom_step(material: Material, settings: Settings, step: str, bound: int) -> str:
    """The bash script of one workflow step: build, replay the transcript with ``--score
    --report classroom``, and hand the reporter that payload, folded to at most ``bound``
    bytes of base64, as the step's ``result`` output (:mod:`casino.grade.classroom`); a build
    that fails is one failed test worth the transcript's points, a replay that writes nothing
    one test in error naming casino's crash. The step itself always succeeds (the reporter
    needs every step's output)."""
    payload, log = f".casino/{step}.json", f".casino/{step}.log"
    replay = [
        "python", "-P", "-m", "casino.grade.sealed", "replay", "--submission", "$SUB", "--",
        "--runner", settings.runner, "--score", "--report", "classroom", "--report-file",
        payload, "--program", settings.run, f".casino/transcripts/{material.path}",
    ]  # fmt: skip
    built = ["python", "-P", "-m", "casino.grade.sealed", "build", "--submission", "$SUB"]
    built += ["--timeout", f"{settings.build_timeout:g}", "--", settings.build or ""]
    report = [
        "python", "-P", "-m", "casino.grade.classroom", payload,
        "--name", material.transcript.name, "--points", f"{material.transcript.max_points:g}",
        "--log", log, "--bound", str(bound),
    ]  # fmt: skip
    # GitHub runs ``bash -e -o pipefail``: a failing command is caught, never left to end it
    replayed = f"ran=0\n{_sealed(replay)} 2> {log} || ran=$?\ncat {log} >&2\n"
    if settings.build:
        indented = "".join(f"  {line}\n" for line in replayed.splitlines())
        replayed = (
            f"ran=build\nif {_sealed(built)} > {log} 2>&1; then\n"
            f"  cat {log}\n{indented}else\n  cat {log}\nfi\n"
        )
    return (
        f"rm -f {payload} {log}\n{SEALING}{replayed}"
        f'echo "result=$({shlex.join(report)} --ran "$ran")" >> "$GITHUB_OUTPUT"\n'
        '"${SEAL[@]}" rm -rf "$SUB"\n'
    )


SEALING = """\
SEAL=()
if [ "$(id -u)" != 0 ] && sudo -n true 2>/dev/null; then
  SEAL=(sudo -n env "PATH=$PATH" "PYTHONPATH=$PYTHONPATH")
fi
SUB=$(mktemp -d)
"""
"""The start of every sealed step: casino as root through ``sudo`` where the runner has it
(GitHub's do, without a password; ``env`` hands over only the interpreter's ``PATH`` and
``PYTHONPATH``, none of the runner's tokens), and an empty folder for the submission's copy
(:mod:`casino.grade.sealed`)."""
SEAL_RUNNER = """\
if ! command -v bwrap >/dev/null; then
  sudo apt-get update -qq && sudo apt-get install -y -qq bubblewrap || true
fi
sudo sysctl -w kernel.apparmor_restrict_unprivileged_userns=0 || true
if ! id -u student >/dev/null 2>&1; then
  sudo useradd --system --no-create-home --shell /usr/sbin/nologin student || true
fi
"""
"""The workflow's step before the tests: bubblewrap (``casino grade``'s sandbox), user
namespaces allowed (Ubuntu 24.04's AppArmor refuses them to the sandbox's unprivileged
inner user otherwise) and the ``student`` account for where no sandbox can be made. A part
that fails leaves the next way of sealing (:func:`casino.grade.sealed.sandbox_for`)."""


def _sealed(words: Sequence[str]) -> str:
    """``words`` as a command run through ``$SEAL`` (:data:`SEALING`), ``$SUB`` unquoted."""
    return '"${SEAL[@]}" ' + shlex.join(words).replace("'$SUB'", '"$SUB"')


def classroom_workflow(tests: Sequence[dict[str, object]]) -> str:
    """``.github/workflows/classroom.yml``."""
    steps: list[dict[str, object]] = [
        {"name": "Check out the submission", "uses": "actions/checkout@v4"},
        {"name": "Python", "uses": "actions/setup-python@v5", "with": {"python-version": "3.11"}},
        {"name": "casino's dependencies", "run": f"pip install {_dependencies()}"},
        {"name": "Seal the student's program", "shell": "bash", "run": SEAL_RUNNER},
    ]
    for test in tests:
        steps.append(
            {
                "name": test["name"],
                "id": test["id"],
                "shell": "bash",
                "timeout-minutes": test["timeout"],
                "run": test["script"],
            }
        )
    ids = [str(test["id"]) for test in tests]
    steps.append(
        {
            "name": "Autograding Reporter",
            "uses": "classroom-resources/autograding-grading-reporter@v1",
            "env": {results_variable(i): f"${{{{steps.{i}.outputs.result}}}}" for i in ids},
            "with": {"runners": ",".join(ids)},
        }
    )
    workflow = {
        "name": "Autograding Tests",
        "on": ["push", "workflow_dispatch", "repository_dispatch"],
        "permissions": {"checks": "write", "actions": "read", "contents": "read"},
        "jobs": {
            "run-autograding-tests": {
                "runs-on": "ubuntu-latest",
                "if": "github.actor != 'github-classroom[bot]'",
                "env": {"PYTHONPATH": ".casino"},
                "steps": steps,
            }
        },
    }
    return json.dumps(workflow, indent=2) + "\n"  # JSON is YAML: no quoting surprises


def autograding_json(tests: Sequence[dict[str, object]]) -> str:
    """``.github/classroom/autograding.json`` (``education/autograding``'s form)."""
    legacy = [
        {
            "name": test["name"],
            "setup": f"pip install {_dependencies()}",
            "run": f"PYTHONPATH=.casino {test['command']}",
            "input": "",
            "output": "",
            "comparison": "included",
            "timeout": test["timeout"],
            "points": test["points"],
        }
        for test in tests
    ]
    return json.dumps({"tests": legacy}, indent=2, ensure_ascii=False) + "\n"


def write_github_classroom(folder: Path, materials: Sequence[Material], settings: Settings) -> None:
    """The workflow, the autograding configuration, and ``.casino/`` under ``folder``."""
    tests = classroom_tests(materials, settings)
    write_atomic(_made(folder / ".github/workflows/classroom.yml"), classroom_workflow(tests))
    write_atomic(_made(folder / ".github/classroom/autograding.json"), autograding_json(tests))
    for name, data in casino_files():
        write_atomic_bytes(_made(folder / ".casino" / name), data)
    for name, data in transcript_files(materials, set()):
        write_atomic_bytes(_made(folder / ".casino/transcripts" / name.split("/", 1)[1]), data)


def _made(path: Path) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    return path
