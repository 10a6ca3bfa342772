"""A student's three-card stud player in plain Python (standard library only, as a sandbox
that sees only /usr can run it): ``python3 poker.py HOST PORT [NAME]``.

It bets the most it may with a pair or better or a spade in the hole above 10, matches a bet
otherwise only when it is free, and closes the socket after ``done``. The tests make students
of it by setting ``FAULT``: ``always-match`` (matches every bet it can), ``crash-at-bet2``
(an exception at ``bet2``), ``no-dealer`` (exits before it connects), ``garbage`` (answers
every bet with ``bet:lots``), ``connect-twice`` (opens a second connection once logged in on
the first, and prints on stderr what it is told there).
"""

import socket
import struct
import sys

RANKS = "23456789TJQKA"
FAULT = ""


def rank(card: str) -> int:
    return RANKS.index("T" if card[:-1] == "10" else card[:-1])


def reply(parts: list[str]) -> str:
    stack, to_match = int(parts[1]), int(parts[3])
    mine = parts[4 : parts.index("up")]
    ranks = [rank(card) for card in mine]
    strong = len(set(ranks)) < len(ranks) or (mine[0].endswith("S") and ranks[0] >= 9)
    if to_match > stack:
        return "fold"
    if FAULT == "garbage":
        return "bet:lots"
    if FAULT == "always-match":
        return f"bet:{to_match}"
    if strong:
        return f"bet:{min(stack, to_match + 10)}"
    return "bet:0" if to_match == 0 else "fold"


def second(host: str, port: int) -> None:
    """Open another connection and print the first frame it is sent."""
    with socket.create_connection((host, port)) as sock:
        stream = sock.makefile("rb")
        head = stream.read(2)
        if len(head) == 2:
            text = stream.read(struct.unpack(">H", head)[0]).decode()
            print(f"second connection: {text}", file=sys.stderr)


def main() -> None:
    if FAULT == "no-dealer":
        sys.exit("no dealer for me")
    host, port = sys.argv[1], int(sys.argv[2])
    name = sys.argv[3] if len(sys.argv) > 3 else "pyplayer"
    with socket.create_connection((host, port)) as sock:
        stream = sock.makefile("rwb")
        while True:
            head = stream.read(2)
            if len(head) < 2:
                return
            text = stream.read(struct.unpack(">H", head)[0]).decode()
            parts = text.split(":")
            if text == "login":
                answer = f"{name}:{name}"
                if FAULT == "connect-twice":
                    second(host, port)
            elif parts[0] == "bet2" and FAULT == "crash-at-bet2":
                raise ValueError(f"cannot read {text!r}")
            elif parts[0] in ("bet1", "bet2"):
                answer = reply(parts)
            elif parts[0] == "done":
                return
            else:
                continue
            data = answer.encode()
            stream.write(struct.pack(">H", len(data)) + data)
            stream.flush()


if __name__ == "__main__":
    main()
