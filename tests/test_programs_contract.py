"""Every program in casino.programs.PROGRAMS keeps the program-entry contract of casino.cmdline.

In-process: ``--help`` (status 0, on stdout), ``--seed 5`` (and ``CASINO_SEED``), a bad argument
(one stderr line naming the command typed, status 2), end of input (a clean exit). As a real
process in a pseudo-terminal: Ctrl-C, SIGTERM and SIGHUP while it waits for input give one line,
no traceback, and 130/143/129; a closed stdout (``| head``) is quiet.
"""

from __future__ import annotations

import io
import os
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pexpect
import pytest

from casino.__main__ import HARNESS_COMMANDS
from casino.__main__ import main as casino_main
from casino.programs import PROGRAMS, SUMMARIES, load_main, run_captured

ROOT = Path(__file__).resolve().parents[1]

INTERACTIVE_ARGS: dict[str, list[str]] = {
    "videopoker": ["-i", "100"],
    "stud": ["tournament", "--bot", "ours", "--bot", "always-call", "--hands", "3"],
    "web": ["--port", "0", "--duration", "0"],
    "domino": ["--fake-clock"],
}
"""The arguments that start a session of the program (none for most): one that waits for its
user, or (three-card stud, which reads no stdin) one that ends by itself. Dominoes' move clock
is the fake one: a real one redraws its countdown every second while the program waits, and
a signal sent later than that (a loaded machine) would find that on the screen first."""
WAITING_ARGS: dict[str, list[str]] = {
    "stud": ["dealer", "--port", "0", "--players", "2"],
    "web": ["--port", "0"],
}
"""Where the session does not wait for anything, the arguments that make the program wait."""
NAMES: dict[str, str] = {
    "stud": "stud tournament",
    "stud-waiting": "stud dealer",
    "web-waiting": "web",
}
"""The name a program's messages carry, where a subcommand names it."""
PROMPTS: dict[str, str] = {
    "demo": r"\$ ",
    "domino": "Tu jugada: ",
    "draw": "==> ",
    "holdem": "> ",
    "nimsys": r"\$",
    "videopoker": "> ",
    "stud": "waiting for 2 players",
    "web": "listening on http://127.0.0.1:[0-9]+/",
}
"""What each program shows when it waits for input in a terminal (else: its first output)."""
SEEDED_INPUT: dict[str, str] = {
    "demo": "roll\n" * 8,
    "domino": "ayuda\n",
    "draw": "2\nb\n5\nf\n",
    "holdem": "ir\npasar\n" * 8,
    "videopoker": "b\nd\n",
}
"""Input whose output depends on the seed, for programs that use chance."""


@pytest.fixture(autouse=True)
def _own_directory(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv("CASINO_SEED", raising=False)


def run(name: str, *argv: str, stdin: str = "") -> tuple[int, str, str]:
    done = run_captured(load_main(name), list(argv), stdin)
    return done.status, done.out, done.err


@pytest.mark.parametrize("name", sorted(PROGRAMS))
def test_help_is_on_stdout_with_status_0(name: str) -> None:
    status, out, err = run(name, "--help")
    assert (status, err) == (0, "")
    assert out.startswith(f"usage: {name} ") and "--seed N" in out and "$CASINO_SEED" in out


@pytest.mark.parametrize("name", sorted(PROGRAMS))
def test_seed_5_is_accepted_and_end_of_input_ends_cleanly(name: str) -> None:
    status, _, err = run(name, *INTERACTIVE_ARGS.get(name, []), "--seed", "5")
    assert (status, err) == (0, "")
    assert run(name, *INTERACTIVE_ARGS.get(name, []))[::2] == (0, "")


@pytest.mark.parametrize("name", sorted(SEEDED_INPUT))
def test_casino_seed_stands_for_seed(name: str, monkeypatch: pytest.MonkeyPatch) -> None:
    args, text = INTERACTIVE_ARGS.get(name, []), SEEDED_INPUT[name]
    seeded = [run(name, *args, "--seed", str(seed), stdin=text) for seed in (5, 6)]
    assert seeded[0] != seeded[1]
    monkeypatch.setenv("CASINO_SEED", "5")
    assert run(name, *args, stdin=text) == seeded[0]
    assert run(name, *args, "--seed", "6", stdin=text) == seeded[1]


@pytest.mark.parametrize("name", sorted(PROGRAMS))
@pytest.mark.parametrize("bad", [["--no-such-option"], ["--seed", "x"], ["--seed", "9" * 5000]])
def test_a_bad_argument_is_one_line_naming_the_command_typed(name: str, bad: list[str]) -> None:
    status, out, err = run(name, *INTERACTIVE_ARGS.get(name, []), *bad)
    named = NAMES.get(name, name)
    assert (status, out) == (2, "")
    assert err.startswith(f"{named}: ") and err.endswith(f" (see {named} --help)\n")
    assert err.count("\n") == 1 and len(err) < 300
    via_casino = io.StringIO()
    args = [name, *INTERACTIVE_ARGS.get(name, []), *bad]
    assert casino_main(args, stdin=io.StringIO(), stdout=io.StringIO(), stderr=via_casino) == 2
    assert via_casino.getvalue() == err.replace(name, f"casino {name}")


def test_every_program_says_what_it_is_in_casino_help() -> None:
    out = io.StringIO()
    assert casino_main(["--help"], stdout=out, stderr=io.StringIO()) == 0
    for name in PROGRAMS:
        assert name in SUMMARIES, f"add a one-line summary of {name} to SUMMARIES"
        assert f"  {name:<12}{SUMMARIES[name]}\n" in out.getvalue()
    assert "  replay      replay transcripts" in out.getvalue()


def test_casino_without_a_known_command_is_a_usage_error() -> None:
    for argv, message in [
        ([], "casino: a command is needed (see casino --help)\n"),
        (["poker"], "casino: unknown command 'poker' (one of: "),
    ]:
        err = io.StringIO()
        assert casino_main(argv, stdout=io.StringIO(), stderr=err) == 2
        assert err.getvalue().startswith(message) and err.getvalue().count("\n") == 1


# ------------------------------------------------------------------- real processes


def environment() -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k not in ("CASINO_SEED", "PYTHONUTF8")}
    return {**env, "PYTHONPATH": str(ROOT), "PYTHONIOENCODING": "utf-8:strict"}


def spawn(name: str, cwd: Path) -> pexpect.spawn:
    argv = ["-m", PROGRAMS[name], *WAITING_ARGS.get(name, INTERACTIVE_ARGS.get(name, []))]
    return pexpect.spawn(
        sys.executable, argv, cwd=str(cwd), env=environment(), encoding="utf-8", timeout=60
    )


def wait_for_input(child: pexpect.spawn, name: str) -> None:
    """Until the program shows its prompt and then sleeps in the kernel, waiting for input
    (read, select, poll or epoll): a readiness the test sees, not a moment it guesses."""
    child.expect(PROMPTS.get(name, "."))
    deadline = time.monotonic() + 60
    while not waiting_in_kernel(child.pid):
        assert time.monotonic() < deadline, f"{name} never waited for input"
        time.sleep(0.01)


def waiting_in_kernel(pid: int) -> bool:
    """Whether process ``pid`` (its main thread) is asleep in a system call, as a program
    waiting for input is (``S`` in ``/proc/PID/stat``). Where there is no ``/proc``, the
    prompt alone says so (a signal before the read is held or handled alike)."""
    try:
        with open(f"/proc/{pid}/stat", encoding="ascii") as stat:
            return stat.read().rpartition(")")[2].split()[0] == "S"
    except FileNotFoundError:
        return not os.path.isdir("/proc/self")


SIGNALS = [(signal.SIGINT, 130, "interrupted"), (signal.SIGTERM, 143, "stopped by SIGTERM")]


@pytest.mark.parametrize("name", sorted(PROGRAMS))
@pytest.mark.parametrize(("signum", "status", "said"), SIGNALS)
def test_a_signal_while_waiting_for_input_is_one_line_and_its_status(
    name: str, signum: int, status: int, said: str, tmp_path: Path
) -> None:
    child = spawn(name, tmp_path)
    wait_for_input(child, name)
    child.kill(signum)
    child.expect(pexpect.EOF)
    child.close()
    assert (child.exitstatus, child.signalstatus) == (status, None)
    if name in WAITING_ARGS:  # the rest of the line it waits on comes first
        named = NAMES[f"{name}-waiting"]
        assert child.before == f"\r\n\r\n{named}: {said}\r\n"
    else:
        assert child.before == f"\r\n{name}: {said}\r\n"


@pytest.mark.parametrize(
    ("signum", "status", "said"), [*SIGNALS, (signal.SIGHUP, 129, "stopped by SIGHUP")]
)
def test_nimsys_saves_the_players_of_the_session_however_it_is_stopped(
    signum: int, status: int, said: str, tmp_path: Path
) -> None:
    child = spawn("nimsys", tmp_path)
    child.expect(r"\$")
    child.sendline("addplayer lskywalker,Skywalker,Luke")
    wait_for_input(child, "nimsys")
    child.kill(signum)
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == status and "Traceback" not in child.before
    assert child.before.endswith(f"nimsys: {said}\r\n")
    players = (tmp_path / "players.dat").read_text()
    assert players == "casino-nimsys players 1\nhuman\tlskywalker\tSkywalker\tLuke\t0\t0\n"


def closed_early(argv: list[str], data: bytes, cwd: Path) -> tuple[int, bytes]:
    """Run ``argv`` like ``… | head -c 20``: read a little, close the pipe, wait."""
    with subprocess.Popen(
        [sys.executable, *argv],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        cwd=cwd,
        env=environment(),
    ) as process:
        assert process.stdin and process.stdout and process.stderr
        process.stdin.write(data)
        process.stdin.close()
        assert len(process.stdout.read(20)) == 20
        process.stdout.close()
        return process.wait(timeout=120), process.stderr.read()


def test_demo_piped_into_head_ends_quietly(tmp_path: Path) -> None:
    assert closed_early(["-m", "casino.demo"], b"table 12\n" * 5000, tmp_path) == (1, b"")


def test_casino_replay_piped_into_head_ends_quietly(tmp_path: Path) -> None:
    folder = tmp_path / "many"
    folder.mkdir()
    transcript = (ROOT / "transcripts" / "demo" / "basics.yaml").read_text()
    for number in range(300):  # far more report than a pipe holds
        (folder / f"t{number:03}.yaml").write_text(transcript)
    assert closed_early(["-m", "casino", "replay", str(folder)], b"", tmp_path) == (1, b"")


def test_ctrl_c_in_a_parallel_replay_is_one_line(tmp_path: Path) -> None:
    """Ctrl-C reaches every process of the job; the pool's workers leave it to casino."""
    transcript = (ROOT / "transcripts" / "demo" / "basics.yaml").read_text()
    for number in range(3000):  # far more than can pass before the Ctrl-C
        (tmp_path / f"t{number:04}.yaml").write_text(transcript)
    child = pexpect.spawn(
        sys.executable,
        ["-m", "casino", "replay", "--jobs", "2", str(tmp_path)],
        env=environment(),
        encoding="utf-8",
        timeout=120,
    )
    child.expect("PASS ")
    child.sendintr()
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 130 and "Traceback" not in child.before
    # A report line cut short by the Ctrl-C may leave its newline to the final flush.
    assert child.before.rstrip("\r\n").endswith("\r\ncasino replay: interrupted")


def test_nimsys_saves_the_players_when_its_terminal_is_closed(tmp_path: Path) -> None:
    """The terminal going away ends the input and sends SIGHUP, in either order."""
    for attempt in range(3):
        child = spawn("nimsys", tmp_path)
        child.expect(r"\$")
        child.sendline(f"addplayer p{attempt},Term,Inal")
        wait_for_input(child, "nimsys")
        # As a terminal window closed by its user: the kernel hangs up on the program, and the
        # test waits for it to end however long that takes on a busy machine (pexpect's
        # close() gives it 0.1 s, then adds SIGHUP, SIGCONT and SIGINT of its own and fails).
        child.ptyproc.fileobj.close()
        if child.isalive():
            child.wait()
        assert child.exitstatus == 129 and child.signalstatus is None
        saved = (tmp_path / "players.dat").read_text().splitlines()
        assert saved[1:] == [f"human\tp{n}\tTerm\tInal\t0\t0" for n in range(attempt + 1)]


# ------------------------------------------------ the edges: what the environment does

HARNESS_HELP = {command: ["-m", "casino", command, "--help"] for command in HARNESS_COMMANDS}
"""The harness commands, each doing something that writes (its help): they need files to do
more, and the contract is the same for every way a program ends."""


def session(name: str) -> list[str]:
    """The arguments of ``python`` that start program ``name`` (a game: a session of it, its
    name as it is run alone; a harness command: ``casino COMMAND --help``)."""
    if name in HARNESS_HELP:
        return HARNESS_HELP[name]
    return ["-m", PROGRAMS[name], *INTERACTIVE_ARGS.get(name, [])]


def said_by(name: str) -> str:
    """The name that begins the program's one line."""
    return f"casino {name}" if name in HARNESS_HELP else NAMES.get(name, name)


EVERY_COMMAND = sorted([*PROGRAMS, *HARNESS_COMMANDS])


def run_in(shell: str, name: str, cwd: Path, **streams: Any) -> tuple[int, str]:
    """Program ``name``'s :func:`session` run by ``sh -c SHELL`` with ``"$@"`` as the program
    (its input the seeded one, where it has one, so that it writes): its status and stderr."""
    done = subprocess.run(
        ["sh", "-c", shell, "sh", sys.executable, *session(name)],
        input=SEEDED_INPUT.get(name, "").encode(),
        stderr=subprocess.PIPE,
        cwd=cwd,
        env=environment(),
        timeout=300,
        **streams,
    )
    return done.returncode, done.stderr.decode("utf-8", "replace")


def not_a_bug(err: str) -> None:
    """Nothing the environment did reads as casino's fault."""
    assert "Traceback" not in err and "a bug in casino" not in err, err


@pytest.mark.parametrize("name", EVERY_COMMAND)
def test_a_closed_stdout_is_one_line_and_status_1(name: str, tmp_path: Path) -> None:
    status, err = run_in('exec "$@" >&-', name, tmp_path)
    not_a_bug(err)
    prog = "casino" if name in HARNESS_HELP else name  # the first program run says it
    assert (status, err) == (1, f"{prog}: standard output is closed\n")


@pytest.mark.parametrize("name", EVERY_COMMAND)
def test_output_to_a_full_device_is_one_line_and_status_1(name: str, tmp_path: Path) -> None:
    with open("/dev/full", "wb") as full:
        status, err = run_in('exec "$@"', name, tmp_path, stdout=full)
    not_a_bug(err)
    assert (status, err) == (1, f"{said_by(name)}: No space left on device\n")


KEPT_THERE = {
    "nimsys": "nimsys: players.dat: players not saved: no such file or directory\n",
    "web": "web: cannot open the database casino.db: unable to open database file\n",
}
"""What the programs that keep a file in the working folder by default say when it is gone."""


@pytest.mark.parametrize("name", EVERY_COMMAND)
def test_a_vanished_working_folder_is_at_most_one_line(name: str, tmp_path: Path) -> None:
    """The program starts in a folder removed under it: a program that needs none runs as
    anywhere (status 0); one that keeps a file there (Nimsys's players) says in one line that
    it could not (status 1)."""
    folder = tmp_path / "gone"
    folder.mkdir()
    shell = 'cd "$0" && rmdir "$0" && exec "$@"'
    done = subprocess.run(
        ["sh", "-c", shell, str(folder), sys.executable, *session(name)],
        stdin=subprocess.DEVNULL,
        capture_output=True,
        env=environment(),
        timeout=300,
    )
    err = done.stderr.decode("utf-8", "replace")
    not_a_bug(err)
    if name in KEPT_THERE:
        assert (done.returncode, err) == (1, KEPT_THERE[name])
    else:
        assert (done.returncode, err) == (0, ""), err


@pytest.mark.parametrize("name", sorted(PROGRAMS))
def test_a_terminal_closed_mid_session_is_status_129(name: str, tmp_path: Path) -> None:
    """The terminal goes away while the program waits for its user: the kernel hangs up (its
    streams read and write ``EIO``, SIGHUP comes, in either order); status 129 either way."""
    child = spawn(name, tmp_path)
    wait_for_input(child, name)
    child.ptyproc.fileobj.close()
    if child.isalive():
        child.wait()
    assert (child.exitstatus, child.signalstatus) == (129, None)
