"""The server's work before the tables' moves (docs/web.md, "How much one server holds").

One trio run holds the server and the people's tables, and trio runs every task that is
ready once per turn: 200 tables whose seats answer at once make 200 decisions a turn, and an
HTTP answer, which takes a few turns (the socket read, the app, each write), waited a few
hundred decisions. A decision that needs no waiting (a stand-in's, an inline bot's) awaits
:func:`after_server` first, which returns once no other task of the run is ready and no
socket has anything to read: the server's answers, sockets and follower go first, the tables
take the time left, and none of it stays idle.
"""

from __future__ import annotations

import trio
import trio.testing

from ._service import run_service

__all__ = ["after_server"]


class _Pacer:
    """Lets the tables waiting in :func:`after_server` go, all in one turn, each time the
    run has nothing else to do (a task of the run's own, looking only while one waits)."""

    def __init__(self) -> None:
        self.go = trio.Event()
        self.wanted = trio.Event()

    async def run(self) -> None:
        while True:
            await self.wanted.wait()
            self.wanted = trio.Event()
            await trio.testing.wait_all_tasks_blocked()
            go, self.go = self.go, trio.Event()
            go.set()


_PACER: trio.lowlevel.RunVar[_Pacer] = trio.lowlevel.RunVar("arena.web.pacer")


async def after_server() -> None:
    """A checkpoint that returns once every other task of the trio run is blocked (trio's
    ``wait_all_tasks_blocked``), the tables waiting here all at once."""
    pacer = run_service(_PACER, _Pacer, "arena.web.pacer")
    pacer.wanted.set()
    await pacer.go.wait()
