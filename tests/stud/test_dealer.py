"""The dealer's rules and its handling of bad players, with in-process players and a fake
clock (nothing waits for real)."""

from __future__ import annotations

from casino.clock import FakeClock
from casino.net.stream import ConnectionClosed

from .helpers import play, scripted, table

# holes P0 KS, P1 5D, P2 3C; first up cards 10D AH 8C; second up cards 10S 2H (7S unused)
DECK = "KS 5D 3C 10D AH 8C 10S 2H 7S"


def test_a_whole_hand_message_by_message() -> None:
    played, conns = table(
        [
            scripted(["bet:15", "bet:0", "bet:0"]),
            scripted(["bet:10", "bet:5", "bet:4"]),
            scripted(["fold"]),
        ],
        deck=DECK,
    )
    ranking = play(played)
    assert conns[1].sent[:2] == [
        "bet1:99:3:0:5D:AH:up:10D:AH:8C",
        "bet1:89:28:5:5D:AH:up:10D:AH:8C",
    ]
    assert conns[2].sent[0] == "bet1:99:13:10:3C:8C:up:10D:AH:8C"
    assert conns[0].sent[0] == "bet1:99:13:10:KS:10D:up:10D:AH:8C"
    # second round: P0 shows a pair of tens and bets first; only players still in are listed
    assert conns[0].sent[1] == "bet2:84:33:0:KS:10D:10S:up:10D:10S:AH:2H"
    assert conns[1].sent[2] == "bet2:84:33:0:5D:AH:2H:up:10D:10S:AH:2H"
    assert conns[0].sent[2] == "bet2:84:37:4:KS:10D:10S:up:10D:10S:AH:2H"
    # P0's bet:0 after P1's 4 is illegal (to match 4): P0 is out, the pot goes to P1
    assert conns[0].sent[3].startswith("done:illegal bet 0 to bet2:84:37:4:")
    assert conns[0].sent[3].endswith("allowed 4 to 14")
    assert conns[1].sent[3] == "status:win:5D:AH:2H"
    assert conns[2].sent[1] == "status:lose:5D:AH:2H"
    assert [(seat.avatar, seat.stack) for seat in ranking] == [("P1", 117), ("P2", 99), ("P0", 84)]
    assert ranking[2].left is not None and ranking[2].left.startswith("illegal bet 0")


def test_spade_in_the_hole_takes_half() -> None:
    played, conns = table([scripted(["bet:0", "bet:0"]), scripted(["bet:0", "bet:0"])], deck=DECK)
    ranking = play(played)
    # holes KS 5D, up cards 3C 10D, then AH 8C: P0 has KS 3C AH, P1 5D 10D 8C
    assert conns[0].sent[0] == "bet1:99:2:0:KS:3C:up:3C:10D"
    stacks = {seat.avatar: seat.stack for seat in ranking}
    assert stacks == {"P0": 101, "P1": 99}  # P0: high card ace and the spade: the whole pot


def test_late_reply_is_removed_and_the_others_play_on() -> None:
    clock = FakeClock()

    def slow(text: str) -> str | None:
        if text.startswith("bet"):
            clock.advance(1.5)
            return "bet:0"
        return "slow:slow" if text == "login" else None

    played, conns = table([slow, scripted([]), scripted([])], hands=3, clock=clock)
    ranking = play(played)
    done = [text for text in conns[0].sent if text.startswith("done:")]
    assert len(done) == 1 and done[0].startswith("done:no reply within 1 s to bet1:")
    assert conns[0].sent[-1] == done[0] and conns[0].closed
    assert played.hands_played == 3
    assert sum(seat.stack for seat in ranking) == 300


def test_unparsable_and_disconnected_players_are_removed() -> None:
    def hangs_up(text: str) -> str | None:
        if text.startswith("bet"):
            raise ConnectionClosed("reset by peer")
        return None

    played, conns = table([scripted(["raise 5"]), hangs_up, scripted([]), scripted([])], hands=2)
    ranking = play(played)
    assert conns[0].sent[-1].startswith("done:unparsable reply 'raise 5' to bet1:")
    reasons = {seat.avatar: seat.left for seat in ranking}
    assert reasons["P1"] == "disconnected (reset by peer)"
    assert reasons["P2"] == reasons["P3"] == "game over"
    assert played.hands_played == 2


def test_a_stack_that_cannot_match_must_fold() -> None:
    # P1 has 5 chips (4 after the ante); P0 bets 10 first (AH showing in seat 1? no: P1 AH)
    played, conns = table(
        [scripted(["bet:10"]), scripted(["bet:0", "bet:4"])], stack=[100, 5], deck=DECK, hands=1
    )
    play(played)
    assert conns[1].sent[0] == "bet1:4:2:0:5D:10D:up:3C:10D"
    assert conns[0].sent[0] == "bet1:99:2:0:KS:3C:up:3C:10D"
    assert conns[1].sent[1] == "bet1:4:12:10:5D:10D:up:3C:10D"
    assert conns[1].sent[2].startswith("done:illegal bet 4 to bet1:4:12:10:")
    assert conns[1].sent[2].endswith("you must fold: your stack 4 cannot match 10")


def test_stack_zero_after_the_ante_may_bet_zero_and_a_broke_player_is_out() -> None:
    played, conns = table(
        [scripted(["bet:0"] * 4), scripted(["bet:0"] * 4)], stack=[100, 1], deck=DECK, hands=3
    )
    ranking = play(played)
    assert conns[1].sent[0] == "bet1:0:2:0:5D:10D:up:3C:10D"
    assert conns[1].sent[1] == "bet2:0:2:0:5D:10D:8C:up:3C:AH:10D:8C"
    assert conns[1].sent[-2:] == ["status:lose:KS:3C:AH", "done:you have no chips left to ante"]
    assert played.hands_played == 1
    assert [(seat.avatar, seat.stack) for seat in ranking] == [("P0", 101), ("P1", 0)]


def test_no_bet2_when_one_player_is_left() -> None:
    played, conns = table([scripted(["fold"]), scripted(["bet:5"])], deck=DECK)
    play(played)
    assert not any(text.startswith("bet2") for conn in conns for text in conn.sent)
    assert conns[1].sent[1:] == ["status:win:5D:10D:AH", "done:game over"]
    assert conns[0].sent[1:] == ["status:lose:5D:10D:AH", "done:game over"]
