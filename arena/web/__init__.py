"""The web: a run's pages, JSON API and live updates, served in the referee's trio run.

:func:`create_app` builds the Starlette app of a run folder, :class:`Hub` carries the live
events, :func:`serve` runs the app with Hypercorn's trio worker in the caller's ``trio.run``.
See docs/web.md.
"""

from ._app import Follower, create_app
from ._hub import Hub
from ._league_status import LEAGUE_STATUS, read_league_status
from ._live import LIVE_DIR, LiveFile, LiveMatch, RunFolder
from ._live_run import RunServer, WebReporter
from ._server import is_loopback, serve, serve_app
from ._table_bounds import TableBounds
from ._tables import PERSON, TableError, TableRequest, Tables

__all__ = ["LEAGUE_STATUS", "LIVE_DIR", "PERSON", "Follower", "Hub", "LiveFile", "LiveMatch",
           "RunFolder", "RunServer", "TableBounds", "TableError", "TableRequest", "Tables",
           "WebReporter",
           "create_app", "is_loopback", "read_league_status", "serve", "serve_app"]
