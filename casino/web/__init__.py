"""CASINO-ROYAL in the browser: ``casino web`` serves a lobby and Hold'em tables.

- :mod:`casino.web.sessions`: the signed session cookie and the members it names.
- :mod:`casino.web.holdem`: a Hold'em table for browsers (the engine decides, the page asks).
- :mod:`casino.web.app`: the aiohttp application: pages, static files, WebSockets.
- :mod:`casino.web.cli`: the command line (``casino web``), which needs the ``web`` extra.

Nothing here knows a game rule: the page sends intentions, :mod:`casino.holdem` decides.
"""
