"""Games casino plays against a program (``play:`` transcripts): the block, the rival, the referee,
and the Nimsys bonus graded as the course grades it — through casino's own program and honest
variants of it, in process, through a pipe and a terminal (issue 27, item 3)."""

from __future__ import annotations

import random
import shlex
import sys
from pathlib import Path

import pytest

from casino.clock import FakeClock
from casino.duel import Side
from casino.harness.dump import dump_transcript
from casino.harness.load import load_transcript
from casino.harness.model import TranscriptError
from casino.harness.parse import parse_transcript
from casino.harness.play import _converse, load_adapter
from casino.harness.playspec import parse_play
from casino.harness.referee import Referee, Wait, choose
from casino.harness.runners.base import Target
from casino.harness.runners.inproc import InProcessRunner
from casino.harness.session import Status, check
from casino.nim import ai, play, shell
from casino.nim.duel import value
from harness.harness_support import ROOT, run_cli, write_transcript

BONUS = sorted((ROOT / "transcripts" / "nimsys" / "project-c").glob("ai-bonus-*.yaml"))
PYTHON = shlex.quote(sys.executable)
OWN = (InProcessRunner(), Target("nimsys"))
"""casino's own Nimsys, in process."""

PLAY = """\
name: a short play
program: nimsys
seed: 7
play:
  game: nimsys-advanced
  first: ai
  rival: perfect
  stones: STONES
  games: "2"
timeout: "5"
points: 0.5
"""

# -------------------------------------------------------------------- honest variant programs

FIRST_STONE = """\
from casino.nim import ai


def first_stone(self, available, last_move=""):
    return f"{list(available).index(True) + 1} 1"


ai.NimAIPlayer.advanced_move = first_stone
"""
"""An AI that always takes the first stone left."""

WEAK_SECOND = """\
from casino.nim import ai, play, shell

start, perfect = shell.NimsysShell.start_advanced_game, ai.NimAIPlayer.advanced_move


def start_advanced_game(self, command):
    names = [name.strip() for name in command.rest.split(",")]
    player = self.registry.get(names[2]) if len(names) > 2 and names[2] in self.registry else None
    self.ai.second = player is not None and player.kind.value == "ai"
    return start(self, command)


def advanced_move(self, available, last_move=""):
    if getattr(self, "second", False):
        return f"{list(available).index(True) + 1} 1"
    return perfect(self, available, last_move)


shell.NimsysShell.start_advanced_game = start_advanced_game
ai.NimAIPlayer.advanced_move = advanced_move
"""
"""casino's perfect AI, but for the games in which it moves second: then the first stone left."""

VARIANTS = {"perfect": "", "first-stone": FIRST_STONE, "weak-second": WEAK_SECOND}
SCORES = {"perfect": "1.5", "first-stone": "0", "weak-second": "1"}
"""What each AI earns of the bonus's 1.5 (the course: 0.5 a case, only at a 100 % win ratio)."""


def _program(folder: Path, patch: str) -> str:
    """A ``--program`` command: casino's Nimsys with ``patch`` applied first."""
    script = folder / "nimsys.py"
    script.write_text(f"import sys\n{patch}\nfrom casino.nim.cli import main\nsys.exit(main())\n")
    return f"{PYTHON} {shlex.quote(str(script))}"


def _score(output: str) -> str:
    line = output.splitlines()[-1]
    assert line.startswith("score: "), output
    return line.removeprefix("score: ").removesuffix("/1.5")


@pytest.mark.parametrize("variant", ["first-stone", "weak-second"])  # perfect: 1.5, in
# test_own_programs_as_program.py (casino's Nimsys passes its folder through a pipe and a pty)
def test_the_bonus_through_a_pipe_is_what_the_course_gives(variant: str, tmp_path: Path) -> None:
    command = _program(tmp_path, VARIANTS[variant])
    result = run_cli("replay", "--score", "--program", command, *BONUS)
    assert _score(result.out) == SCORES[variant], result.out


def test_the_bonus_through_a_terminal_is_the_same(tmp_path: Path) -> None:
    command = _program(tmp_path, WEAK_SECOND)
    result = run_cli("replay", "--score", "--runner", "pty", "--program", command, *BONUS)
    assert _score(result.out) == SCORES["weak-second"], result.out
    assert [line.split(" ")[0] for line in result.out.splitlines() if line[:1] in "PF"] == [
        "PASS",
        "PASS",
        "FAIL",
    ]


@pytest.mark.parametrize("variant", sorted(VARIANTS))
def test_the_bonus_in_process_is_the_same(variant: str, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(ai.NimAIPlayer, "advanced_move", ai.NimAIPlayer.advanced_move)
    monkeypatch.setattr(
        shell.NimsysShell, "start_advanced_game", shell.NimsysShell.start_advanced_game
    )  # (noted first: the variant's patches below are undone after the test)
    exec(VARIANTS[variant], {})
    results = [check(load_transcript(p), InProcessRunner(), Target("nimsys")) for p in BONUS]
    earned = sum(result.points for result in results)
    assert f"{earned:g}" == SCORES[variant]


def test_another_correct_ai_passes_and_the_report_names_every_lost_game(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    def last_winning(self: object, available: tuple[bool, ...], last_move: str = "") -> str:
        game = load_adapter("nimsys-advanced")
        moves = list(game.moves(tuple(available)))
        good = [m for m in moves if value(game.after(tuple(available), m)) == 0]
        return game.format((good or moves)[-1])

    monkeypatch.setattr(ai.NimAIPlayer, "advanced_move", last_winning)
    results = [check(load_transcript(p), InProcessRunner(), Target("nimsys")) for p in BONUS]
    assert [r.status for r in results] == [Status.PASS] * 3
    monkeypatch.setattr(ai.NimAIPlayer, "advanced_move", lambda self, a, m="": "1 1")
    # once stone 1 is gone, the AI's "1 1" is refused for ever: the play is stopped at its cap
    result = check(load_transcript(BONUS[0]), InProcessRunner(), Target("nimsys"))
    assert result.status is Status.FAIL
    verdict = result.verdicts[0]
    assert verdict.problem is not None and verdict.problem.startswith("stopped: it printed more")
    lines = verdict.output.actual.splitlines()
    assert lines[1] == "won by the AI: 10 of the 110 it could win"
    assert lines[2] == "game 11 of 110 (2 stones) lost: ai 1 1, rival 2 1"
    assert lines[12] == "… and 10 more games lost"
    assert lines[13].startswith("game 31 of 110 (4 stones) went wrong: stopped: it printed more")
    assert lines[13].endswith("(moves: ai 1 1, rival 3 1); the play stopped there")
    assert lines[14:] == ["games 32 to 110 not played"]


# -------------------------------------------------------- any wording of the turn prompts

REWORDED = """\
import re
from casino.nim import play

WORDING = {wording!r}


def reword(prompt):
    turn = re.fullmatch(r"(.*)'s turn - (?:which to remove|remove how many)\\?\\n", prompt)
    return WORDING.format(name=turn.group(1)) if turn else prompt


human, computer = play.Human.move, play.Computer.move
play.Human.move = lambda self, rules, game, prompt, last: human(
    self, rules, game, reword(prompt), last
)
play.Computer.move = lambda self, rules, game, prompt, last: computer(
    self, rules, game, reword(prompt), last
)
"""
"""casino's Nimsys with its turn prompt worded ``wording`` (``{name}``: the player's given name);
the boards, ``Invalid move.``, ``Game Over``, the winner's line and ``$`` stay the seed's."""

WORDINGS = {
    "remove how many": "{name}'s turn - remove how many?\n",  # a real student's
    "no prompt": "",
    "same line": "Enter your move, {name} (position count): ",
    "name first": "{name}, it is your turn:\n",
    "sentence": "It is now {name}'s turn. Which stones?\n",
}
"""Turn prompts the seed does not fix (its example's is ``Luke's turn - which to remove?``)."""


def _reworded(wording: str, patch: str = "") -> str:
    return REWORDED.format(wording=WORDINGS[wording]) + patch


def _reword_here(monkeypatch: pytest.MonkeyPatch, wording: str, patch: str = "") -> None:
    """Apply a reworded variant in this process (undone after the test)."""
    for name in ("Human", "Computer"):
        monkeypatch.setattr(getattr(play, name), "move", getattr(play, name).move)
    monkeypatch.setattr(ai.NimAIPlayer, "advanced_move", ai.NimAIPlayer.advanced_move)
    monkeypatch.setattr(
        shell.NimsysShell, "start_advanced_game", shell.NimsysShell.start_advanced_game
    )
    exec(_reworded(wording, patch), {})


@pytest.mark.parametrize("wording", sorted(WORDINGS))
def test_the_bonus_does_not_depend_on_the_turn_prompts_words(wording: str, tmp_path: Path) -> None:
    """casino's perfect AI with its turn prompts worded otherwise keeps the whole bonus through
    a pipe (issue 38, item 4): whose turn a board is comes from the game, not the words."""
    command = _program(tmp_path, _reworded(wording))
    result = run_cli("replay", "--score", "--program", command, *BONUS)
    assert _score(result.out) == "1.5", result.out


@pytest.mark.parametrize("wording", ["remove how many", "same line"])
def test_the_bonus_does_not_depend_on_the_words_through_a_terminal(
    wording: str, tmp_path: Path
) -> None:
    command = _program(tmp_path, _reworded(wording))
    result = run_cli("replay", "--score", "--runner", "pty", "--program", command, *BONUS)
    assert _score(result.out) == "1.5", result.out


@pytest.mark.parametrize("wording", sorted(WORDINGS))
@pytest.mark.parametrize("variant", sorted(VARIANTS))
def test_a_reworded_ai_scores_what_its_play_earns(
    variant: str, wording: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """In process, every wording with every AI: the perfect one 1.5, one weak when it moves
    second 1, one that takes the first stone 0, as with the seed's own wording."""
    _reword_here(monkeypatch, wording, VARIANTS[variant])
    results = [check(load_transcript(p), *OWN) for p in BONUS]
    assert f"{sum(result.points for result in results):g}" == SCORES[variant]


@pytest.mark.parametrize("wording", ["remove how many", "sentence"])
def test_a_wrong_ai_reworded_still_loses_through_a_pipe(wording: str, tmp_path: Path) -> None:
    command = _program(tmp_path, _reworded(wording, WEAK_SECOND))
    result = run_cli("replay", "--score", "--program", command, *BONUS)
    assert _score(result.out) == SCORES["weak-second"], result.out
    assert " lost: rival " in result.out


def test_the_original_game_reworded_is_played_the_same(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    text = PLAY.replace("nimsys-advanced", "nimsys-original").replace("STONES", "1-12")
    path = write_transcript(tmp_path / "p.yaml", text.replace("  games:", "  bound: 3\n  games:"))
    _reword_here(monkeypatch, "sentence")
    result = check(load_transcript(path), *OWN)
    assert result.status is Status.PASS, result.verdicts[0].output.actual
    monkeypatch.setattr(ai.NimAIPlayer, "remove_stone", lambda self, left, bound: 1)
    one = check(load_transcript(path), *OWN)
    assert "game 5 of 24 (3 stones) lost: ai 1, rival 1, ai 1" in one.verdicts[0].output.actual


# ---------------------------------------------------------------------------- the block


def test_a_play_transcript_loads_and_dumps_back(tmp_path: Path) -> None:
    for stones in ("1-3", "[2, 5]"):
        path = write_transcript(tmp_path / "p.yaml", PLAY.replace("STONES", stones))
        transcript = load_transcript(path)
        assert transcript.play is not None
        assert transcript.play.sizes == ((1, 2, 3) if stones == "1-3" else (2, 5))
        assert transcript.play.total == 2 * len(transcript.play.sizes)
        again = parse_transcript(dump_transcript(transcript), path)
        assert again == transcript
        assert f"stones: {stones}" in dump_transcript(transcript)


@pytest.mark.parametrize(
    ("change", "problem"),
    [
        (("stones: STONES", "stones: 0-3"), "play: 'stones' must be a range A-B or a list"),
        (("stones: STONES", "stones: [2, 2]"), "from 1 to 100, each once"),
        (("stones: STONES", "stones: 3-1"), "play: 'stones' must be a range A-B or a list"),
        (("stones: STONES", "stones: 1-101"), "whole numbers from 1 to 100"),
        (('games: "2"', "games: 0"), "play: 'games' must be a whole number from 1 to 10000"),
        (('games: "2"', "games: 9999"), "play: more than 10000 games in all"),
        (("rival: perfect", "rival: clever"), "play: 'rival' must be one of random, perfect"),
        (("first: ai", "first: both"), "play: 'first' must be one of ai, rival, not 'both'"),
        (("game: nimsys-advanced", "game: chess"), "play: 'game' must be one of nimsys-advanced"),
        (("  games:", "  rounds: 1\n  games:"), "play: unknown key 'rounds'"),
        (('  games: "2"\n', ""), "play: 'games' is missing"),
        (("play:", "steps: []\nplay:"), "line 4, column 1: 'steps' cannot go with 'play'"),
    ],
)
def test_a_bad_play_block_is_one_line(change: tuple[str, str], problem: str) -> None:
    text = PLAY.replace(*change).replace("STONES", "1-3")
    with pytest.raises(TranscriptError) as raised:
        parse_transcript(text, Path("t.yaml"))
    message = str(raised.value)
    assert message.startswith("t.yaml: ") and problem in message and "\n" not in message


def test_a_play_block_must_be_a_mapping() -> None:
    with pytest.raises(ValueError, match="'play' must be a mapping"):
        parse_play(["game"])


# ---------------------------------------------------------------------------- the rival


def test_the_rivals_choose_as_documented() -> None:
    game = load_adapter("nimsys-advanced")
    rng = random.Random(1)
    for position in [(True,) * 5, (True, False, True, True, True), (True, True, False, True, True)]:
        moves = list(game.moves(position))
        good = [m for m in moves if not game.winning(game.after(position, m))]
        for _ in range(20):
            move, erred = choose(game, position, "perfect", rng, erred=False)
            assert move in (good or moves) and not erred
            move, erred = choose(game, position, "erring", rng, erred=False)
            assert erred == bool(good and len(good) < len(moves))
            assert (move not in (good or moves)) == erred
            move, erred = choose(game, position, "erring", rng, erred=True)
            assert move in (good or moves) and not erred
            move, erred = choose(game, position, "random", rng, erred=False)
            assert move in moves and not erred


def test_the_same_seed_plays_the_same_games(tmp_path: Path) -> None:
    path = write_transcript(tmp_path / "p.yaml", PLAY.replace("STONES", "5-9"))
    runs = [check(load_transcript(path), InProcessRunner(), Target("nimsys")) for _ in range(2)]
    assert runs[0].outcomes[0].output == runs[1].outcomes[0].output
    other = write_transcript(tmp_path / "q.yaml", PLAY.replace("STONES", "5-9").replace("7", "8"))
    third = check(load_transcript(other), InProcessRunner(), Target("nimsys"))
    assert third.outcomes[0].output != runs[0].outcomes[0].output


def test_an_erring_rival_leaves_the_second_player_exactly_one_chance(tmp_path: Path) -> None:
    text = PLAY.replace("STONES", "2-9").replace("first: ai", "first: rival")
    path = write_transcript(tmp_path / "p.yaml", text.replace("rival: perfect", "rival: erring"))
    result = check(load_transcript(path), InProcessRunner(), Target("nimsys"))
    assert result.status is Status.PASS, result.verdicts[0].output.actual
    perfect = write_transcript(tmp_path / "q.yaml", text)
    never = check(load_transcript(perfect), InProcessRunner(), Target("nimsys"))
    assert never.status is Status.PASS  # no game counts: the rival never errs
    assert "not counted: 16 games in which the rival never left the AI" in (
        never.verdicts[0].output.actual
    )


# -------------------------------------------------------------------- programs that go wrong

STAND_IN = """\
import sys
mode = sys.argv[1]
print("Welcome to Nim\\n\\n$", end="", flush=True)
for line in sys.stdin:
    word = line.split(" ")[0].strip()
    if word == "exit":
        print()
        break
    if word == "startadvancedgame":
        if mode == "quit":
            sys.exit(3)
        if mode == "silent":
            sys.stdin.readline()
        if mode == "hidden":  # no board for the AI's turns: it takes stone 1, then loses
            print("\\n2 stones left: <1,x> <2,*> <3,*>\\nCasino's turn - which to remove?")
            sys.stdout.flush()
            sys.stdin.readline()
            print("\\nGame Over\\nCasino Rival wins!\\n\\n$", end="", flush=True)
            continue
        if mode == "flood":
            print("x" * 10000, flush=True)
            sys.stdin.readline()
        print("\\n3 stones left: <1,*> <2,*> <3,*>\\nDeep's turn - which to remove?")
        if mode == "jump":
            print("\\n1 stones left: <1,x> <2,*> <3,x>\\nCasino's turn - which to remove?")
            sys.stdout.flush()
            sys.stdin.readline()
        if mode == "refuse":
            board = "\\n1 stones left: <1,*> <2,x> <3,x>\\nCasino's turn - which to remove?"
            print(board, flush=True)
            sys.stdin.readline()
            print("\\nInvalid move.\\n" + board, flush=True)
            sys.stdin.readline()
        print("\\nGame Over\\n" + ("Casino Rival" if mode == "liar" else "Deep Robot") + " wins!")
    print("\\n$", end="", flush=True)
"""
"""A program that plays a 3-stone advanced game its own way, by ``mode``."""


@pytest.mark.parametrize(
    ("mode", "said"),
    [
        ("jump", "game 1 of 2 (3 stones) went wrong: the board after the AI's turn does not"),
        ("liar", "game 1 of 2 (3 stones) went wrong: the program says the rival won, but"),
        ("quit", "game 1 of 2 (3 stones) went wrong: the program ended (exit status 3)"),
        ("refuse", "went wrong: the program refused the rival's legal move 1 1 (moves: ai 2 2"),
        ("silent", "timed out: waited 0.5 s for the rival's turn or the end of game 1"),
        ("flood", "game 1 of 2 (3 stones) went wrong: stopped: it printed more than 4496 bytes"),
    ],
)
def test_a_program_that_goes_wrong_loses_that_game_and_the_play_stops(
    mode: str, said: str, tmp_path: Path
) -> None:
    (tmp_path / "stand_in.py").write_text(STAND_IN)
    text = PLAY.replace("STONES", "[3]").replace('timeout: "5"', 'timeout: "0.5"')
    path = write_transcript(tmp_path / "p.yaml", text)
    command = f"{PYTHON} {shlex.quote(str(tmp_path / 'stand_in.py'))} {mode}"
    result = run_cli("replay", "--program", command, path)
    assert result.status == 1
    assert said in result.out
    assert "game 2 not played" in result.out
    assert mode != "jump" or "(moves: no move)" in result.out


def test_the_in_process_runner_plays_only_casinos_programs(tmp_path: Path) -> None:
    path = write_transcript(tmp_path / "p.yaml", PLAY.replace("STONES", "[3]"))
    result = check(load_transcript(path), InProcessRunner(), Target(None, ("cat",)))
    assert result.status is Status.ERROR
    assert result.error == f"{path}: the in-process runner runs casino's own programs only"


def test_the_original_game_is_played_too(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    text = PLAY.replace("nimsys-advanced", "nimsys-original").replace("STONES", "1-12")
    path = write_transcript(tmp_path / "p.yaml", text.replace("  games:", "  bound: 3\n  games:"))
    transcript = load_transcript(path)
    assert transcript.play is not None and transcript.play.options == (("bound", 3),)
    assert "stones: 1-12, bound: 3, 2 games each" in transcript.play.describe()
    result = check(transcript, InProcessRunner(), Target("nimsys"))
    assert result.status is Status.PASS, result.verdicts[0].output.actual
    monkeypatch.setattr(ai.NimAIPlayer, "remove_stone", lambda self, left, bound: 1)
    one = check(transcript, InProcessRunner(), Target("nimsys"))
    assert "game 5 of 24 (3 stones) lost: ai 1, rival 1, ai 1" in one.verdicts[0].output.actual
    with pytest.raises(TranscriptError, match="play: 'bound' is missing"):
        parse_transcript(text, path)


def test_a_program_without_the_game_fails_at_its_start(tmp_path: Path) -> None:
    text = PLAY.replace("STONES", "[3]").replace("seed: 7", "args: [--stage, b]")
    result = check(load_transcript(write_transcript(tmp_path / "b.yaml", text)), *OWN)
    assert result.status is Status.FAIL
    assert result.verdicts[0].output.actual.splitlines()[2:] == [
        "game 1 of 2 (3 stones) went wrong: the game did not start: 'startadvancedgame 3,ai,rival'"
        " showed no board (moves: no move); the play stopped there",
        "game 2 not played",
    ]


def test_a_game_counts_even_if_the_program_never_shows_its_ais_boards(tmp_path: Path) -> None:
    (tmp_path / "stand_in.py").write_text(STAND_IN)
    path = write_transcript(tmp_path / "p.yaml", PLAY.replace("STONES", "[3]"))
    command = f"{PYTHON} {shlex.quote(str(tmp_path / 'stand_in.py'))} hidden"
    result = run_cli("replay", "--program", command, path)
    assert "won by the AI: 0 of the 2 it could win" in result.out
    assert "game 2 of 2 (3 stones) lost: ai 1 1, rival 2 2" in result.out


# ------------------------------------------------------------- every wait bounded by the step

TRICKLE = """\
import sys, time
mode = sys.argv[1]
if mode == "opening":  # a byte every 0.1 s, never the command prompt
    while True:
        print(".", end="", flush=True)
        time.sleep(0.1)
print("Welcome to Nim\\n\\n$", end="", flush=True)
for line in sys.stdin:
    word = line.split(" ")[0].strip()
    if word == "startadvancedgame":  # the AI's board, then a byte every 0.1 s, never a move
        print("\\n3 stones left: <1,*> <2,*> <3,*>\\nDeep's turn - which to remove?", flush=True)
        while True:
            print(".", end="", flush=True)
            time.sleep(0.1)
    print("\\n$", end="", flush=True)
"""
"""A program that prints a byte every 0.1 s before the first prompt, or in its AI's turn."""


@pytest.mark.parametrize(
    ("mode", "said"),
    [
        ("opening", "no game was played: timed out: waited 0.5 s for the command prompt"),
        ("game", "went wrong: timed out: waited 0.5 s for the rival's turn or the end of game 1"),
    ],
)
def test_a_trickling_program_is_stopped_at_its_steps_time_out(
    mode: str, said: str, tmp_path: Path
) -> None:
    """Output that trickles in earns no time (issue 39, item 5): the step's 0.5 s are for the
    whole screen, not between two bytes (else the opening would run to the play's bound, and
    the game to its own, 2.5 s, with other words)."""
    (tmp_path / "trickle.py").write_text(TRICKLE)
    text = PLAY.replace("STONES", "[3]").replace('timeout: "5"', 'timeout: "0.5"')
    path = write_transcript(tmp_path / "p.yaml", text)
    command = f"{PYTHON} {shlex.quote(str(tmp_path / 'trickle.py'))} {mode}"
    for runner in ("pipe", "pty"):
        result = run_cli("replay", "--runner", runner, "--program", command, path)
        assert result.status == 1
        assert said in result.out, result.out


class _Trickling:
    """A live console on a fake clock: each read waits ``gap`` seconds and brings a byte."""

    def __init__(self, clock: FakeClock, gap: float) -> None:
        self.clock, self.gap, self.problem, self.closed, self.text = clock, gap, None, False, ""

    @property
    def size(self) -> int:
        return len(self.text)

    def since(self, offset: int) -> str:
        return self.text[offset:]

    def read(self, seconds: float) -> bool:
        assert self.clock.now() < 100, "the wait was never bounded"
        if seconds < self.gap:
            self.clock.advance(seconds)
            return False
        self.clock.advance(self.gap)
        self.text += "."
        return True

    def send(self, line: str) -> None:
        raise AssertionError(f"nothing is typed before the prompt, not {line!r}")


@pytest.mark.parametrize("gap", [0.001, 0.3, 2.9, 3.0, 4.0])
def test_each_step_has_its_time_out_in_all_on_the_injected_clock(gap: float) -> None:
    clock = FakeClock()
    transcript = parse_transcript(PLAY.replace("STONES", "[3]"), Path("t.yaml"))
    assert transcript.play is not None
    referee = Referee(load_adapter("nimsys-advanced"), transcript.play, 7)
    console = _Trickling(clock, gap)
    problem = _converse(console, referee, 3.0, clock.now)  # type: ignore[arg-type]
    assert problem == "timed out: waited 3 s for the command prompt; it was stopped"
    assert clock.now() == pytest.approx(3.0)  # the step's 3 s, not a second more
    bytes_in_the_step = 3.0 // gap if gap <= 3.0 else 0
    assert len(console.text) == pytest.approx(bytes_in_the_step, abs=1)


START = "\n3 stones left: <1,*> <2,*> <3,*>\n"
"""The first board of a game of 3."""


def _referee(first: str = "ai") -> Referee:
    text = PLAY.replace("STONES", "[3]").replace("first: ai", f"first: {first}")
    transcript = parse_transcript(text, Path("t.yaml"))
    assert transcript.play is not None
    return Referee(load_adapter("nimsys-advanced"), transcript.play, 7)


def test_whose_turn_a_board_is_comes_from_the_game_not_the_words() -> None:
    """A program with no turn prompt at all, that shows the AI's move and a final board of no
    stones: casino types the rival's move once a whole board of the rival's turn is shown,
    and the winner follows from the last move (the AI's, onto that empty board)."""
    referee = _referee()
    assert referee.decide("Welcome to Nim\n\n$", blocked=False) == "addplayer rival,Rival,Casino"
    assert referee.decide("\n$", blocked=False) == "addaiplayer ai,Robot,Deep"
    assert referee.decide("\n$", blocked=False) == "startadvancedgame 3,ai,rival"
    assert referee.decide(START, blocked=False) is Wait.MORE  # the AI's turn
    moved = START + "\n2 stones left: <1,*> <2,x> <3,*>\n"
    assert referee.decide(moved[:-1], blocked=False) is Wait.MORE  # (a line not yet ended)
    rival = referee.decide(moved, blocked=False)
    assert rival in ("1 1", "3 1")
    last = "3" if rival == "1 1" else "1"
    after = "<1,x> <2,x> <3,*>" if rival == "1 1" else "<1,*> <2,x> <3,x>"
    end = f"\n1 stones left: {after}\n\n0 stones left: <1,x> <2,x> <3,x>\n"
    assert referee.decide(end + "\nGame Over\n", blocked=False) is Wait.MORE
    assert referee.decide(end + "\nGame Over\nDeep Robot wins!\n\n$", blocked=False) == (
        "startadvancedgame 3,ai,rival"
    )
    game = referee.records[0]
    assert (game.winner, game.problem) == (Side.AI, None)
    assert game.moves == ["ai 2 1", f"rival {rival}", f"ai {last} 1"]


def test_the_rival_first_is_typed_to_at_its_first_board() -> None:
    referee = _referee("rival")
    for _ in range(3):
        line = referee.decide("\n$", blocked=False)
    assert line == "startadvancedgame 3,rival,ai"
    assert referee.decide("\nInitial stone count: 3\n", blocked=False) is Wait.MORE
    assert referee.decide("\n3 stones left: <1,*> <2,*> <3,*>\n", blocked=False) == "2 1"


@pytest.mark.parametrize(
    ("screen", "problem"),
    [
        ("\n2 stones left: <1,*> <2,*>\n", "the first board is not the start of a game of 3"),
        (START + "\n1 stones left: <1,x> <2,*> <3,x>\n", "AI's turn does not follow by a legal"),
        (START + "\n2 stones left: <1,x> <2,*> <3,*>\n\n$", "left the game with no winner"),
        (START + "\nGame Over\nCasino Rival wins!\n\n$", "the program says the rival won, but"),
        ("\nUnknown command.\n\n$", "the game did not start"),
    ],
)
def test_a_board_that_does_not_follow_from_the_game_stops_it(screen: str, problem: str) -> None:
    referee = _referee()
    for _ in range(3):
        referee.decide("\n$", blocked=False)
    assert referee.decide(screen, blocked=False) is None
    assert referee.records[0].problem is not None
    assert problem in referee.records[0].problem
