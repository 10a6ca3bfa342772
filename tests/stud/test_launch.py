"""How a submission's player is started: its command resolved in its folder, and in a sandbox
the folder its only ``PYTHONPATH``."""

from __future__ import annotations

from pathlib import Path

import pytest

from casino.harness.runners.sandbox import Sandbox
from casino.net import LOOPBACK
from casino.stud.launch import Launch

COMMAND = ("python3", "-m", "player", "{host}", "{port}")


def test_python_m_finds_the_submissions_package_and_in_a_sandbox_nothing_else(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("PYTHONPATH", "/grader/own/modules")
    folder, run_folder = tmp_path / "submission", tmp_path / "run"
    (folder / "player").mkdir(parents=True)
    run_folder.mkdir()
    argv, env = Launch(COMMAND, folder).argv(4242)
    assert argv == ["python3", "-m", "player", LOOPBACK, "4242"]
    assert env is not None and env["PYTHONPATH"] == f"{folder}:/grader/own/modules"
    argv, env = Launch(COMMAND, folder, Sandbox(isolate=True), run_folder).argv(4242)
    assert argv[-5:] == ["python3", "-m", "player", LOOPBACK, "4242"]
    assert env is not None and env["PYTHONPATH"] == str(folder)
    assert Launch(COMMAND).argv(4242) == (["python3", "-m", "player", LOOPBACK, "4242"], None)
