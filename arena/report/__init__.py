"""The HTML report of a run: leaderboard, head to head, course, matches and a replay viewer.

:func:`write_report` reads the records (docs/records.md) and the ratings API and writes a
folder that opens from the file system with no server and no network. :func:`replay_deals`
replays a record through the rules engine as events a viewer shows. See docs/report.md.
"""

from ._build import BATCH, REPLAYS, REPORT_DIR, ReportResult, write_report
from ._live import Rebuilds, ReportRefresher
from ._messages import LANGUAGES
from ._replay import (
                      CLEAR,
                      FORFEIT,
                      OUT,
                      REVOLUTION,
                      Event,
                      ReplayError,
                      moves_as_recorded,
                      replay_deals,
)
from ._saved import (
                     STANDINGS_CSV,
                     STANDINGS_JSON,
                     GrowingStandings,
                     StandingsTally,
                     standings_document,
                     standings_text,
                     write_standings,
)

__all__ = [
    "BATCH",
    "CLEAR",
    "FORFEIT",
    "LANGUAGES",
    "OUT",
    "REPLAYS",
    "REPORT_DIR",
    "REVOLUTION",
    "STANDINGS_CSV",
    "STANDINGS_JSON",
    "Event",
    "GrowingStandings",
    "Rebuilds",
    "ReplayError",
    "ReportRefresher",
    "ReportResult",
    "StandingsTally",
    "moves_as_recorded",
    "replay_deals",
    "standings_document",
    "standings_text",
    "write_report",
    "write_standings",
]
