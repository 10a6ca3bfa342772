"""Networking shared by casino's servers and clients: Java-compatible frames over asyncio.

- :mod:`casino.net.javautf`: the one implementation of Java's ``writeUTF``/``readUTF``
  framing (2-byte big-endian length, *modified* UTF-8).
- :mod:`casino.net.stream`: asyncio helpers that read and write those frames, with limits,
  and a loopback server.
"""
