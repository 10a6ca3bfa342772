"""The player: the Python counterpart of the seed's ``Poker.java``.

:class:`PlayerSession` is the protocol side, pure: a dealer's text in, the reply text (or
``None``) out. :func:`play` runs it over a socket until ``done``, then closes the socket.
"""

from __future__ import annotations

from typing import TextIO

from casino.net.client import FrameSocket
from casino.net.errors import ConnectionClosed
from casino.stud import protocol as wire
from casino.stud.bots import Decider


class PlayerSession:
    """Answers dealer messages with a :class:`Decider`; always legal, never raises."""

    def __init__(self, decider: Decider, ident: str, avatar: str) -> None:
        self.decider = decider
        self.login = wire.format_reply(wire.LoginReply(ident, avatar))
        self.done: str | None = None
        self.problems: list[str] = []

    def respond(self, text: str) -> str | None:
        """The reply to ``text``, or ``None`` for messages that take none."""
        try:
            command = wire.parse_command(text)
        except wire.ProtocolError as error:
            self.problems.append(str(error))
            # A betting request we cannot read: folding is always legal.
            return "fold" if text.startswith(("bet1:", "bet2:")) else None
        if isinstance(command, wire.Login):
            return self.login
        if isinstance(command, wire.BetRequest):
            return wire.format_reply(self._legal(command))
        if isinstance(command, wire.Done):
            self.done = command.message
        return None

    def _legal(self, request: wire.BetRequest) -> wire.Action:
        action = self.decider.decide(request)
        if isinstance(action, wire.Fold):
            return action
        legal = wire.legal_bet(action.amount, request.stack, request.to_match)
        return action if legal else wire.Fold()


def play(connection: FrameSocket, session: PlayerSession, log: TextIO | None = None) -> None:
    """Answer the dealer until ``done`` (then close), or until it hangs up."""
    try:
        while session.done is None:
            text = connection.receive()
            reply = session.respond(text)
            if reply is not None:
                connection.send(reply)
            if log is not None and not text.startswith(("bet1:", "bet2:")):
                log.write(f"{text}\n")
        if log is not None:
            for problem in session.problems:
                log.write(f"unreadable message: {problem}\n")
    finally:
        connection.close()


__all__ = ["ConnectionClosed", "PlayerSession", "play"]
