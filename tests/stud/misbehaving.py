"""A player that breaks one rule, for the automatic tester's tests.

``python misbehaving.py HOST PORT sleepy``: answers its first bet after 2 s, then plays on.
``python misbehaving.py HOST PORT never-close``: keeps the socket open after ``done``.
"""

from __future__ import annotations

import sys
import time

from casino.net.client import FrameSocket
from casino.net.stream import ConnectionClosed
from casino.stud.bots import AlwaysCall
from casino.stud.player import PlayerSession


def main(host: str, port: str, fault: str) -> None:
    connection = FrameSocket.connect(host, int(port))
    session = PlayerSession(AlwaysCall(), "bad", "Bad")
    slept = False
    try:
        while session.done is None:
            text = connection.receive()
            reply = session.respond(text)
            if fault == "sleepy" and text.startswith("bet") and not slept:
                slept = True
                time.sleep(2)
            if reply is not None:
                connection.send(reply)
        if fault == "never-close":
            time.sleep(30)  # the tester kills us long before
    except ConnectionClosed:
        pass
    connection.close()


if __name__ == "__main__":
    main(*sys.argv[1:4])
