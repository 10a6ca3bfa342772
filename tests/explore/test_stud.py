"""``casino explore --reference stud-player``: casino's own bots break no rule; mutant players
(an illegal amount, a slow reply, a socket left open) are found and shrunk to a short game."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from casino.clock import MonotonicClock
from casino.explore.stud import Played, StudExplorer, draw_game, explore_player, script
from casino.stud import protocol as wire
from casino.stud.check import Limits
from casino.stud.launch import Launch

STUD = Path(__file__).resolve().parents[1] / "stud"


def misbehaving(fault: str) -> list[str]:
    return [sys.executable, str(STUD / "misbehaving.py"), "{host}", "{port}", fault]


def shipped(strategy: str) -> list[str]:
    return [
        sys.executable,
        "-m",
        "casino",
        "stud",
        "player",
        "{host}",
        "{port}",
        "--strategy",
        strategy,
        "--seed",
        "1",
    ]


def test_games_are_drawn_from_the_seed_and_every_request_is_well_formed() -> None:
    import random

    first = [draw_game(random.Random(5), 4) for _ in range(2)]
    assert first[0] == first[1]
    for hand in first[0].hands:
        assert len(set(hand.cards)) == len(hand.cards)
        assert all(to_match >= 1 for to_match in (*hand.first[1:], *hand.second[1:]))


@pytest.mark.parametrize("strategy", ["ours", "random-legal", "pair-or-fold"])
def test_casinos_own_players_break_no_rule(strategy: str) -> None:
    founds, runs = explore_player(shipped(strategy), MonotonicClock(), 0, 4)
    assert founds == []
    assert runs == 4
    assert explore_player(shipped(strategy), MonotonicClock(), 0, 4, every=True) == ([], 4)


def test_an_illegal_amount_is_found_and_shrunk_to_the_seventh_request() -> None:
    [found], _ = explore_player(misbehaving("over-stack-7th"), MonotonicClock(), 0, 20)
    assert found.played.rule == "legal"
    lines = found.played.lines
    requests = [line for line in lines if line.startswith(("dealer: bet1", "dealer: bet2"))]
    assert len(requests) == 7  # the fault is at the 7th request: no shorter game shows it
    last = wire.parse_command(requests[-1].removeprefix("dealer: "))
    assert isinstance(last, wire.BetRequest)
    assert lines[-1] == f"player: bet:{last.stack + 1}"
    text = script(found, 0)
    assert text.splitlines()[4:6] == ["dealer: login", "player: bad:Bad"]
    assert text.endswith(f"breach (legal): {found.played.breach}\n")


def test_a_socket_left_open_after_done_is_found_in_one_hand() -> None:
    explorer = StudExplorer(
        Launch(tuple(misbehaving("never-close"))), MonotonicClock(), Limits(patience=1.5, close=0.5)
    )
    found = explorer.find(0, 3)
    assert found is not None and found.number == 1 and found.played.rule == "closes"
    shrunk = explorer.shrink(found)
    assert len(shrunk.game.hands) == 1
    assert shrunk.played.lines[-1].startswith("dealer: done:")


def test_a_slow_reply_at_a_crowded_table_is_found_and_shrunk_to_one_request() -> None:
    [found], _ = explore_player(misbehaving("slow-crowd"), MonotonicClock(), 0, 30)
    assert found.played.rule == "timely"
    requests = [line for line in found.played.lines if line.startswith("dealer: bet")]
    assert len(found.game.hands) == 1 and len(requests) == 1
    request = wire.parse_command(requests[0].removeprefix("dealer: "))
    assert isinstance(request, wire.BetRequest) and len(request.table) > 6


def test_the_command_line_writes_the_dealers_script(tmp_path: Path) -> None:
    import io
    import shlex

    from casino.explore.cli import main

    out = tmp_path / "script.txt"
    stdout = io.StringIO()
    program = shlex.join(misbehaving("over-stack-7th"))
    argv = ["explore", "--reference", "stud-player", "--program", program, "--sessions", "20"]
    status = main([*argv, "-o", str(out)], stdout=stdout, stderr=io.StringIO())
    assert status == 1
    first, second, third = stdout.getvalue().splitlines()
    assert first.startswith("game 8 breaks the rules (legal): 'bet:1' to 'bet1:0:")
    assert second.endswith(f"the dealer's script: {out}")
    assert out.read_text(encoding="utf-8").splitlines()[0] == (
        "# casino explore --reference stud-player, seed 0, game 8"
    )
    assert third == (
        f"replay it with: casino explore --reference stud-player --program"
        f" {shlex.quote(program)} --replay {shlex.quote(str(out))}"
    )
    # the script's game dealt again: the same breach by the same player, none by casino's own
    stdout = io.StringIO()
    replay = ["explore", "--reference", "stud-player", "--replay", str(out)]
    assert main([*replay, "--program", program], stdout=stdout, stderr=io.StringIO()) == 1
    assert stdout.getvalue() == (
        f"replayed {out}: breaks the rules (legal): {first.partition('(legal): ')[2]}\n"
    )
    stdout = io.StringIO()
    ours = shlex.join(shipped("ours"))
    assert main([*replay, "--program", ours], stdout=stdout, stderr=io.StringIO()) == 0
    assert stdout.getvalue() == f"replayed {out}: no breach\n"


def test_a_script_round_trips_its_game_and_a_bad_one_is_one_clear_error(tmp_path: Path) -> None:
    import random

    from casino.explore.stud import ScriptError, StudFound, game_of_script

    game = draw_game(random.Random(3), 5)
    text = script(StudFound(game, Played(["dealer: login"], "x", "legal"), 1), 0)
    assert game_of_script(text) == game
    for bad in ("# nothing here\n", '# game: {"chips":5}\n', '# game: {"chips":-1,"hands":[]}\n'):
        with pytest.raises(ScriptError):
            game_of_script(bad)


def test_every_rule_broken_is_found_and_shrunk_each_to_its_own_script(tmp_path: Path) -> None:
    """``--every``: a player that is slow at a crowded table and bets over its stack at its
    7th request is reported for both rules, each shrunk to a game that breaks that rule (the
    first breach alone would hide the other), each script replaying its own breach."""
    import io
    import shlex

    from casino.explore.cli import main

    program = shlex.join(misbehaving("slow-crowd+over-stack-7th"))
    out = tmp_path / "script.txt"
    stdout = io.StringIO()
    argv = ["explore", "--reference", "stud-player", "--program", program, "--sessions", "30"]
    assert main([*argv, "--every", "-o", str(out)], stdout=stdout, stderr=io.StringIO()) == 1
    said = stdout.getvalue().splitlines()
    broken = [line for line in said if "breaks the rules" in line]
    rules = [line.partition("(")[2].partition(")")[0] for line in broken]
    assert sorted(rules) == ["legal", "timely"]
    assert said[-1].startswith("2 rule(s) broken; ") and said[-1].endswith(" runs")
    scripts = {rules[0]: out, rules[1]: tmp_path / f"script-{rules[1]}.txt"}
    for rule, where in scripts.items():
        assert where.read_text(encoding="utf-8").splitlines()[-1].startswith(f"breach ({rule}): ")
        stdout = io.StringIO()
        replay = ["explore", "--reference", "stud-player", "--program", program]
        assert main([*replay, "--replay", str(where)], stdout=stdout, stderr=io.StringIO()) == 1
        assert f"breaks the rules ({rule}): " in stdout.getvalue()
    # without --every, the first breach only, as before
    stdout = io.StringIO()
    assert main([*argv, "-o", str(tmp_path / "one.txt")], stdout=stdout, stderr=io.StringIO()) == 1
    assert len(stdout.getvalue().splitlines()) == 3
