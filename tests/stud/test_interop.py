"""Our dealer and player against real Java DataInputStream/DataOutputStream.

The Java programs in ``java/`` are compiled with ``javac`` into a temporary folder; without
a JDK these tests are skipped (``.ci/run`` installs one)."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from casino.grade.studcli import main
from casino.programs import run_captured

JAVA_SOURCES = Path(__file__).parent / "java"
needs_jdk = pytest.mark.skipif(
    shutil.which("javac") is None or shutil.which("java") is None,
    reason="javac/java not found: the Java interop tests need a JDK",
)


@pytest.fixture(scope="module")
def classes(tmp_path_factory: pytest.TempPathFactory) -> Path:
    target = tmp_path_factory.mktemp("java")
    sources = sorted(str(path) for path in JAVA_SOURCES.glob("*.java"))
    subprocess.run(
        ["javac", "-encoding", "UTF-8", "-d", str(target), *sources], check=True, timeout=120
    )
    return target


def java_escaped(text: str) -> str:
    """``text`` as Dealer.java prints it (UTF-16 units outside printable ASCII as \\uXXXX)."""
    units = text.encode("utf-16-be", "surrogatepass")
    chars = (int.from_bytes(units[i : i + 2], "big") for i in range(0, len(units), 2))
    return "".join(chr(c) if 0x20 <= c < 0x7F else f"\\u{c:04x}" for c in chars)


@needs_jdk
def test_our_dealer_plays_a_java_player_with_a_non_ascii_avatar(classes: Path) -> None:
    java = f"java -cp {classes} Poker {{host}} {{port}}"
    done = run_captured(
        main, ["tournament", "--bot", java, "--bot", "ours", "--hands", "100", "--seed", "1"]
    )
    assert done.status == 0, done.err
    names = [line.split()[1] for line in done.out.splitlines()[1:]]
    assert sorted(names) == sorted(["Jävä😀", "ours-1"])


@needs_jdk
def test_our_player_speaks_to_a_java_dealer(classes: Path) -> None:
    dealer = subprocess.Popen(
        ["java", "-cp", str(classes), "Dealer"], stdout=subprocess.PIPE, text=True, encoding="ascii"
    )
    try:
        assert dealer.stdout is not None
        port = dealer.stdout.readline().strip()
        player = subprocess.run(
            [
                sys.executable,
                "-m",
                "casino",
                "stud",
                "player",
                "127.0.0.1",
                port,
                "--id",
                "me",
                "--avatar",
                "Ünï😀",
            ],
            capture_output=True,
            timeout=60,
            check=False,
        )
        out, _ = dealer.communicate(timeout=60)
    finally:
        dealer.kill()
    assert out.splitlines() == [
        java_escaped("me:Ünï😀"),
        java_escaped("me:Ünï😀"),
        "bet:10",
        "fold",
        "closed",
    ]
    assert player.returncode == 0
    assert player.stdout.decode("utf-8") == "done: bye\x00 ☕😀\n"
