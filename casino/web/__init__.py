"""CASINO-ROYAL in the browser: ``casino web`` serves a lobby, dominoes and Hold'em tables.

- :mod:`casino.web.sessions`: the signed session cookie, its expiry, the members it names,
  the forms' CSRF token.
- :mod:`casino.web.guard`: what one client may cost (bounded sends, a message budget, a
  quiet log).
- :mod:`casino.web.domino`: dominoes against the computer, the move clock on the server.
- :mod:`casino.web.holdem`: a Hold'em table for browsers (the engine decides, the page asks);
  :mod:`casino.web.holdemseats` its state and seats, :mod:`casino.web.holdemview` what its
  members are shown and told, :mod:`casino.web.holdemlog` its log in each language.
- :mod:`casino.web.store`: members and their money in a database (:mod:`casino.web.passwords`
  the passwords' hashes, :mod:`casino.web.schema` the SQL, :mod:`casino.web.databases` the
  database ``--database`` names, opened).
- :mod:`casino.web.app`: the aiohttp application: pages, static files, WebSockets.
- :mod:`casino.web.cli`: the command line (``casino web``), which needs the ``web`` extra.

Nothing here knows a game rule: the page sends intentions, and :mod:`casino.holdem` and
:mod:`casino.domino` decide.
"""
