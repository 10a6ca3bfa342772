"""The reference's recordings kept between runs of explore: a warm run records nothing and
finds, shrinks, orders and reports exactly what a cold one does; a change to casino's code
(the version) starts afresh; a torn, tampered or foreign file is a cold start."""

from __future__ import annotations

import hashlib
import os
import pickle
from pathlib import Path

import pytest

from casino.explore import engine
from casino.explore.coverage import Coverage
from casino.explore.engine import Budget, Explorer
from casino.explore.judge import Program
from casino.explore.nimsys import NimsysGrammar
from casino.explore.recordings import Recordings, version_of
from casino.harness.runners.base import Target
from casino.harness.runners.inproc import InProcessRunner
from explore.benchmark import MUTANTS as ALL_MUTANTS
from explore.benchmark import mutant_main

C = NimsysGrammar("c")


def _mutant(name: str) -> Program:
    return Program(InProcessRunner({"nimsys": mutant_main(ALL_MUTANTS[name])}), Target("nimsys"))


def _explored(program: Program, recordings: Recordings | None) -> tuple[object, ...]:
    coverage = Coverage()
    explorer = Explorer(
        C, program, Budget(runs=3000), coverage=coverage, recordings=recordings, name="seed 0"
    )
    found = explorer.find(0, 60)
    shrunk = None if found is None else explorer.shrink(found)
    return (
        explorer.tried,
        explorer.runs,
        None if shrunk is None else (shrunk.session, shrunk.transcript, shrunk.shrink_runs),
        frozenset(coverage.arcs),
        coverage.report(),
    )


def test_a_warm_run_records_nothing_and_finds_shrinks_and_covers_the_same(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    program = _mutant("display-missing-silent")
    cold = _explored(program, None)
    assert cold[2] is not None  # found and shrunk
    kept = Recordings(tmp_path, C.name, "v1")
    assert _explored(program, kept) == cold  # filling the cache changes nothing
    kept.save()

    def refused(*_args: object, **_kwargs: object) -> None:
        raise AssertionError("the reference ran on a kept session")

    monkeypatch.setattr(engine, "reference_transcript", refused)
    warm = Recordings.load(tmp_path, C.name, "v1")
    assert len(warm.entries) == len(kept.entries) > 60
    assert _explored(program, warm) == cold
    assert not warm.changed  # nothing new to write


def test_another_version_starts_afresh_and_replaces_the_old_file(tmp_path: Path) -> None:
    kept = Recordings(tmp_path, C.name, "v1")
    _explored(_mutant("display-missing-silent"), kept)
    kept.save()
    other = Recordings(tmp_path, "nimsys-b", "v1")  # another grammar's file is left alone
    other.put(next(iter(kept.entries)), None, None)
    other.save()
    fresh = Recordings.load(tmp_path, C.name, "v2")
    assert fresh.entries == {}
    fresh.put(next(iter(kept.entries)), None, None)
    fresh.save()
    assert sorted(path.name for path in tmp_path.iterdir()) == [
        "nimsys-b-v1.bin",
        "nimsys-v2.bin",
    ]


def test_the_version_changes_with_any_source_file(tmp_path: Path) -> None:
    package = tmp_path / "pkg"
    (package / "nim").mkdir(parents=True)
    (package / "nim" / "rules.py").write_text("X = 1\n")
    (package / "README").write_text("not code\n")
    first = version_of(package)
    assert version_of(package) == first
    (package / "README").write_text("changed, but not code\n")
    assert version_of(package) == first
    (package / "nim" / "rules.py").write_text("X = 2\n")
    assert version_of(package) != first
    assert version_of() == version_of()  # casino's own: stable within a checkout


def _file(folder: Path, payload: bytes) -> None:
    digest = hashlib.sha256(payload).hexdigest().encode()
    header = b"casino-explore-recordings-1\n" + digest + b"\n"
    (folder / "nimsys-v1.bin").write_bytes(header + payload)


class _Shell:
    def __reduce__(self) -> tuple[object, tuple[str]]:
        return (os.system, ("echo pwned",))


@pytest.mark.parametrize(
    "payload",
    [pickle.dumps(_Shell()), pickle.dumps(["not", "a", "dict"]), b"\x80\x05torn"],
    ids=["foreign class", "not a dict", "torn"],
)
def test_a_bad_file_is_a_cold_start(tmp_path: Path, payload: bytes) -> None:
    _file(tmp_path, payload)
    assert Recordings.load(tmp_path, C.name, "v1").entries == {}


def test_a_file_whose_checksum_fails_is_a_cold_start(tmp_path: Path) -> None:
    _file(tmp_path, pickle.dumps({}))
    path = tmp_path / "nimsys-v1.bin"
    path.write_bytes(path.read_bytes() + b"tampered")
    assert Recordings.load(tmp_path, C.name, "v1").entries == {}
