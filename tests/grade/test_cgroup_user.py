"""An ordinary user's memory cgroup: systemd's delegation (``user@UID.service``), taken only
where a shell of the grader's can join a cgroup made there; else the summary says memory is
not bounded (issue 39). On a fake cgroup tree: the machine casino is tested on has none."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from casino.harness.runners import cgroup

UID = 1000


@pytest.fixture
def fresh() -> Iterator[None]:
    """:func:`cgroup.hierarchy` found again (it is cached for the process)."""
    cgroup.hierarchy.cache_clear()
    yield
    cgroup.hierarchy.cache_clear()


def _service(root: Path, controllers: str) -> Path:
    folder = root / "user.slice" / f"user-{UID}.slice" / f"user@{UID}.service"
    folder.mkdir(parents=True)
    (folder / "cgroup.subtree_control").write_text(controllers)
    return folder


def test_the_users_systemd_service_is_found_where_it_delegates_memory(tmp_path: Path) -> None:
    mounts = [(str(tmp_path), "cgroup2", "rw")]
    service = _service(tmp_path, "cpu memory pids\n")
    assert cgroup._user_delegated(mounts, UID) == cgroup.Hierarchy(2, service)
    assert cgroup._user_delegated(mounts, 0) is None  # root: its own cgroup or v1
    assert cgroup._user_delegated([(str(tmp_path), "cgroup", "rw,memory")], UID) is None
    (service / "cgroup.subtree_control").write_text("cpu pids\n")
    assert cgroup._user_delegated(mounts, UID) is None  # memory not delegated
    assert cgroup._user_delegated(mounts, UID + 1) is None  # another user's: none here


def test_the_delegated_cgroup_is_used_only_if_a_shell_can_join_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, fresh: None
) -> None:
    """A grader in a login session's scope cannot move a process below ``user@UID.service``
    (v2 needs a common ancestor it may write): that is tried before the cgroup is taken."""
    found = cgroup.Hierarchy(2, _service(tmp_path, "memory\n"))
    monkeypatch.setattr(cgroup, "_v2", lambda mounts, own: None)
    monkeypatch.setattr(cgroup, "_v1", lambda mounts, own: None)
    monkeypatch.setattr(cgroup, "_user_delegated", lambda mounts, uid: found)
    assert cgroup.hierarchy() == found  # (a fake tree: the pid is written to a plain file)
    joined = list(found.parent.glob("casino-*/cgroup.procs"))
    assert len(joined) == 1 and joined[0].read_text().strip().isdigit()
    cgroup.hierarchy.cache_clear()
    monkeypatch.setattr(
        cgroup.MemoryCgroup, "joined", lambda self, argv: ["/bin/sh", "-c", "exit 125"]
    )
    assert cgroup.hierarchy() is None
    assert cgroup.describe() == (
        "no memory cgroup (memory not bounded: tmpfs, memory files, the sum of processes)"
    )
