"""A shipped strategy as a player process, for the tests that score strategies.

``python shipped.py HOST PORT STRATEGY SEED`` plays as ``casino stud player HOST PORT
--strategy STRATEGY --seed SEED`` does, without loading casino's command lines (a third of the
CPU to start: the tester starts one player per session, ten per check). The command line itself
is checked by ``test_check.py::test_our_player_gets_full_marks_and_a_json_report`` and
``test_cli.py``.
"""

from __future__ import annotations

import random
import sys

from casino.net.client import FrameSocket
from casino.stud.bots import STRATEGIES
from casino.stud.player import PlayerSession, play


def main(host: str, port: str, strategy: str, seed: str) -> None:
    """Play one session with ``strategy`` seeded with ``seed``."""
    session = PlayerSession(STRATEGIES[strategy](random.Random(int(seed))), "casino", "Casino")
    play(FrameSocket.connect(host, int(port)), session)


if __name__ == "__main__":
    main(*sys.argv[1:5])
