"""Players that break one rule each, like real students' players, for the tester's tests.

``python misbehaving.py HOST PORT FAULT`` plays our strategy but for FAULT:

- ``slow-crowd``: takes 1.5 s to answer when more than six players are at the table;
- ``never-close``: keeps the socket open after ``done``;
- ``login-only``: answers ``login`` and nothing else, and leaves at ``done``;
- ``hang-up-at-second-login``: closes the socket when it is sent ``login`` a second time;
- ``over-stack-7th``: bets one chip more than its stack at the 7th betting request;
- ``crash-at-bet2``: raises an exception at ``bet2`` (a traceback on stderr, status 1);
- ``flood-stderr``: writes 180,000 bytes to stderr (3,000 lines) before it connects.

FAULT may name several, joined by ``+`` (``slow-crowd+over-stack-7th``).
"""

from __future__ import annotations

import sys
import time

from casino.net.client import FrameSocket
from casino.net.stream import ConnectionClosed
from casino.stud import protocol as wire
from casino.stud.player import PlayerSession
from casino.stud.strategy import Strategy


def answer(session: PlayerSession, fault: str, text: str, seen: list[str]) -> str | None:
    """The reply to ``text`` (``seen``: every message before it), with the faults."""
    faults = set(fault.split("+"))
    requests = [sent for sent in seen if sent.startswith(("bet1:", "bet2:"))]
    if "login-only" in faults and text != "login":
        return None
    if "crash-at-bet2" in faults and text.startswith("bet2:"):
        raise RuntimeError(f"cannot read {text!r}")
    if "over-stack-7th" in faults and text.startswith("bet") and len(requests) == 6:
        request = wire.parse_command(text)
        assert isinstance(request, wire.BetRequest)
        return f"bet:{request.stack + 1}"
    if "slow-crowd" in faults and text.startswith("bet"):
        request = wire.parse_command(text)
        assert isinstance(request, wire.BetRequest)
        if len(request.table) > 6:
            time.sleep(1.5)
    return session.respond(text)


FLOOD = 3000 * ("x" * 59 + "\n")


def main(host: str, port: str, fault: str) -> None:
    faults = set(fault.split("+"))
    if "flood-stderr" in faults:
        sys.stderr.write(FLOOD)
        sys.stderr.flush()
    connection = FrameSocket.connect(host, int(port))
    session = PlayerSession(Strategy(), "bad", "Bad")
    seen: list[str] = []
    try:
        while session.done is None:
            text = connection.receive()
            if "hang-up-at-second-login" in faults and text == "login" and "login" in seen:
                break
            reply = answer(session, fault, text, seen)
            if text.startswith("done:"):
                session.done = text
            seen.append(text)
            if reply is not None:
                connection.send(reply)
        if "never-close" in faults:
            time.sleep(30)  # the tester kills us long before
    except ConnectionClosed:
        pass
    connection.close()


if __name__ == "__main__":
    main(*sys.argv[1:4])
