"""The single-file program (``tox -e docs`` builds ``build/docs/casino.pyz``) works like the
installed one: its exit status is casino's, and it carries the pure-Python dependencies of
``replay``, ``record`` and ``grade``, so it runs on a Python that has none of them (``-I -S``:
no site-packages, no environment).
"""

from __future__ import annotations

import subprocess
import sys
import zipfile
from pathlib import Path

import pytest
from docs_script import build_docs

ROOT = Path(__file__).resolve().parents[1]
BASICS = ROOT / "transcripts" / "demo" / "basics.yaml"


@pytest.fixture(scope="module")
def pyz(tmp_path_factory: pytest.TempPathFactory) -> Path:
    target = tmp_path_factory.mktemp("zipapp") / "casino.pyz"
    build_docs().build_zipapp(target)
    return target


def run(pyz: Path, *argv: str | Path, stdin: str = "") -> tuple[int, str, str]:
    done = subprocess.run(
        [sys.executable, "-I", "-S", str(pyz), *map(str, argv)],
        input=stdin,
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=300,
        check=False,
    )
    return done.returncode, done.stdout, done.stderr


def test_it_carries_casino_and_its_pure_python_dependencies(pyz: Path) -> None:
    names = zipfile.ZipFile(pyz).namelist()
    for module in ("casino", "yaml", "pexpect", "ptyprocess"):
        assert f"{module}/__init__.py" in names
    assert {"yaml-LICENSE", "pexpect-LICENSE", "ptyprocess-LICENSE"} <= set(names)
    assert not [name for name in names if name.endswith((".so", ".pyc"))]


@pytest.mark.parametrize("runner", ["inproc", "pipe", "pty"])
def test_a_passing_replay_exits_0(pyz: Path, runner: str) -> None:
    status, out, err = run(pyz, "replay", "--runner", runner, BASICS)
    assert (status, err) == (0, "")
    assert out.endswith("1 passed, 0 failed (1 transcript)\n")


def test_a_failing_replay_exits_1(pyz: Path, tmp_path: Path) -> None:
    failing = tmp_path / "sum.yaml"
    failing.write_text(BASICS.read_text(encoding="utf-8").replace("2 + 3 = 5", "2 + 3 = 6"))
    assert "2 + 3 = 6" in failing.read_text(encoding="utf-8")
    status, out, err = run(pyz, "replay", failing)
    assert (status, err) == (1, "")
    assert out.startswith("FAIL ") and out.endswith("0 passed, 1 failed (1 transcript)\n")


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["replay"], "casino replay: the following arguments are required: PATH"),
        (["blackjack"], "casino: unknown command 'blackjack'"),
        (["demo", "--seed", "x"], "casino demo: argument --seed"),
    ],
)
def test_a_usage_error_exits_2(pyz: Path, argv: list[str], message: str) -> None:
    status, out, err = run(pyz, *argv)
    assert (status, out) == (2, "")
    assert err.startswith(message) and err.count("\n") == 1


def test_a_game_plays_as_installed(pyz: Path) -> None:
    from casino.programs import load_main, run_captured

    installed = run_captured(load_main("demo"), ["--seed", "3"], "roll\nadd 2 3\nexit\n")
    assert run(pyz, "demo", "--seed", "3", stdin="roll\nadd 2 3\nexit\n") == (
        installed.status,
        installed.out,
        installed.err,
    )


def test_a_harness_command_without_its_dependency_is_one_line() -> None:
    """The installed package on a Python without PyYAML (no site-packages): ``replay`` says
    what it needs; a game still plays."""
    command = [sys.executable, "-S", "-m", "casino"]
    done = subprocess.run(
        [*command, "replay", str(BASICS)], capture_output=True, text=True, cwd=ROOT, check=False
    )
    assert (done.returncode, done.stdout) == (1, "")
    assert done.stderr == (
        "casino replay: needs PyYAML, which this Python does not have (pip install PyYAML)\n"
    )
    game = subprocess.run(
        [*command, "demo"], input="add 1 1\n", capture_output=True, text=True, cwd=ROOT
    )
    assert (game.returncode, game.stderr) == (0, "") and "1 + 1 = 2" in game.stdout
