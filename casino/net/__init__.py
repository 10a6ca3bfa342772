"""Networking shared by casino's servers and clients: the one place that touches sockets.

- :mod:`casino.net.javautf`: the one implementation of Java's ``writeUTF``/``readUTF``
  framing (2-byte big-endian length, *modified* UTF-8).
- :mod:`casino.net.stream`: asyncio frame streams and frame servers (the stud dealer, the
  automatic tester); :mod:`casino.net.lines`: newline-ended UTF-8 lines (the Hold'em table);
  :mod:`casino.net.client`: a blocking frame client for bots.
- :mod:`casino.net.guard`: what keeps one client from stalling a server — output that is
  queued and never waited for (a client that does not read is dropped), flood limits,
  rate-limited warnings, for the socket servers and the web alike (the outbox's core is
  :mod:`casino.net.outbox`); :mod:`casino.net.listener`: accepting, with connections capped below
  the file descriptor limit and ``EMFILE`` met with one log line; :mod:`casino.net.names`:
  names clients choose, printable and not anybody else's.
"""

LOOPBACK = "127.0.0.1"
"""Where casino's servers listen unless told otherwise (here, so that a command line can name
it without importing the asyncio of :mod:`casino.net.stream`)."""
