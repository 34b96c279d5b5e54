"""The web: a run's pages, JSON API and live updates, served in the referee's trio run.

:class:`RunWeb` is the web of a run folder (its Starlette app, whose lifespan runs the follower
and the people's tables; :meth:`RunWeb.serve`, the one entry of ``arena serve`` and ``arena run
--serve``), :class:`Hub` carries the live events, :func:`serve` runs an app with Hypercorn's
trio worker in the caller's ``trio.run``.
See docs/web.md.
"""

from ._app import RunWeb, create_app
from ._feed import LiveFile, LiveMatch, LocalWatch
from ._follower import Follower
from ._hub import Hub
from ._league_status import LEAGUE_STATUS, read_league_status
from ._live import LIVE_DIR, RunFolder
from ._live_run import RunServer, ServerSetup, WebReporter
from ._server import is_loopback, serve
from ._table_bounds import TableBounds
from ._tables import PERSON, TableError, TableRequest, Tables

__all__ = ["LEAGUE_STATUS", "LIVE_DIR", "PERSON", "Follower", "Hub", "LiveFile", "LiveMatch",
           "LocalWatch", "RunFolder", "RunServer", "RunWeb", "ServerSetup", "TableBounds",
           "TableError", "TableRequest", "Tables", "WebReporter",
           "create_app", "is_loopback", "read_league_status", "serve"]
