"""The referee's room of the match: the sans-I/O match loop, its two drivers, the record.

:class:`~arena.referee.loop._loop.MatchLoop` holds the rules' side of a match (whose turn,
judging an answer, faults, the record); ``_drive_trio`` feeds it from hosts under trio
deadlines, ``_drive_inline`` from in-process bots without trio. ``_record`` builds the
record, ``_starts`` the starts' outcomes, ``_watch`` a spectator's public events.
Private: the faces are :mod:`arena.referee` and :mod:`arena.referee.lowlevel`.
"""

# Compiled with arena.game where the install could (setup.py); arena.game's import chooses
# the compiled modules or the pure ones for this room too (arena/game/_engine.py).
import arena.game  # noqa: F401
