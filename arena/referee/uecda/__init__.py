"""The referee's room of UECda: a UECda 20070 client program as a seat's bot.

``_tables`` converts between the protocol's 8x15 card tables and arena's cards, moves and
views, with no I/O (:data:`arena.referee.lowlevel.uecda`); ``_link`` is the TCP link to
the client's process, ``_host`` the ``uecda`` host on top of it (docs/uecda.md). Private:
the faces are :mod:`arena.referee` and :mod:`arena.referee.lowlevel`.
"""
