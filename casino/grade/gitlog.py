"""A submission's Git history as the rubric's ``git`` lines read it: its commits, newest
first, and its repository's name, each read with a git command that runs none of the
repository's configured programs (:mod:`casino.grade.lines` judges them)."""

from __future__ import annotations

import re
import subprocess
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path

GIT_SECONDS = 30


@dataclass(frozen=True)
class Commit:
    """One commit of the student's history (newest first)."""

    hash: str
    when: datetime
    subject: str
    changed: int
    """Lines added and removed."""


def git_output(folder: Path, *args: str) -> str | None:
    """A read-only git command on the student's repository, none of its configured programs
    run (no pager, external diff, text conversion, fsmonitor or signature check: its
    ``gpg.program``); ``None`` if it fails."""
    safe = ["-c", "core.fsmonitor=false", "-c", "core.pager=cat", "-c", "log.showSignature=false"]
    safe += ["-c", "color.ui=never", "-c", f"safe.directory={folder}"]
    command = ["git", "--no-pager", *safe, "-C", str(folder), *args]
    env = {
        "GIT_CONFIG_NOSYSTEM": "1",
        "GIT_CONFIG_GLOBAL": "/dev/null",
        "PATH": "/usr/bin:/bin",
        "LC_ALL": "C",
    }
    try:
        done = subprocess.run(
            command, capture_output=True, text=True, timeout=GIT_SECONDS, env=env, check=False
        )
    except (OSError, subprocess.TimeoutExpired):
        return None
    return done.stdout if done.returncode == 0 else None


def git_log(folder: Path) -> list[Commit]:
    """The student's commits, newest first (``[]`` without a ``.git`` history)."""
    if not (folder / ".git").exists():
        return []
    text = git_output(
        folder, "log", "--no-ext-diff", "--no-textconv", "--numstat", "--format=%x00%H %cI %s"
    )
    commits: list[Commit] = []
    for block in (text or "").split("\0")[1:]:
        head, _, rest = block.partition("\n")
        sha, when, subject = [*head.split(" ", 2), "", ""][:3]
        changed = sum(_numstat(row) for row in rest.splitlines())
        commits.append(Commit(sha[:10], datetime.fromisoformat(when), subject, changed))
    return commits


def _numstat(row: str) -> int:
    parts = row.split("\t")
    return sum(int(p) for p in parts[:2] if p.isdigit()) if len(parts) == 3 else 0


def repository_name(folder: Path) -> str:
    """The repository's name: the last part of its ``origin`` address, else its folder's."""
    url = (git_output(folder, "config", "--get", "remote.origin.url") or "").strip()
    base = url.rstrip("/").replace(":", "/").rsplit("/", 1)[-1] if url else folder.name
    return re.sub(r"\.git$", "", base)
