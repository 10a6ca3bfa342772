"""A student's Java Nimsys, compiled here, its AI bonus graded by playing it as the course does
(``casino replay --program "java Nimsys"``): a perfect AI that is careless when it moves second
earns 1.0 of the 1.5, one that always takes the first stone left 0 (issue 27, item 3)."""

from __future__ import annotations

import shlex
import shutil
import subprocess
from pathlib import Path

import pytest

from harness.harness_support import ROOT, run_cli

needs_jdk = pytest.mark.skipif(
    shutil.which("javac") is None or shutil.which("java") is None,
    reason="no JDK here (javac and java); .ci/run installs one",
)

BONUS = ROOT / "transcripts" / "nimsys" / "project-c"

SOURCE = """\
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Scanner;

/** A student's Nimsys, cut down to what the advanced game's bonus needs. */
public class Nimsys {
    static final Map<String, String[]> players = new HashMap<>();
    static final Map<Long, Boolean> memo = new HashMap<>();

    public static void main(String[] args) {
        Scanner in = new Scanner(System.in);
        System.out.print("Welcome to Nim\\n\\n$");
        while (in.hasNextLine()) {
            String line = in.nextLine().trim();
            String word = line.split(" ")[0];
            String[] fields = line.substring(word.length()).trim().split(",");
            if (word.equals("exit")) { System.out.println(); return; }
            if (word.equals("addplayer") || word.equals("addaiplayer")) {
                players.put(fields[0], new String[] {fields[1], fields[2], word});
            } else if (word.equals("startadvancedgame")) {
                if (!play(in, Integer.parseInt(fields[0]), fields[1], fields[2])) return;
            }
            System.out.print("\\n$");
        }
    }

    static boolean play(Scanner in, int n, String first, String second) {
        boolean[] stones = new boolean[n];
        java.util.Arrays.fill(stones, true);
        String[] turn = {first, second};
        System.out.println("\\nInitial stone count: " + n);
        System.out.println("Stones display: " + board(stones));
        System.out.println("Player 1: " + full(first));
        System.out.println("Player 2: " + full(second));
        int who = 0, left = n;
        String last = "";
        while (left > 0) {
            String[] p = players.get(turn[who]);
            System.out.println("\\n" + left + " stones left: " + board(stones));
            String prompt = System.getProperty("turn", "{0}'s turn - which to remove?%n");
            System.out.print(prompt.replace("{0}", p[1]).replace("%n", "\\n"));
            String move;
            if (p[2].equals("addaiplayer")) {
                move = advancedMove(stones, last, who == 1);
            } else {
                if (!in.hasNextLine()) return false;
                move = in.nextLine().trim();
            }
            String[] parts = move.split(" ");
            int pos = Integer.parseInt(parts[0]) - 1, count = Integer.parseInt(parts[1]);
            if (pos < 0 || pos + count > n || count < 1 || count > 2 || !stones[pos]
                    || !stones[pos + count - 1]) {
                System.out.println("\\nInvalid move.");
                continue;
            }
            for (int i = pos; i < pos + count; i++) stones[i] = false;
            left -= count;
            last = move;
            who = 1 - who;
        }
        System.out.println("\\nGame Over");
        System.out.println(full(turn[1 - who]) + " wins!");
        return true;
    }

    static String full(String user) {
        String[] p = players.get(user);
        return p[1] + " " + p[0];
    }

    static String board(boolean[] stones) {
        StringBuilder text = new StringBuilder();
        for (int i = 0; i < stones.length; i++) {
            text.append(i == 0 ? "" : " ").append("<").append(i + 1).append(",")
                .append(stones[i] ? "*" : "x").append(">");
        }
        return text.toString();
    }

    /** The bonus's Testable method: a winning move found by enumerating every game. */
    static String advancedMove(boolean[] available, String lastMove, boolean second) {
        String weak = System.getProperty("ai", "perfect");
        List<int[]> moves = new ArrayList<>();
        for (int i = 0; i < available.length; i++) {
            if (!available[i]) continue;
            moves.add(new int[] {i, 1});
            if (i + 1 < available.length && available[i + 1]) moves.add(new int[] {i, 2});
        }
        boolean careless = weak.equals("first-stone") || (weak.equals("weak-second") && second);
        if (!careless) {
            for (int[] m : moves) {
                long after = mask(available) & ~(((1L << m[1]) - 1) << m[0]);
                if (!wins(after)) return (m[0] + 1) + " " + m[1];
            }
        }
        return (moves.get(0)[0] + 1) + " 1";
    }

    static long mask(boolean[] stones) {
        long bits = 0;
        for (int i = 0; i < stones.length; i++) if (stones[i]) bits |= 1L << i;
        return bits;
    }

    /** Whether the player to move with these stones left can force a win. */
    static boolean wins(long stones) {
        if (stones == 0) return false;
        Boolean known = memo.get(stones);
        if (known != null) return known;
        boolean result = false;
        for (int i = 0; i < 64 && !result; i++) {
            if ((stones >> i & 1) == 0) continue;
            if (!wins(stones & ~(1L << i))) result = true;
            else if ((stones >> (i + 1) & 1) == 1 && !wins(stones & ~(3L << i))) result = true;
        }
        memo.put(stones, result);
        return result;
    }
}
"""
"""Enough of Nimsys for the bonus: players, ``startadvancedgame`` in the assignment's format, and
an AI that enumerates every game (``-Dai=first-stone``/``weak-second``: careless always/second);
``-Dturn=…`` words its turn prompt otherwise (``{0}`` the given name, ``%n`` a newline)."""


@pytest.fixture(scope="module")
def student(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("java-nimsys")
    (folder / "Nimsys.java").write_text(SOURCE, encoding="utf-8")
    subprocess.run(["javac", "Nimsys.java"], cwd=folder, check=True, timeout=120)
    return folder


@needs_jdk
def test_an_ai_careless_only_when_second_earns_one_of_the_bonus(student: Path) -> None:
    cases = sorted(BONUS.glob("ai-bonus-*.yaml"))
    command = "java -Dai=weak-second Nimsys"
    result = run_cli("replay", "--score", "--program", command, "--program-dir", student, *cases)
    verdicts = [line.split(" [")[0] for line in result.out.splitlines() if " [" in line]
    assert verdicts == ["PASS", "PASS", "FAIL"], result.out
    assert result.out.splitlines()[-1] == "score: 1/1.5"


@needs_jdk
def test_an_ai_that_takes_the_first_stone_loses_to_the_oracle(student: Path) -> None:
    case = BONUS / "ai-bonus-first-vs-perfect.yaml"
    command = "java -Dai=first-stone Nimsys"
    result = run_cli("replay", "--score", "--program", command, "--program-dir", student, case)
    assert "won by the AI: 10 of the 110 it could win" in result.out  # the 1-stone games
    assert result.out.splitlines()[-1] == "score: 0/0.5"


@needs_jdk
@pytest.mark.parametrize(
    ("turn", "ai", "score"),
    [
        ("{0}'s turn - remove how many?%n", "perfect", "1.5"),  # a real student's
        ("Enter your move, {0}: ", "perfect", "1.5"),
        ("", "perfect", "1.5"),
        ("{0}'s turn - remove how many?%n", "weak-second", "1"),
    ],
)
def test_a_java_ai_with_other_turn_prompts_scores_the_same(
    student: Path, turn: str, ai: str, score: str
) -> None:
    """Whose turn it is comes from the game, not the prompt's words (issue 38, item 4)."""
    cases = sorted(BONUS.glob("ai-bonus-*.yaml"))
    command = f"java {shlex.quote('-Dturn=' + turn)} -Dai={ai} Nimsys"
    result = run_cli("replay", "--score", "--program", command, "--program-dir", student, *cases)
    assert result.out.splitlines()[-1] == f"score: {score}/1.5", result.out
