"""The referee's test double: :class:`MemoryHost`, a scripted bot living in memory.

A test plays a match against a handler function (a request in, an answer out, or an
awaitable of one) instead of a process, under trio's autojump clock when it should time out.
The users' tier is :mod:`arena.referee`; the machinery is :mod:`arena.referee.lowlevel`.
"""

from .hosts._memory import MemoryHost

__all__ = ["MemoryHost"]
